// IP address parsing and CIDR containment for filter-chain prefix_ranges and IPMatcher ranges.

import { parseIp } from '../lib/ip';

export { type ParsedIp, parseIp } from '../lib/ip';

/** Whether `ip` lies in `prefix/len`. Unknown or unparsable inputs never match (except a /0 range). */
export function cidrContains(prefix: string, len: number, ip: string | undefined): boolean {
  const p = parseIp(prefix);
  if (!p) return false;
  if (len === 0) return true;
  if (ip === undefined) return false;
  const a = parseIp(ip);
  if (!a || a.v6 !== p.v6) return false;
  const bits = p.v6 ? 128 : 32;
  if (len > bits || len < 0) return false;
  const shift = BigInt(bits - len);
  return a.value >> shift === p.value >> shift;
}

export function isWildcardAddress(a: string | undefined): boolean {
  return a === '0.0.0.0' || a === '::' || a === '[::]' || a === '::0';
}

/** `ip:port`, bracketing IPv6 literals. */
export function hostPort(ip: string, port: number | undefined): string {
  const h = ip.includes(':') && !ip.startsWith('[') ? `[${ip}]` : ip;
  return port === undefined ? h : `${h}:${port}`;
}
