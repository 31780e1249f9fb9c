// IP address parsing and CIDR containment for filter-chain prefix_ranges and IPMatcher ranges.

export interface ParsedIp {
  v6: boolean;
  value: bigint;
}

export function parseIp(s: string): ParsedIp | undefined {
  const t = s.trim();
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(t)) {
    const parts = t.split('.').map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { v6: false, value: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  return parseV6(t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t);
}

function parseV6(t: string): ParsedIp | undefined {
  if (!t.includes(':')) return undefined;
  let head = t;
  let tailV4: bigint | undefined;
  const lastColon = t.lastIndexOf(':');
  const maybeV4 = t.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const v4 = parseIp(maybeV4);
    if (!v4 || v4.v6) return undefined;
    tailV4 = v4.value;
    head = t.slice(0, lastColon + 1) + '0:0';
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const group = (x: string) => (x === '' ? [] : x.split(':'));
  const left = group(halves[0] ?? '');
  const right = halves.length === 2 ? group(halves[1] ?? '') : [];
  const missing = 8 - left.length - right.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  if (tailV4 !== undefined) value = (value & ~0xffffffffn) | tailV4;
  return { v6: true, value };
}

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
