// Filter chain options before they become Envoy FilterChains (listener.go: filterChainOpts,
// isMatchAll, conflictsWith, toFilterChainMatch; util.go: ConvertAddressToCidr).
import { maskedPrefix } from '../../../lib/ip';
import type { CidrRangeJson } from '../../../gen/envoy/config/core/v3/address_pb';
import type { MetadataJson } from '../../../gen/envoy/config/core/v3/base_pb';
import type { FilterChainMatchJson, FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { Protocol } from '../../../model/mesh';

/** What an outbound HCM chain needs (listener.go: httpListenerOpts, the parts meshscope models). */
export interface HttpChainOpts {
  /** RDS route config name. */
  rds: string;
  protocol: Protocol;
  /** Set when rds is the per-service sniffed route `<hostname>:<port>`. */
  sniffedHost?: string;
}

export interface ChainOpts {
  sniHosts?: string[];
  destinationCidrs?: string[];
  applicationProtocols?: string[];
  transportProtocol?: string;
  metadata?: MetadataJson;
  /** Set for HCM chains; otherwise networkFilters is the chain. */
  http?: HttpChainOpts;
  networkFilters?: FilterJson[];
}

/** listener.go isMatchAll: no SNI (or `*`), no ALPN, no transport protocol, no CIDRs. */
export function isMatchAll(c: ChainOpts): boolean {
  return (
    (!c.sniHosts?.length || c.sniHosts.includes('*')) &&
    !c.applicationProtocols?.length &&
    !c.transportProtocol &&
    !c.destinationCidrs?.length
  );
}

interface Prefix {
  address: string;
  bits: number;
}

/** util.go AddrStrToPrefix: `a.b.c.d` → /32 (/128 for IPv6), `x/n` kept. undefined when unparsable. */
export function parsePrefix(addr: string): Prefix | undefined {
  if (!addr) return undefined;
  const [ip, len] = addr.split('/', 2) as [string, string | undefined];
  const v6 = ip.includes(':');
  const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(ip) && ip.split('.').every((o) => Number(o) <= 255);
  if (!v4 && !(v6 && /^[0-9a-fA-F:.]+$/.test(ip))) return undefined;
  const max = v6 ? 128 : 32;
  if (len === undefined) return { address: ip, bits: max };
  if (!/^\d+$/.test(len) || Number(len) > max) return undefined;
  return { address: ip, bits: Number(len) };
}

/** util.go ConvertAddressToCidr (address kept as written, not masked). */
export function cidrRange(addr: string): CidrRangeJson | undefined {
  const p = parsePrefix(addr);
  return p ? { addressPrefix: p.address, prefixLen: p.bits } : undefined;
}

/** netip.Prefix.Masked(): host bits cleared (IPv4 and IPv6), so `x/n` prefixes that differ only there are equal. */
const masked = (p: Prefix): string => maskedPrefix(p.address, p.bits) ?? `${p.address}/${p.bits}`;

const sniSet = (s: readonly string[] | undefined): Set<string> => new Set((s ?? []).filter((x) => x !== '*'));
const cidrSet = (s: readonly string[] | undefined): Set<string> => {
  const out = new Set<string>();
  for (const c of s ?? []) {
    const p = parsePrefix(c);
    if (!p || p.address === '0.0.0.0') continue;
    out.add(masked(p));
  }
  return out;
};
const setsEqual = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const arraysEqual = (a: readonly string[] = [], b: readonly string[] = []) => a.length === b.length && a.every((x, i) => x === b[i]);

/** listener.go conflictsWith: same transport, same ALPNs, same SNI set, same (masked) CIDR set. */
export function conflictsWith(a: ChainOpts, b: ChainOpts): boolean {
  if ((a.transportProtocol ?? '') !== (b.transportProtocol ?? '')) return false;
  if (!arraysEqual(a.applicationProtocols, b.applicationProtocols)) return false;
  if (!setsEqual(sniSet(a.sniHosts), sniSet(b.sniHosts))) return false;
  return setsEqual(cidrSet(a.destinationCidrs), cidrSet(b.destinationCidrs));
}

/** listener.go toFilterChainMatch: undefined for match-all chains; SNI and CIDRs sorted; 0.0.0.0 ranges dropped. */
export function toFilterChainMatch(c: ChainOpts): FilterChainMatchJson | undefined {
  if (isMatchAll(c)) return undefined;
  const m: FilterChainMatchJson = {};
  if (c.applicationProtocols?.length) m.applicationProtocols = [...c.applicationProtocols];
  if (c.transportProtocol) m.transportProtocol = c.transportProtocol;
  if (c.sniHosts?.length && !c.sniHosts.includes('*')) m.serverNames = [...c.sniHosts].sort();
  if (c.destinationCidrs?.length) {
    const ranges = [...c.destinationCidrs]
      .sort()
      .map(cidrRange)
      .filter((r): r is CidrRangeJson => r !== undefined && r.addressPrefix !== '0.0.0.0');
    if (ranges.length) m.prefixRanges = ranges;
  }
  return m;
}
