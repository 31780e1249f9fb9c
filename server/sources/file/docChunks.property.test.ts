// Document-level narrowing is invisible (issue 24): over random multi-document files and `kind: List`
// files and random sequences of document-level edits (fast-check), parsing piece by piece with the last
// load's pieces reused (docChunks.parseNarrowed, as the file set does) gives exactly what a parse of the
// whole text gives (parseTextAsync: objects, their origins and document indexes, the document count), and
// a document whose text did not change keeps its very RawInput objects (what the store and the snapshot
// cache skip by identity). Texts it must not narrow (directives, `...`, a syntax error) are left to the whole parse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RawInput } from '../types';
import { type DocMemo, parseNarrowed, splitDocuments } from './docChunks';
import { DEFAULT_FILE_LIMITS, parseTextAsync } from './parseFile';

const FILE = '/mesh/export.yaml';

/** A value inside a spec: strings that look like markers, comments, block scalars; numbers; nesting. */
const scalar = fc.oneof(
  fc.constantFrom('---', '--- x', '...', '# not a comment', 'a: b', 'line one\nline two\n--- inside\n', ' lead', 'x', '', 'true', '08'),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 5000 }),
  fc.boolean(),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'host', 'items'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

const object = fc.record({
  kind: fc.constantFrom('VirtualService', 'Service', 'Pod', 'ConfigMap'),
  name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  ns: fc.constantFrom('x', 'y', undefined),
  spec: value,
});
type Obj = { kind: string; name: string; ns: string | undefined; spec: unknown };
const raw = (o: Obj) => ({
  apiVersion: o.kind === 'VirtualService' ? 'networking.istio.io/v1' : 'v1',
  kind: o.kind,
  metadata: { name: o.name, ...(o.ns ? { namespace: o.ns } : {}) },
  spec: o.spec,
});

/** One document of a stream: an object, a List of objects (items indented or at column 0), an empty document. */
const doc = fc.oneof(
  { weight: 5, arbitrary: object.map((o) => ({ t: 'obj' as const, o })) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('list' as const), items: fc.array(object, { maxLength: 5 }), indentSeq: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'empty' as const }) },
);
type Doc = { t: 'obj'; o: Obj } | { t: 'list'; items: Obj[]; indentSeq: boolean } | { t: 'empty' };

const docText = (d: Doc): string => {
  if (d.t === 'obj') return stringify(raw(d.o));
  if (d.t === 'list')
    return stringify(
      { apiVersion: 'v1', kind: 'List', items: d.items.map(raw), metadata: { resourceVersion: '' } },
      { indentSeq: d.indentSeq },
    );
  return '';
};

const layout = fc.record({
  preamble: fc.constantFrom('', '# exported\n', '\n', '---\n'),
  marker: fc.constantFrom('---\n', '--- \n', '---\n\n'),
});
const render = (docs: readonly Doc[], l: { preamble: string; marker: string }): string =>
  l.preamble === '---\n' ? docs.map((d) => `---\n${docText(d)}`).join('') : l.preamble + docs.map(docText).join(l.marker);

/** Document-level edits: replace, insert, delete, move one document, or edit one item of a List. */
const edit = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), d: doc }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), d: doc }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('item' as const), at: fc.nat(), i: fc.nat(), o: object }),
);
type Edit =
  | { op: 'set' | 'insert'; at: number; d: Doc }
  | { op: 'delete'; at: number }
  | { op: 'move'; at: number; to: number }
  | { op: 'item'; at: number; i: number; o: Obj };

function apply(docs: Doc[], e: Edit): Doc[] {
  const out = docs.slice();
  const at = out.length === 0 ? 0 : e.at % out.length;
  if (e.op === 'insert') out.splice(e.at % (out.length + 1), 0, e.d);
  else if (out.length === 0) return out;
  else if (e.op === 'set') out[at] = e.d;
  else if (e.op === 'delete') out.splice(at, 1);
  else if (e.op === 'move') out.splice(e.to % out.length, 0, ...out.splice(at, 1));
  else if (e.op === 'item') {
    const d = out[at]!;
    if (d.t === 'list' && d.items.length > 0) {
      const items = d.items.slice();
      items[e.i % items.length] = e.o;
      out[at] = { ...d, items };
    }
  }
  return out;
}

const shape = (inputs: readonly RawInput[]) => inputs.map((i) => ({ object: i.object, origin: i.origin }));

