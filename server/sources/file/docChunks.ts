// Document-level narrowing of a changed file (issue 24): a YAML stream is cut at its document markers (`---`
// at column 0), and a `kind: List` document into its items, and each piece is parsed on its own and cached
// by its text, so an edit of one document (or one List item) in a 1,000-document file re-parses that piece
// only, and every unchanged piece gives back the very same RawInput objects (the store and the snapshot
// cache then skip them by identity). YAML documents are independent of each other (anchors, tags and
// directives are per document), and a line starting with `---` or `...` can never be content (YAML 1.2
// §9.1.4, c-forbidden), so cutting there is exact; the pieces' results joined equal a parse of the whole
// text (docChunks.property.test.ts checks it against parseText over random edits). Anything unusual —
// directives (`%`), document end markers (`...`), a piece with an error or a warning, a List whose items are
// not a plain block sequence, an object count over the limit — is not narrowed: the caller parses the whole
// text as before, so every error keeps its file-level location.
import { parseAllDocuments } from 'yaml';
import type { RawInput } from '../types';
import { type FileLimits, fromValues, type LoadResult, plainYamlFastPath } from './parseFile';

/**
 * Parsed pieces of a file's last load by their text (the same text may be several documents, each with its
 * index): what the next load of the same file may reuse.
 */
export type DocMemo = Map<string, Piece[]>;

interface Piece {
  /** The document index the inputs carry (`origin.doc`). */
  doc: number;
  inputs: RawInput[];
}

const MARKER = /^---(?:[ \t\r\n]|$)/;
const UNSAFE = /^(?:%|\.\.\.(?:[ \t\r]|$))/m;
const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?\r?\n?$/;
const LIST_KIND = /^kind:[ \t]*["']?[A-Za-z]*List["']?[ \t]*\r?$/m;
/** Pieces parsed between two event-loop turns. */
const PIECES_PER_TURN = 100;

/** The text cut before every document marker line (the marker stays with the document it opens). */
export function splitDocuments(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    if (at > start && text.startsWith('---', at) && MARKER.test(text.slice(at, at + 4))) {
      out.push(text.slice(start, at));
      start = at;
    }
    at = end;
  }
  out.push(text.slice(start));
  return out;
}

/**
 * A List document cut into its head (the document with `items: []` in place of the items) and one text per
 * item (dedented to a one-item block sequence), when its items are a block sequence under a top-level
 * `items:` key; else undefined.
 */
export function splitListItems(doc: string): { head: string; items: string[] } | undefined {
  const lines = doc.split(/(?<=\n)/);
  const at = lines.findIndex((l) => /^items:[ \t]*\r?\n?$/.test(l));
  if (at < 0) return undefined;
  let i = at + 1;
  while (i < lines.length && BLANK_OR_COMMENT.test(lines[i]!)) i++;
  const first = /^( *)-(?:[ \t]|\r?\n?$)/.exec(lines[i] ?? '');
  if (!first) return undefined;
  const indent = first[1]!.length;
  const itemStart = new RegExp(`^ {${indent}}-(?:[ \\t]|\\r?\\n?$)`);
  const inside = new RegExp(`^ {${indent + 1}}`);
  const items: string[][] = [];
  let end = i;
  for (; end < lines.length; end++) {
    const l = lines[end]!;
    if (itemStart.test(l)) items.push([l.slice(indent)]);
    else if (inside.test(l)) items[items.length - 1]!.push(l.slice(indent));
    else if (BLANK_OR_COMMENT.test(l)) items[items.length - 1]!.push(l.endsWith('\n') ? '\n' : '');
    else break;
  }
  const head = [...lines.slice(0, at), 'items: []\n', ...lines.slice(end)].join('');
  return { head, items: items.map((l) => l.join('')) };
}

