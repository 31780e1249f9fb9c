// Map keys for content (a resource's JSON text). V8 hashes a string of more than 16,383 characters by its length
// alone (String::kMaxHashCalcLength), so long JSON keys of one length share a hash bucket: at issue 24's 5× mesh
// every pod's ~16 kB virtualInbound listener collided with the others in the encode memo, each lookup comparing
// thousands of strings (2.4 ms a lookup at 2,000 keys of 17,000 characters, against ~30 µs hashed). A long text
// is keyed by its SHA-256 (as the ADS server's fingerprints are, xds/prepared.ts) and its length; short texts,
// for which hashing the string itself is cheaper than a digest, are their own key. Up to 1,024 characters since
// session 13: V8 hashes a string character by character (~2 ns each, after flattening the concatenated key) while
// SHA-256 costs ~1.2 ns a character, and the memo kept every ~2 kB cluster and virtual-host text as its key (a
// scope's first translation at issue 24's 5× mesh: 1,500 texts a scope, all retained, all garbage for the GC).
import { hash } from 'node:crypto';

/** Texts up to this length are their own key (hashing them costs less than a digest; well under V8's limit). */
export const CONTENT_KEY_MAX = 1024;

/** A Map key for `text`: equal texts, equal keys; different texts, different keys (up to a SHA-256 collision). */
export function contentKey(text: string): string {
  if (text.length <= CONTENT_KEY_MAX) return text;
  return `\u0001sha256:${text.length}:${hash('sha256', text, 'base64')}`; // one-shot: no Hash object per key
}
