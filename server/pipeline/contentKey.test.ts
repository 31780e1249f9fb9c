// contentKey (contentKey.ts): equal texts get equal keys and different texts different keys, on both sides of
// the length where a text is replaced by its digest; a long key is short (V8 hashes strings of more than 16,383
// characters by length alone, which is why long texts are digested).
import { describe, expect, it } from 'vitest';
import { CONTENT_KEY_MAX, contentKey } from './contentKey';

describe('contentKey', () => {
  it('a short text is its own key', () => {
    const t = JSON.stringify({ name: 'inbound|8080||', type: 'STATIC' });
    expect(contentKey(t)).toBe(t);
    expect(contentKey('x'.repeat(CONTENT_KEY_MAX))).toBe('x'.repeat(CONTENT_KEY_MAX));
  });

  it('long texts: equal texts equal keys, any one character or the length changed gives another key', () => {
    const base = 'a'.repeat(20_000);
    const k = contentKey(base);
    expect(k.length).toBeLessThan(80);
    expect(contentKey(`${'a'.repeat(10_000)}${'a'.repeat(10_000)}`)).toBe(k);
    const keys = new Set([k]);
    for (const at of [0, 9_999, 19_999]) keys.add(contentKey(`${base.slice(0, at)}b${base.slice(at + 1)}`));
    keys.add(contentKey(`${base}a`));
    keys.add(contentKey(base.slice(1)));
    expect(keys.size).toBe(6);
    // a text just over the limit never collides with a short text that looks like a key
    const over = 'z'.repeat(CONTENT_KEY_MAX + 1);
    expect(contentKey(over)).not.toBe(over);
    expect(contentKey(contentKey(over))).toBe(contentKey(over)); // short: itself, and keys start with \u0001 (JSON text never does)
  });
});
