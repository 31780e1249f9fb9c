// Semantic checks of a WorkloadEntry, as Istio's validation webhook applies them
// (pkg/config/validation/validation.go: ValidateWorkloadEntry → validateWorkloadEntry with FQDN addresses allowed).
import type { WorkloadEntrySpec } from '../istio';
import type { PathIssue } from './common';
import { isDns1123Label, isIP, labelsIssues, portError, wildcardDomainError } from './rules';

const UNIX = 'unix://';

/** ValidateUnixAddress: a non-empty absolute-or-relative path without NUL (abstract `@` sockets allowed). */
function unixAddressError(path: string): string | undefined {
  if (path === '') return 'unix address must not be empty';
  if (path.includes('\0')) return 'unix address must not contain NUL';
  return undefined;
}

export function checkWorkloadEntry(spec: WorkloadEntrySpec): PathIssue[] {
  const out: PathIssue[] = [];
  const addr = spec.address ?? '';
  // An empty address is only allowed with a network (a warning in Istio: the entry is reached through its network gateway).
  if (addr === '' && !spec.network) return [{ path: 'spec.address', message: 'address is required' }];
  if (addr.startsWith(UNIX)) {
    const err = unixAddressError(addr.slice(UNIX.length));
    if (err) out.push({ path: 'spec.address', message: err });
    if (Object.keys(spec.ports ?? {}).length > 0) out.push({ path: 'spec.ports', message: `unix endpoint ${addr} must not include ports` });
  } else if (addr !== '' && !isIP(addr) && wildcardDomainError(addr)) {
    out.push({ path: 'spec.address', message: `endpoint address "${addr}" is not a valid FQDN or an IP address` });
  }
  for (const [name, port] of Object.entries(spec.ports ?? {})) {
    if (!isDns1123Label(name)) out.push({ path: `spec.ports.${name}`, message: `invalid port name: ${name}` });
    const perr = portError(port);
    if (perr) out.push({ path: `spec.ports.${name}`, message: perr });
  }
  out.push(...labelsIssues(spec.labels, 'spec.labels'));
  return out;
}
