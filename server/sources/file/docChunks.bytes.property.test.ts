// Narrowing an edit by its bytes is invisible (issue 24 goal 5): docChunks compares a file's new bytes with
// its last load's and cuts again only the pieces around the bytes that differ. Over random multi-document and
// `kind: List` files (items at column 0 and indented, non-ASCII text, CRLF lines) and random byte-level edits
// — a splice anywhere of fragments that make or break document markers, List items, the `items:` key, `kind:
// List`, directives, `...`, comments, indentation — whatever the narrowed load gives equals a parse of the
// whole new text (parseTextAsync: objects, origins with document indexes, the document count); whatever it
// cannot narrow exactly it leaves to the whole parse (undefined). Plus: one edited Pod IP in a 2,000-document
// export and in a 2,000-item List parses one piece and keeps every other RawInput object. And byte edits that split
// or break a multi-byte character: only the changed bytes are checked for UTF-8, and bytes that are not UTF-8 are
// never narrowed.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RawInput } from '../types';
import { type DocMemo, parseNarrowed } from './docChunks';
import { DEFAULT_FILE_LIMITS, parseTextAsync } from './parseFile';

const FILE = '/mesh/pods.yaml';

const object = fc.record({
  kind: fc.constantFrom('Pod', 'Service', 'VirtualService'),
  name: fc.constantFrom('a', 'b', 'c', 'é-d', 'e'),
  ip: fc.constantFrom('10.0.0.1', '10.0.0.22', 'fe80::1', 'ünï'),
  labels: fc.dictionary(fc.constantFrom('app', 'version', 'x'), fc.constantFrom('v1', 'v2', 'ça', '- dash', '--- m'), { maxKeys: 2 }),
});
type Obj = { kind: string; name: string; ip: string; labels: Record<string, string> };
const raw = (o: Obj) => ({
  apiVersion: o.kind === 'VirtualService' ? 'networking.istio.io/v1' : 'v1',
  kind: o.kind,
  metadata: { name: o.name, namespace: 'x', labels: o.labels },
  status: { podIP: o.ip, podIPs: [{ ip: o.ip }] },
});

const file = fc.record({
  docs: fc.array(
    fc.oneof(
      { weight: 3, arbitrary: object.map((o) => ({ t: 'obj' as const, o })) },
      {
        weight: 2,
        arbitrary: fc.record({
          t: fc.constant('list' as const),
          items: fc.array(object, { minLength: 1, maxLength: 5 }),
          indentSeq: fc.boolean(),
        }),
      },
    ),
    { minLength: 1, maxLength: 6 },
  ),
  crlf: fc.boolean(),
});
type FileSpec = { docs: Array<{ t: 'obj'; o: Obj } | { t: 'list'; items: Obj[]; indentSeq: boolean }>; crlf: boolean };
const render = (f: FileSpec): string => {
  const text = f.docs
    .map((d) =>
      d.t === 'obj'
        ? stringify(raw(d.o))
        : stringify(
            { apiVersion: 'v1', kind: 'List', items: d.items.map(raw), metadata: { resourceVersion: '' } },
            { indentSeq: d.indentSeq },
          ),
    )
    .join('---\n');
  return f.crlf ? text.replace(/\n/g, '\r\n') : text;
};

/** A splice: at a fraction of the text, remove up to `del` characters and insert `ins`; or one value replaced. */
const splice = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  del: fc.nat({ max: 40 }),
  ins: fc.array(
    fc.constantFrom(
      '---\n',
      '--- \n',
      '\n',
      '- ',
      '  ',
      'items:\n',
      '# c\n',
      'kind: List\n',
      '...\n',
      '%YAML 1.2\n',
      'a: b\n',
      'é',
      '\r\n',
      '\r',
      'x',
      '1',
      ': ',
      '-',
    ),
    { maxLength: 4 },
  ),
});
const VALUE = /10\.0\.0\.1|v1|v2|ça|p-\d|ünï/g;
const value = fc.record({ nth: fc.nat(), to: fc.constantFrom('10.0.0.1', '10.200.200.200', 'v3', 'é', '', 'x: y') });
/** A small splice just before, on or after a document marker or a List item's start (where a cut is decided). */
const BOUNDARY = /\n(?:---|- | {2}- )/g;
const near = fc.record({
  nth: fc.nat(),
  off: fc.integer({ min: -3, max: 5 }),
  del: fc.nat({ max: 2 }),
  ins: fc.constantFrom('', '\n', '-', ' ', 'x', '#', '---\n', '- '),
});
const edit = fc.oneof(
  splice.map((e) => ({ t: 'splice' as const, ...e })),
  value.map((e) => ({ t: 'value' as const, ...e })),
  near.map((e) => ({ t: 'near' as const, ...e })),
);
type Edit =
  | { t: 'splice'; at: number; del: number; ins: string[] }
  | { t: 'value'; nth: number; to: string }
  | { t: 'near'; nth: number; off: number; del: number; ins: string };

