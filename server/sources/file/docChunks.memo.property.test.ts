// The memo an edit leaves behind (docChunks' splice, issue 24 goal 5): an edit copies the last memo's arrays around
// the pieces it parsed instead of walking them, so after any chain of edits — byte splices, documents and Lists
// added or removed, an unchanged rewrite, a return to an earlier text, the file emptied, a new file — the memo must
// still be what a walk would give: `inputs` the pieces' inputs end to end (a List's: its items'), `docs` the number
// of document pieces, the pieces' lengths the byte length; the result the memo's own arrays; the previous memo never
// changed (the next edit splices it); and the result equal to a whole parse (parseTextAsync). A splice offset one
// piece short fails this within a few hundred runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RawInput } from '../types';
import { type DocMemo, parseNarrowed } from './docChunks';
import { DEFAULT_FILE_LIMITS, parseTextAsync } from './parseFile';

const FILE = '/mesh/m.yaml';
const object = fc.record({
  kind: fc.constantFrom('Pod', 'Service'),
  name: fc.constantFrom('a', 'b', 'c', 'é-d'),
  ip: fc.constantFrom('10.0.0.1', 'ünï'),
});
type Obj = { kind: string; name: string; ip: string };
const raw = (o: Obj) => ({ apiVersion: 'v1', kind: o.kind, metadata: { name: o.name, namespace: 'x' }, status: { podIP: o.ip } });
const docA = fc.oneof(
  { weight: 3, arbitrary: object.map((o) => ({ t: 'obj' as const, o })) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('list' as const), items: fc.array(object, { maxLength: 4 }), indentSeq: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'empty' as const }) },
);
type Doc = { t: 'obj'; o: Obj } | { t: 'list'; items: Obj[]; indentSeq: boolean } | { t: 'empty' };
const docText = (d: Doc) =>
  d.t === 'obj'
    ? stringify(raw(d.o))
    : d.t === 'list'
      ? stringify({ apiVersion: 'v1', kind: 'List', items: d.items.map(raw) }, { indentSeq: d.indentSeq })
      : '';
const render = (docs: Doc[], lead: string) => lead + docs.map(docText).join('---\n');

const edit = fc.oneof(
  fc.record({
    t: fc.constant('splice' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    del: fc.nat({ max: 60 }),
    ins: fc.array(fc.constantFrom('---\n', '\n', '- ', '  ', 'items:\n', '# c\n', 'kind: List\n', 'a: b\n', 'é', 'x', ': '), {
      maxLength: 4,
    }),
  }),
  fc.record({ t: fc.constant('doc' as const), nth: fc.nat(), del: fc.nat({ max: 2 }), ins: fc.array(docA, { maxLength: 2 }) }),
  fc.constant({ t: 'same' as const }),
  fc.constant({ t: 'empty' as const }),
  fc.record({ t: fc.constant('back' as const), n: fc.nat() }),
  fc.record({ t: fc.constant('fresh' as const), docs: fc.array(docA, { minLength: 1, maxLength: 5 }) }),
);

type P = { len: number; doc: boolean; inputs: RawInput[]; list?: { head: number; items: { len: number; inputs: RawInput[] }[] } };
function check(memo: DocMemo, resultInputs: RawInput[], resultDocs: number | undefined) {
  const pieces = memo.pieces as unknown as P[];
  const cat: RawInput[] = [];
  let docs = 0;
  let len = 0;
  for (const p of pieces) {
    for (const i of p.inputs) cat.push(i);
    if (p.doc) docs++;
    len += p.len;
    if (p.list) {
      const items: RawInput[] = [];
      let l = p.list.head;
      for (const it of p.list.items) {
        for (const i of it.inputs) items.push(i);
        l += it.len;
      }
      expect(items.length).toBe(p.inputs.length);
      items.forEach((x, k) => expect(x).toBe(p.inputs[k]));
      expect(l).toBeLessThanOrEqual(p.len);
    }
  }
  expect(len).toBe(memo.bytes.length);
  expect(memo.inputs.length).toBe(cat.length);
  cat.forEach((x, k) => expect(x).toBe(memo.inputs[k]));
  expect(memo.docs).toBe(docs);
  expect(resultInputs).toBe(memo.inputs);
  expect(resultDocs).toBe(memo.docs);
}

describe('memo invariants over chained edits', () => {
  it('memo.inputs = pieces inputs end to end, docs = doc pieces, prev memo untouched', async () => {
    let narrowed = 0;
    let same = 0;
    let emptyMemo = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(docA, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.array(edit, { minLength: 1, maxLength: 10 }),
        async (docs0, lead, edits) => {
          let docs = docs0 as Doc[];
          let text = render(docs, lead ? '# head\n' : '');
          const history = [text];
          let memo: DocMemo | undefined = (await parseNarrowed(text, FILE, undefined, DEFAULT_FILE_LIMITS, undefined))?.memo;
          for (const e of edits) {
            if (e.t === 'splice') {
              const at = Math.floor(e.at * text.length);
              text = text.slice(0, at) + e.ins.join('') + text.slice(at + e.del);
            } else if (e.t === 'doc') {
              const k = e.nth % (docs.length + 1);
              docs = [...docs.slice(0, k), ...(e.ins as Doc[]), ...docs.slice(k + e.del)];
              text = render(docs, lead ? '# head\n' : '');
            } else if (e.t === 'empty') text = '';
            else if (e.t === 'back') text = history[e.n % history.length]!;
            else if (e.t === 'fresh') {
              docs = e.docs as Doc[];
              text = render(docs, '');
            }
            history.push(text);
            const before = memo
              ? { inputs: memo.inputs.slice(), pieces: memo.pieces.slice(), docs: memo.docs, bytes: Buffer.from(memo.bytes) }
              : undefined;
            const n = memo ? await parseNarrowed(text, FILE, undefined, DEFAULT_FILE_LIMITS, memo) : undefined;
            if (memo && before) {
              // the previous memo is never changed by an edit
              expect(memo.inputs.length).toBe(before.inputs.length);
              before.inputs.forEach((x, k) => expect(memo!.inputs[k]).toBe(x));
              before.pieces.forEach((x, k) => expect(memo!.pieces[k]).toBe(x));
              expect(memo.docs).toBe(before.docs);
            }
            if (n) {
              narrowed++;
              if (n.unchanged) {
                same++;
                expect(n.memo.inputs).toBe(memo!.inputs);
              }
              if (n.memo.bytes.length === 0) emptyMemo++;
              check(n.memo, n.result.inputs, n.result.docs);
              const whole = await parseTextAsync(text, FILE, undefined, DEFAULT_FILE_LIMITS);
              expect(whole.errors).toEqual([]);
              expect(n.result.inputs.map((i) => ({ o: i.object, g: i.origin }))).toEqual(
                whole.inputs.map((i) => ({ o: i.object, g: i.origin })),
              );
              expect(n.result.docs).toBe(whole.docs);
            }
            memo = n?.memo ?? (await parseNarrowed(text, FILE, undefined, DEFAULT_FILE_LIMITS, undefined))?.memo;
            if (memo) check(memo, memo.inputs, memo.docs);
          }
        },
      ),
      { numRuns: 200 },
    );
    // The paths this is about were taken: narrowed edits, unchanged rewrites, an emptied file's memo.
    expect(narrowed).toBeGreaterThan(100);
    expect(same).toBeGreaterThan(0);
    expect(emptyMemo).toBeGreaterThan(0);
  }, 600_000);
});