describe('document-level narrowing equals a whole parse', () => {
  it('over random multi-document and List files and random document edits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 8 }), layout, fc.array(edit, { maxLength: 6 }), async (start, l, edits) => {
        let docs = start as Doc[];
        let memo: DocMemo | undefined;
        for (const e of [undefined, ...(edits as Edit[])]) {
          if (e) docs = apply(docs, e);
          const text = render(docs, l);
          const whole = await parseTextAsync(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS);
          const narrowed = await parseNarrowed(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS, memo);
          if (!narrowed) {
            // Not narrowed: only one plain document without a List, or a piece the whole parse must locate.
            expect(splitDocuments(text).length < 2 || whole.errors.length > 0).toBe(true);
            memo = undefined;
            continue;
          }
          expect(whole.errors).toEqual([]);
          expect(shape(narrowed.result.inputs)).toEqual(shape(whole.inputs));
          expect(narrowed.result.docs).toBe(whole.docs);
          // The same text again with its own pieces: nothing is parsed, every RawInput is the very same object.
          const again = await parseNarrowed(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS, narrowed.memo);
          expect(again?.parsedPieces ?? 0).toBeLessThanOrEqual(docs.filter((d) => d.t === 'list').length + 1); // List heads (and a comment preamble) only
          again!.result.inputs.forEach((x, n) => expect(x).toBe(narrowed.result.inputs[n]));
          memo = narrowed.memo;
        }
      }),
      { numRuns: 100 },
    );
  }, 180_000);

  // The case fast-check found (session 11): a List, then the file emptied, then two documents written. The empty
  // text's memo has no piece an edit can reach, so the new text must be cut as a first load, not given up on.
  it('a text written into an emptied file is narrowed as a first load, and equals a whole parse', async () => {
    const vs = stringify(raw({ kind: 'VirtualService', name: 'a', ns: undefined, spec: { a: 'x' } }));
    const list = docText({ t: 'list', items: [{ kind: 'Service', name: 'b', ns: undefined, spec: {} }], indentSeq: true });
    let memo = (await parseNarrowed(list, FILE, 'ns-default', DEFAULT_FILE_LIMITS, undefined))!.memo;
    memo = (await parseNarrowed('', FILE, 'ns-default', DEFAULT_FILE_LIMITS, memo))!.memo;
    for (const text of [`${vs}---\n`, `${vs}---\n${vs}`]) {
      const narrowed = await parseNarrowed(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS, memo);
      const whole = await parseTextAsync(text, FILE, 'ns-default', DEFAULT_FILE_LIMITS);
      expect(narrowed).toBeDefined();
      expect(shape(narrowed!.result.inputs)).toEqual(shape(whole.inputs));
      expect(narrowed!.result.docs).toBe(whole.docs);
    }
  });

  it('one edited document of 1,000 is the only piece parsed again; the others are the same objects', async () => {
    const docs = Array.from({ length: 1000 }, (_, i) =>
      stringify(raw({ kind: 'VirtualService', name: `vs-${i}`, ns: 'x', spec: { hosts: [`h${i}`] } })),
    );
    const first = await parseNarrowed(docs.join('---\n'), FILE, undefined, DEFAULT_FILE_LIMITS, undefined);
    expect(first?.parsedPieces).toBe(1000);
    docs[500] = stringify(raw({ kind: 'VirtualService', name: 'vs-500', ns: 'x', spec: { hosts: ['changed'] } }));
    const second = await parseNarrowed(docs.join('---\n'), FILE, undefined, DEFAULT_FILE_LIMITS, first!.memo);
    expect(second?.parsedPieces).toBe(1);
    const changed = second!.result.inputs.filter((x, i) => x !== first!.result.inputs[i]);
    expect(changed.map((x) => (x.object.metadata as { name: string }).name)).toEqual(['vs-500']);
    expect((changed[0]!.object.spec as { hosts: string[] }).hosts).toEqual(['changed']);
  });

  it('one edited item of a 1,000-item List (kubectl layout) is the only piece parsed again', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => raw({ kind: 'Pod', name: `p-${i}`, ns: 'x', spec: { n: i } }));
    const text = (xs: unknown[]) =>
      stringify({ apiVersion: 'v1', items: xs, kind: 'List', metadata: { resourceVersion: '' } }, { indentSeq: false });
    const first = await parseNarrowed(text(items), FILE, undefined, DEFAULT_FILE_LIMITS, undefined);
    expect(first?.result.inputs).toHaveLength(1000);
    items[7] = raw({ kind: 'Pod', name: 'p-7', ns: 'x', spec: { n: -7 } });
    const second = await parseNarrowed(text(items), FILE, undefined, DEFAULT_FILE_LIMITS, first!.memo);
    expect(second?.parsedPieces).toBe(1); // the edited item: the List's head did not change (its bytes are compared)
    expect(second!.result.inputs.filter((x, i) => x !== first!.result.inputs[i])).toHaveLength(1);
  });

  it('leaves to the whole parse: directives, document end markers, a syntax error in any document', async () => {
    const a = stringify(raw({ kind: 'Service', name: 'a', ns: 'x', spec: {} }));
    for (const text of [
      `%YAML 1.2\n---\n${a}---\n${a}`,
      `${a}...\n---\n${a}`,
      `${a}---\nkey: [unclosed\n---\n${a}`,
      `${a}---\n${a}a: 1\na: 2\n`,
    ])
      expect(await parseNarrowed(text, FILE, undefined, DEFAULT_FILE_LIMITS, undefined)).toBeUndefined();
  });
});
