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
 * starts at a hashed offset and takes the next free offset at or after it (wrapping), skipping addresses
 * already taken and offsets whose last octet is 0 or 255. Keys must be allocated in a deterministic order.
 * The next free offset is found with a path-compressed "next free" table, so allocating n keys is about
 * linear even when the /16 is nearly full (linear probing made 70k+ services take minutes); once full,
 * every further key gets `PREFIX.255.254`.
 */
export class IpPool {
  /** next[o] === o: offset o is free; otherwise a hint towards the next free offset after o. */
  private readonly next = new Int32Array(65537);
  private free = 0;

  constructor(
    private readonly prefix: string,
    taken: Iterable<string> = [],
  ) {
    for (let o = 0; o <= 65536; o++) this.next[o] = o;
    for (let o = 0; o < 65536; o++) {
      const x = o >> 8;
      const y = o & 255;
      if (y === 0 || y === 255 || (x === 0 && y === 1)) this.take(o);
      else this.free++;
    }
    const head = `${prefix}.`;
    for (const ip of taken) {
      if (!ip.startsWith(head)) continue;
      const [x, y, extra] = ip.slice(head.length).split('.').map(Number);
      if (extra !== undefined || x === undefined || y === undefined || !(x >= 0 && x < 256 && y >= 0 && y < 256)) continue;
      const o = (x << 8) | y;
      if (this.find(o) === o) {
        this.take(o);
        this.free--;
      }
    }
  }

  allocate(key: string): string {
    if (this.free === 0) return `${this.prefix}.255.254`;
    let o = this.find(fnv1a(key) % 65536);
    if (o === 65536) o = this.find(0);
    this.take(o);
    this.free--;
    return `${this.prefix}.${o >> 8}.${o & 255}`;
  }

  /** The first free offset ≥ o, or 65536 (the sentinel) when none is left up to the end. */
  private find(o: number): number {
    let r = o;
    while (this.next[r] !== r) r = this.next[r]!;
    let c = o;
    while (this.next[c] !== r) {
      const n = this.next[c]!;
      this.next[c] = r;
      c = n;
    }
    return r;
  }

  private take(o: number): void {
    this.next[o] = o + 1;
  }
}
