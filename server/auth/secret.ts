// The session-signing key: MESHSCOPE_SESSION_SECRET (serve sets a random one when the user gives none;
// replicas behind one Service must share it, from a Secret). Read from the environment by proxy.ts and by
// the routes alike, so both check the same signatures.
import { SESSION_SECRET_ENV } from './settings';

export function sessionSecret(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const s = env[SESSION_SECRET_ENV]?.trim();
  return s && s.length >= 16 ? s : undefined;
}
