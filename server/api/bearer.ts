// Bearer-token check for write endpoints (the sandbox apply): `Authorization: Bearer TOKEN`, compared in
// constant time (both sides hashed to a fixed length first, so the length leaks nothing either).
// (feat/http adds the server-wide --auth-token-file check; this is the apply endpoints' own, same rule.)
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Whether the Authorization header carries `token`. An empty configured token never matches. */
export function checkBearer(authorization: string | null | undefined, token: string): boolean {
  if (!token) return false;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  const given = m?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/** A fresh random token (what `serve` prints when no --auth-token-file / MESHSCOPE_AUTH_TOKEN is set). */
export const randomToken = (): string => randomBytes(24).toString('base64url');
