// zod schema and webhook checks of security.istio.io PeerAuthentication (istio/api security/v1beta1/peer_authentication.proto;
// pkg/config/validation/validation.go ValidatePeerAuthentication).
import { z } from 'zod';
import type { PeerAuthenticationSpec } from '../istio';
import type { PathIssue } from './common';
import { stringMap } from './common';
import { labelsIssues } from './rules';

const mtls = z.strictObject({ mode: z.enum(['UNSET', 'DISABLE', 'PERMISSIVE', 'STRICT']).optional() });

export const peerAuthenticationSpec: z.ZodType<PeerAuthenticationSpec> = z.strictObject({
  selector: z.strictObject({ matchLabels: stringMap.optional() }).optional(),
  mtls: mtls.optional(),
  portLevelMtls: z.record(z.string(), mtls).optional(),
});

export function checkPeerAuthentication(spec: PeerAuthenticationSpec): PathIssue[] {
  const out: PathIssue[] = [];
  const emptySelector = Object.keys(spec.selector?.matchLabels ?? {}).length === 0;
  const ports = spec.portLevelMtls === undefined ? undefined : Object.keys(spec.portLevelMtls);
  if (emptySelector && ports && ports.length > 0)
    out.push({ path: 'spec.portLevelMtls', message: 'mesh/namespace peer authentication cannot have port level mTLS' });
  if (ports && ports.length === 0)
    out.push({ path: 'spec.portLevelMtls', message: 'port level mTLS, if defined, must have at least one element' });
  for (const p of ports ?? []) {
    const n = /^\d+$/.test(p) ? Number(p) : Number.NaN;
    if (!(n >= 1 && n <= 65535)) out.push({ path: `spec.portLevelMtls.${p}`, message: 'port must be in range 1..65535' });
  }
  out.push(...labelsIssues(spec.selector?.matchLabels, 'spec.selector.matchLabels'));
  return out;
}
