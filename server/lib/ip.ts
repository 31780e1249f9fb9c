// IP address parsing (IPv4 dotted quads, IPv6 with `::` and an embedded IPv4 tail) to a number, shared by the
// simulator's prefix matching and the translator's CIDR comparisons.

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

/** netip.Prefix.Masked(): the prefix with its host bits cleared, as `family:value/bits`; undefined when unparsable. */
export function maskedPrefix(address: string, bits: number): string | undefined {
  const p = parseIp(address);
  if (!p) return undefined;
  const width = p.v6 ? 128 : 32;
  if (bits < 0 || bits > width) return undefined;
  const shift = BigInt(width - bits);
  return `${p.v6 ? 'v6' : 'v4'}:${((p.value >> shift) << shift).toString(16)}/${bits}`;
}