/** The documents of one piece of YAML, or undefined when it has an error or warning (then nothing is narrowed). */
function parsePiece(text: string): unknown[] | undefined {
  const fast = plainYamlFastPath(text);
  if (fast) return fast;
  try {
    const docs = parseAllDocuments(text, { uniqueKeys: true });
    if (!Array.isArray(docs)) return undefined;
    if (docs.some((d) => d.errors.length > 0 || d.warnings.length > 0)) return undefined;
    return docs.map((d) => d.toJS({ maxAliasCount: 1000 }));
  } catch {
    return undefined;
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The inputs of one document value at index `doc`, or undefined when it does not read cleanly. */
function inputsOf(value: unknown, doc: number, file: string, namespace: string | undefined, limits: FileLimits): RawInput[] | undefined {
  const r = fromValues([value], file, namespace, limits, doc);
  return r.errors.length > 0 || r.refused ? undefined : r.inputs;
}

/**
 * A piece's inputs: the cached ones when the same text was parsed before — the very same objects when its
 * document index is the same, else re-labelled with the new index (a document that moved).
 */
function cached(prev: DocMemo | undefined, next: DocMemo, key: string, doc: number): RawInput[] | undefined {
  const seen = prev?.get(key) ?? next.get(key);
  if (!seen) return undefined;
  const same = seen.find((p) => p.doc === doc);
  const inputs = same ? same.inputs : seen[0]!.inputs.map((i) => ({ object: i.object, origin: { ...i.origin, doc } }));
  remember(next, key, doc, inputs);
  return inputs;
}

function remember(memo: DocMemo, key: string, doc: number, inputs: RawInput[]): void {
  const list = memo.get(key);
  if (!list) memo.set(key, [{ doc, inputs }]);
  else if (!list.some((p) => p.doc === doc)) list.push({ doc, inputs });
}

/**
 * Parses `text` piece by piece, reusing the pieces of `prev` (the same file's last load) whose text is
 * unchanged; undefined when the text is one plain document or cannot be narrowed exactly (see above).
 */
export async function parseNarrowed(
  text: string,
  file: string,
  namespace: string | undefined,
  limits: FileLimits,
  prev: DocMemo | undefined,
): Promise<{ result: LoadResult; memo: DocMemo; parsedPieces: number } | undefined> {
  if (UNSAFE.test(text)) return undefined;
  const chunks = splitDocuments(text);
  const lists = LIST_KIND.test(text);
  if (chunks.length < 2 && !lists) return undefined;
  const memo: DocMemo = new Map();
  const inputs: RawInput[] = [];
  let doc = 0;
  let parsedPieces = 0;
  const parse = async (t: string): Promise<unknown[] | undefined> => {
    if (++parsedPieces % PIECES_PER_TURN === 0) await turn();
    return parsePiece(t);
  };
  for (const chunk of chunks) {
    const split = lists && LIST_KIND.test(chunk) ? splitListItems(chunk) : undefined;
    if (split) {
      const head = await parse(split.head);
      const h = head?.[0] as { kind?: unknown; items?: unknown } | undefined;
      if (head?.length !== 1 || !h || typeof h.kind !== 'string' || !h.kind.endsWith('List') || !Array.isArray(h.items)) return undefined;
      for (const item of split.items) {
        const key = `item\u0000${item}`;
        let got = cached(prev, memo, key, doc);
        if (!got) {
          const values = await parse(item);
          if (values?.length !== 1 || !Array.isArray(values[0]) || values[0].length !== 1) return undefined;
          got = inputsOf({ kind: 'List', items: values[0] }, doc, file, namespace, limits);
          if (!got) return undefined;
          remember(memo, key, doc, got);
        }
        for (const i of got) inputs.push(i);
      }
      doc++;
    } else {
      let got = cached(prev, memo, chunk, doc);
      if (!got) {
        const values = await parse(chunk);
        if (!values || values.length > 1) return undefined;
        if (values.length === 0) continue; // comments or nothing before the first marker: no document
        got = inputsOf(values[0], doc, file, namespace, limits);
        if (!got) return undefined;
        remember(memo, chunk, doc, got);
      }
      for (const i of got) inputs.push(i);
      doc++;
    }
    if (inputs.length > limits.maxObjectsPerFile) return undefined;
  }
  return { result: { inputs, errors: [], docs: doc }, memo, parsedPieces };
}
