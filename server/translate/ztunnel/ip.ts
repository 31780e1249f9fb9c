// IP text ⇄ the bytes ztunnel's protos carry (netip.Addr.AsSlice: 4 bytes for IPv4, 16 for IPv6), as the
// base64 proto3 JSON wants. Pure; no dependency on node:net so the browser-side views may use it too.

/** The address bytes of an IPv4 or IPv6 literal; undefined when it is neither. */
export function ipBytes(ip: string): Uint8Array | undefined {
  const v4 = parseV4(ip);
  if (v4) return v4;
  return parseV6(ip);
}

function parseV4(ip: string): Uint8Array | undefined {
  // Four dot-separated decimal parts of 1–3 digits, each ≤ 255, no leading zero (`0` itself is fine).
  const out = new Uint8Array(4);
  let part = 0;
  let n = 0;
  let digits = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || part === 3) return undefined;
      out[part++] = n;
      n = 0;
      digits = 0;
      continue;
    }
    if (c < 48 || c > 57 || (digits === 1 && n === 0) || ++digits > 3) return undefined;
    n = n * 10 + (c - 48);
    if (n > 255) return undefined;
  }
  if (digits === 0 || part !== 3) return undefined;
  out[3] = n;
  return out;
}

function parseV6(ip: string): Uint8Array | undefined {
  if (!ip.includes(':') || ip.includes('%')) return undefined;
  let head = ip;
  let tailV4: Uint8Array | undefined;
  const lastColon = ip.lastIndexOf(':');
  if (ip.slice(lastColon + 1).includes('.')) {
    tailV4 = parseV4(ip.slice(lastColon + 1));
    if (!tailV4) return undefined;
    head = `${ip.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - left.length - right.length;
  if (halves.length === 1 ? left.length !== 8 : fill < 1) return undefined;
  const all = [...left, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...right];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    const g = all[i]!;
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    const n = Number.parseInt(g, 16);
    out[2 * i] = n >> 8;
    out[2 * i + 1] = n & 0xff;
  }
  if (tailV4) out.set(tailV4, 12);
  return out;
}

/** The text of 4 or 16 address bytes (IPv6 in RFC 5952 form); '' for any other length. */
export function ipText(b: Uint8Array): string {
  if (b.length === 4) return [...b].join('.');
  if (b.length !== 16) return '';
  const g: number[] = [];
  for (let i = 0; i < 8; i++) g.push((b[2 * i]! << 8) | b[2 * i + 1]!);
  // The longest run of two or more zero groups becomes `::` (the first such run on a tie).
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(':');
  if (best < 0) return hex(g);
  return `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (proto3 JSON's bytes). */
export function base64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    s += i + 1 < b.length ? B64[(n >> 6) & 63]! : '=';
    s += i + 2 < b.length ? B64[n & 63]! : '=';
  }
  return s;
}

/** Decodes standard or URL-safe base64; undefined on anything else. */
export function fromBase64(s: string): Uint8Array | undefined {
  const clean = s.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const out: number[] = [];
  let buf = 0;
  let bits = 0;
  for (const c of clean) {
    const v = B64.indexOf(c);
    if (v < 0) return undefined;
    buf = (buf << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buf >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** IP text → proto3 JSON bytes; undefined when the text is not an IP. */
export const ipJson = (ip: string): string | undefined => {
  const b = ipBytes(ip);
  return b ? base64(b) : undefined;
};
