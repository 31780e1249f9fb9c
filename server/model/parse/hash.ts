// Stable, dependency-free hashing for deterministic synthetic names and addresses.
import { byteCompare } from '../../lib/compare';

/** 32-bit FNV-1a over the UTF-16 code units of `s`, with an optional seed mixed in. */
export function fnv1a(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `len` lowercase hex characters derived from `s`. */
export function stableHex(s: string, len: number): string {
  let out = '';
  for (let seed = 0; out.length < len; seed++) out += fnv1a(s, seed).toString(16).padStart(8, '0');
  return out.slice(0, len);
}

/** Kubernetes' "safe" alphabet for generated name suffixes (no vowels, no ambiguous characters). */
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

export function safeSuffix(s: string, len: number): string {
  let out = '';
  for (let seed = 0; out.length < len; seed++) out += SAFE[fnv1a(s, seed) % SAFE.length];
  return out;
}

/** JSON with object keys sorted, so equal values hash equally regardless of key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => byteCompare(a, b));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Deterministic, collision-free IPv4 allocation inside a /16 (`prefix` = first two octets): each key
 * starts at a hashed offset and probes linearly past addresses in `used` (which it extends).
 * Offsets whose last octet is 0 or 255 are skipped. Keys must be allocated in a deterministic order.
 */
export function allocateIp(prefix: string, key: string, used: Set<string>): string {
  const start = fnv1a(key) % 65536;
  for (let i = 0; i < 65536; i++) {
    const off = (start + i) % 65536;
    const x = off >> 8;
    const y = off & 255;
    if (y === 0 || y === 255 || (x === 0 && y === 1)) continue;
    const ip = `${prefix}.${x}.${y}`;
    if (!used.has(ip)) {
      used.add(ip);
      return ip;
    }
  }
  return `${prefix}.255.254`;
}
