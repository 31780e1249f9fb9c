// writeJsonPieces (configDump.ts): the CLI's config dump, printed in pieces, must be exactly the text of
// `JSON.stringify(value, null, 2) + '\n'` (the ECMAScript JSON.stringify algorithm is the oracle: SerializeJSONObject
// leaves out undefined / function / symbol members, SerializeJSONArray prints them as null, `toJSON` is called).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo, configDumpFixture } from '../testing/paths';
import { configDumpFor, writeJsonPieces } from './configDump';

const pieces = (v: unknown): string[] => {
  const out: string[] = [];
  writeJsonPieces(v, (t) => out.push(t));
  return out;
};
const text = (v: unknown) => pieces(v).join('');
const expected = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

describe('writeJsonPieces', () => {
  it('prints a proxy config dump of Bookinfo (all sections) as JSON.stringify does', () => {
    const r = loadPaths([bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'virtual-service-reviews-80-20.yaml')]);
    const snap = buildSnapshot(r.inputs, { version: 3, extraErrors: r.errors });
    expect(snap.proxies.length).toBeGreaterThan(0);
    for (const p of snap.proxies) {
      const dump = configDumpFor(snap, p.id)!.dump;
      expect(text(dump)).toBe(expected(dump));
    }
  });

  it("prints Envoy's own config dumps (the fixtures) as JSON.stringify does", () => {
    const files = readdirSync(configDumpFixture('')).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const v = JSON.parse(readFileSync(configDumpFixture(f), 'utf8'));
      expect(text(v)).toBe(expected(v));
    }
  });

  it('keeps JSON.stringify’s rules at every level: left-out members, null slots, empty containers, toJSON, escapes', () => {
    const odd = {
      a: undefined,
      f: () => 1,
      s: Symbol('x'),
      d: new Date(0),
      t: { toJSON: () => undefined },
      e: {},
      l: [],
      arr: [undefined, () => 1, Symbol('y'), null, 1.5, 'line\nbreak "q" \u2028 é', [], {}, { x: [{ y: { z: [1, { w: 'a\nb' }] } }] }],
      // biome-ignore lint/suspicious/noSparseArray: a hole prints as null
      holes: [1, , 3],
      nested: { configs: [{ '@type': 't', rows: [{ k: { deeper: [[['x\n']]] } }] }] },
      proto: Object.assign(Object.create(null), { n: 1 }),
    };
    expect(text(odd)).toBe(expected(odd));
    for (const v of [null, 1, 'x', [], {}, [[]], [{}], undefined, { only: undefined }]) expect(text(v)).toBe(expected(v));
  });

  it('hands the text over in pieces of about 1 Mi characters, not one string', () => {
    const big = { configs: [{ items: Array.from({ length: 3000 }, (_, i) => ({ name: `r${i}`, pad: 'x'.repeat(1000) })) }] };
    const out = pieces(big);
    expect(out.length).toBeGreaterThan(2);
    for (const p of out.slice(0, -1)) expect(p.length).toBeGreaterThanOrEqual(1 << 20);
    expect(out.join('')).toBe(expected(big));
  });
});