function applyEdit(text: string, e: Edit): string {
  if (e.t === 'splice') {
    const at = Math.floor(e.at * text.length);
    return text.slice(0, at) + e.ins.join('') + text.slice(at + e.del);
  }
  if (e.t === 'near') {
    const all = [...text.matchAll(BOUNDARY)];
    const m = all[e.nth % Math.max(1, all.length)];
    if (!m) return text;
    const at = Math.max(0, m.index + 1 + e.off);
    return text.slice(0, at) + e.ins + text.slice(at + e.del);
  }
  const hits = [...text.matchAll(VALUE)];
  const m = hits[e.nth % Math.max(1, hits.length)];
  return m ? text.slice(0, m.index) + e.to + text.slice(m.index + m[0].length) : text;
}

const shape = (inputs: readonly RawInput[]) => inputs.map((i) => ({ object: i.object, origin: i.origin }));

describe('narrowing by bytes equals a whole parse', () => {
  it('over random files and random byte-level edits', async () => {
    let narrowedEdits = 0;
    await fc.assert(
      fc.asyncProperty(file, fc.array(edit, { minLength: 1, maxLength: 8 }), async (f, edits) => {
        let text = render(f as FileSpec);
        let memo: DocMemo | undefined = (await parseNarrowed(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS, undefined))?.memo;
        for (const e of edits as Edit[]) {
          text = applyEdit(text, e);
          const whole = await parseTextAsync(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS);
          const narrowed = memo ? await parseNarrowed(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS, memo) : undefined;
          if (narrowed) {
            narrowedEdits++;
            expect(whole.errors).toEqual([]);
            expect(shape(narrowed.result.inputs)).toEqual(shape(whole.inputs));
            expect(narrowed.result.docs).toBe(whole.docs);
          }
          // As the file set does: a load that was not narrowed starts again from a fresh cut (or none).
          memo = narrowed?.memo ?? (await parseNarrowed(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS, undefined))?.memo;
        }
      }),
      { numRuns: 300 },
    );
    // Not a vacuous property: many edits keep the file parseable and are narrowed.
    expect(narrowedEdits).toBeGreaterThan(200);
  }, 180_000);

  /** A byte splice at (or just around) the nth multi-byte character, or anywhere: fragments and whole characters. */
  const byteEdit = fc.record({
    nth: fc.nat(),
    off: fc.integer({ min: -2, max: 3 }),
    anywhere: fc.boolean(),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    del: fc.nat({ max: 3 }),
    ins: fc.constantFrom([], [0xc3], [0xa9], [0xc3, 0xa9], [0xff], [0x78], [0xe2, 0x82], [0x82, 0xac], [0xe2, 0x82, 0xac], [0x0a]),
  });
  const applyBytes = (
    b: Buffer,
    e: { nth: number; off: number; anywhere: boolean; at: number; del: number; ins: readonly number[] },
  ): Buffer => {
    const leads: number[] = [];
    for (let i = 0; i < b.length; i++) if (b[i]! >= 0xc0) leads.push(i);
    const base = e.anywhere || leads.length === 0 ? Math.floor(e.at * b.length) : leads[e.nth % leads.length]!;
    const at = Math.min(b.length, Math.max(0, base + (e.anywhere ? 0 : e.off)));
    return Buffer.concat([b.subarray(0, at), Buffer.from(e.ins), b.subarray(Math.min(b.length, at + e.del))]);
  };

  it('bytes that are not UTF-8 are never narrowed, whichever character an edit splits or breaks', async () => {
    let broken = 0;
    let narrowedEdits = 0;
    await fc.assert(
      fc.asyncProperty(file, fc.array(byteEdit, { minLength: 1, maxLength: 6 }), async (f, edits) => {
        let bytes: Buffer = Buffer.from(render(f as FileSpec), 'utf8');
        let memo: DocMemo | undefined = (await parseNarrowed(bytes, FILE, 'ns-default', DEFAULT_FILE_LIMITS, undefined))?.memo;
        for (const e of edits) {
          bytes = applyBytes(bytes, e);
          const valid = isUtf8(bytes);
          if (!valid && memo) broken++;
          const narrowed = memo ? await parseNarrowed(bytes, FILE, 'ns-default', DEFAULT_FILE_LIMITS, memo) : undefined;
          if (narrowed) {
            narrowedEdits++;
            expect(valid).toBe(true);
            const whole = await parseTextAsync(bytes.toString('utf8'), FILE, 'ns-default', DEFAULT_FILE_LIMITS);
            expect(shape(narrowed.result.inputs)).toEqual(shape(whole.inputs));
          }
          memo = narrowed?.memo ?? (await parseNarrowed(bytes, FILE, 'ns-default', DEFAULT_FILE_LIMITS, undefined))?.memo;
        }
      }),
      { numRuns: 300 },
    );
    // Not vacuous: many edits broke the UTF-8 of a narrowed file, and many others were narrowed.
    expect(broken).toBeGreaterThan(100);
    expect(narrowedEdits).toBeGreaterThan(100);
  }, 180_000);

  it('a lone CR is a line break to YAML (1.2 §5.4 b-break): an edit that makes one is parsed whole', async () => {
    // Found by this file's byte-edit property at 4,000 runs: in a CRLF List, deleting the LF and two spaces after
    // a CR moved `podIPs:` out of `status:` for YAML, but the LF-only cut still dedented it as one line.
    const pod = (name: string): Obj => ({ kind: 'Pod', name, ip: 'ünï', labels: {} });
    for (const indentSeq of [true, false]) {
      const text = render({ docs: [{ t: 'list', items: [pod('a'), pod('b')], indentSeq }], crlf: true });
      const first = await parseNarrowed(text, FILE, undefined, DEFAULT_FILE_LIMITS, undefined);
      expect(first).toBeDefined();
      const at = text.lastIndexOf('\r\n', text.lastIndexOf('podIPs:')) + 1;
      const edited = text.slice(0, at) + text.slice(at + 3);
      const whole = await parseTextAsync(edited, FILE, undefined, DEFAULT_FILE_LIMITS);
      const b = whole.inputs.find((i) => (i.object.metadata as { name: string }).name === 'b')!.object;
      expect(Object.keys(b)).toContain('podIPs'); // YAML read the lone CR as a line break
      const narrowed = await parseNarrowed(edited, FILE, undefined, DEFAULT_FILE_LIMITS, first!.memo);
      if (narrowed) expect(shape(narrowed.result.inputs)).toEqual(shape(whole.inputs));
      // A file that has a lone CR from the start is not cut either.
      expect(await parseNarrowed(edited, FILE, undefined, DEFAULT_FILE_LIMITS, undefined)).toBeUndefined();
    }
  });

  const pods = (n: number, ipOf: (i: number) => string): Obj[] =>
    Array.from({ length: n }, (_, i) => ({ kind: 'Pod', name: `p-${i}`, ip: ipOf(i), labels: { app: `s${i >> 1}` } }));
  const ip = (i: number) => `10.16.${i >> 8}.${i & 255}`;

  for (const shapeName of ['multidoc', 'list'] as const) {
    it(`one Pod IP changed in a 2,000-pod ${shapeName} export: one piece parsed, every other object kept`, async () => {
      const spec = (ips: (i: number) => string): FileSpec => ({
        docs:
          shapeName === 'list' ? [{ t: 'list', items: pods(2000, ips), indentSeq: false }] : pods(2000, ips).map((o) => ({ t: 'obj', o })),
        crlf: false,
      });
      const first = await parseNarrowed(render(spec(ip)), FILE, undefined, DEFAULT_FILE_LIMITS, undefined);
      expect(first?.result.inputs).toHaveLength(2000);
      // A longer IP: every byte after it moves.
      const text = render(spec((i) => (i === 1234 ? '10.17.123.123' : ip(i))));
      const second = await parseNarrowed(text, FILE, undefined, DEFAULT_FILE_LIMITS, first!.memo);
      expect(second?.parsedPieces).toBe(1);
      const changed = second!.result.inputs.filter((x, i) => x !== first!.result.inputs[i]);
      expect(changed.map((x) => (x.object.metadata as { name: string }).name)).toEqual(['p-1234']);
      expect(shape(second!.result.inputs)).toEqual(shape((await parseTextAsync(text, FILE, undefined, DEFAULT_FILE_LIMITS)).inputs));
    });
  }
});
