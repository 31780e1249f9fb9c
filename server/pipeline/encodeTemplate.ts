// Encoded resources that differ only in a few names, written from one encoding instead of encoding each. A
// sidecar's inbound listener and clusters are the same for every pod of a Service, and for pods of different
// Services of one shape (same ports, same policies) they differ only in the Service's hostname, name and namespace
// (the inbound route's decorator `host:port/*`, the cluster's `istio.services` metadata): measured on issue 24's
// mesh (docs/perf/issue24-sharing.md). istiod builds them per proxy (pilot/pkg/networking/core/listener_inbound.go,
// cluster.go buildInboundClusters) and its XdsCache does not cache them; here the bytes of one are the
// template of the others. Outbound clusters of same-shaped services likewise differ only in the service's
// hostname, name and namespace (encodeTable.ts outboundVary).
//
// How it is exact. `vary` are the strings the caller says may differ (each DNS-label text, at least 4 characters,
// with a letter, or an IPv4 address). A resource's template key is its JSON text with each occurrence of vary[0], then vary[1], …
// replaced by a placeholder made of characters JSON.stringify never leaves raw (so the replacement is invertible:
// the key and `vary` give back the JSON text), plus each string's length. Two resources with equal keys therefore
// have JSON texts J_B = J_A with A's strings replaced by B's of the same UTF-8 length. Protobuf writes a string
// field's UTF-8 bytes verbatim after a length prefix, so when every occurrence in J_A lies in a string value
// (or map key) and is written verbatim, B's bytes are A's with the same bytes overwritten at the same offsets:
// no length prefix changes. That condition is checked when a template is made: the occurrences found in A's
// bytes (the same left-to-right, masked scan) must be exactly as many as in its JSON text, per string;
// otherwise (an occurrence in a field name, a base64 bytes value, a number) no template is kept and every
// resource of that key is encoded the ordinary way. Checked by encodeTemplate.test.ts and
// sharing.property.test.ts (every proxy's bytes == its own fresh translation's).

/** The template-key part of a resource whose JSON text is `text`, or undefined when `vary` cannot be used. */
export interface VaryKey {
  /** `vary`'s lengths and the JSON text with placeholders. */
  key: string;
  /** Occurrences of each vary string in the text (after the earlier ones were replaced). */
  counts: number[];
}

/**
 * A string safe to look for in JSON text and in bytes: a DNS-ish name, long enough not to occur by chance, with a
 * letter (a digits-only text could be part of a JSON number) or a dotted IPv4 address (a JSON number has at most
 * one dot; a ClusterIP in a virtual host's domains, routeEncode.ts).
 */
const SAFE = /^[a-z0-9][a-z0-9.-]{3,252}$/;
const LETTER = /[a-df-z]/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export const usableVary = (s: string): boolean => SAFE.test(s) && (LETTER.test(s) || IPV4.test(s));

/**
 * `vary` in the order it must be applied (longer strings first, so a hostname goes before the name inside it),
 * deduplicated, without the strings that cannot be used (those stay in the key as they are: resources that
 * differ in them get different keys). Undefined when none is left.
 */
export function varyOrder(strings: readonly string[]): string[] | undefined {
  const out = [...new Set(strings)].filter(usableVary).sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  return out.length > 0 ? out : undefined;
}

/**
 * The text with each occurrence of vary[0], then vary[1], … replaced by its placeholder (what
 * `t.split(vary[i]).join(placeholder)` gives, step by step: leftmost, non-overlapping occurrences), and the counts.
 * Written as an indexOf walk: split/join made an array of parts per string and was the largest self time of a
 * scope's first translation after JSON.stringify (docs/perf/issue24-sharing.md, session 13).
 */
export function varyKey(text: string, vary: readonly string[]): VaryKey | undefined {
  let t = text;
  const counts: number[] = [];
  let any = false;
  for (let i = 0; i < vary.length; i++) {
    const s = vary[i]!;
    let at = t.indexOf(s);
    if (at < 0) {
      counts.push(0);
      continue;
    }
    const placeholder = `\u0001${i}\u0002`;
    let out = '';
    let from = 0;
    let n = 0;
    while (at >= 0) {
      out += t.slice(from, at) + placeholder;
      from = at + s.length;
      n++;
      at = t.indexOf(s, from);
    }
    t = out + t.slice(from);
    counts.push(n);
    any = true;
  }
  if (!any) return undefined;
  let lengths = '';
  for (let i = 0; i < vary.length; i++) lengths += i === 0 ? `${vary[i]!.length}` : `,${vary[i]!.length}`;
  return { key: `${lengths}\u0000${t}`, counts };
}

export interface EncodeTemplate {
  bytes: Uint8Array;
  /** Per vary string, the byte offsets of its occurrences. */
  offsets: number[][];
}

/** The template of `bytes` (A's encoding) for A's `vary`, or undefined when the bytes do not hold exactly the JSON's occurrences. */
export function makeTemplate(bytes: Uint8Array, vary: readonly string[], counts: readonly number[]): EncodeTemplate | undefined {
  const masked = new Uint8Array(bytes.length);
  const offsets: number[][] = [];
  for (let i = 0; i < vary.length; i++) {
    const s = Buffer.from(vary[i]!, 'utf8');
    const found: number[] = [];
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    let from = 0;
    for (;;) {
      const at = buf.indexOf(s, from);
      if (at < 0) break;
      let free = true;
      for (let k = at; k < at + s.length; k++)
        if (masked[k]) {
          free = false;
          break;
        }
      if (!free) {
        from = at + 1;
        continue;
      }
      found.push(at);
      masked.fill(1, at, at + s.length);
      from = at + s.length;
    }
    if (found.length !== counts[i]) return undefined;
    offsets.push(found);
  }
  return { bytes, offsets };
}

/** B's bytes from A's template: A's bytes with each of B's strings (same lengths as A's) written at A's offsets. */
export function applyTemplate(t: EncodeTemplate, vary: readonly string[], out: Uint8Array): Uint8Array {
  out.set(t.bytes);
  for (let i = 0; i < vary.length; i++) {
    const s = Buffer.from(vary[i]!, 'utf8');
    for (const at of t.offsets[i]!) out.set(s, at);
  }
  return out;
}
