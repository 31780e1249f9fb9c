// Document-level narrowing of a changed file (issue 24): a YAML stream is cut at its document markers (`---`
// at column 0), and a `kind: List` document into its items, and each piece is parsed on its own, so an edit
// of one document (or one List item) in a 1,000-document file re-parses that piece only, and every unchanged
// piece gives back the very same RawInput objects (the store and the snapshot cache then skip them by
// identity). YAML documents are independent of each other (anchors, tags and directives are per document),
// and a line starting with `---` or `...` can never be content (YAML 1.2 §9.1.4, c-forbidden), so cutting
// there is exact; the pieces' results joined equal a parse of the whole text (docChunks.property.test.ts
// checks it against parseTextAsync over random edits). Anything unusual — directives (`%`), document end
// markers (`...`), a piece with an error or a warning, a List whose items are not a plain block sequence, an
// object count over the limit, bytes that are not UTF-8 — is not narrowed: the caller parses the whole text
// as before, so every error keeps its file-level location.
//
// An edit is found in the bytes, not the text (issue 24 goal 5): the new bytes are compared with the last
// load's (common prefix and suffix, memcmp in blocks), and only the pieces around the bytes that differ are
// decoded and cut again — the rest of the file is never decoded, hashed, split into lines or looked up. A cut
// decision at byte q reads bytes q-1 (the line start) to q+3 (`---` and what follows), a List item's start
// up to its indent + 3, so the re-cut region is widened until its ends are piece boundaries that no
// differing byte can move. Within the region, pieces whose text is unchanged (a moved document) are still
// reused by text.
import { isUtf8 } from 'node:buffer';
import { parseAllDocuments } from 'yaml';
import type { RawInput } from '../types';
import { type FileLimits, fromValues, type LoadResult, plainYamlFastPath } from './parseFile';

/**
 * A file's last narrowed load: its bytes and their pieces in file order (their lengths add up to the bytes'), the
 * pieces' inputs laid end to end (the load result's `inputs`, never changed: an edit makes a new array) and how
 * many documents they are.
 */
export interface DocMemo {
  readonly bytes: Buffer;
  readonly pieces: readonly Piece[];
  readonly inputs: RawInput[];
  readonly docs: number;
}

interface Piece {
  /** Length in bytes. */
  len: number;
  /** A document (false: comments or nothing before the first marker). */
  doc: boolean;
  /** Its objects (`origin.doc`: its document index); a List's are its items' in order. */
  inputs: RawInput[];
  /** A List cut into items: `head` bytes before the first item, then the items; the rest is its tail. */
  list?: { head: number; indent: number; items: Item[] };
}

interface Item {
  len: number;
  inputs: RawInput[];
}

export interface Narrowed {
  result: LoadResult;
  memo: DocMemo;
  /** Documents, List items and List heads parsed (the rest reused). */
  parsedPieces: number;
  /** The bytes are the last load's (`result` and `memo` hold its inputs). */
  unchanged?: true;
}

const MARKER = /^---(?:[ \t\r\n]|$)/;
const UNSAFE = /^(?:%|\.\.\.(?:[ \t\r]|$))/m;
const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?\r?\n?$/;
const ITEMS_KEY = /^items:[ \t]*\r?\n?$/;
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

/** An item of a List's block sequence: its span in the text, and its text dedented to a one-item sequence. */
interface ItemText {
  start: number;
  end: number;
  text: string;
}

/**
 * The items of a block sequence at `indent` in `text` from `from` (a line start): each item runs from its
 * `- ` line over the lines indented deeper and blank or comment lines (kept as empty lines), until a line that
 * is none of these. `end`: where the sequence ends.
 */
function scanItems(text: string, from: number, indent: number): { items: ItemText[]; end: number } {
  const itemStart = new RegExp(`^ {${indent}}-(?:[ \\t]|\\r?\\n?$)`);
  const inside = new RegExp(`^ {${indent + 1}}`);
  const items: ItemText[] = [];
  let lines: string[] = [];
  let at = from;
  const close = () => {
    const last = items[items.length - 1];
    if (last) {
      last.end = at;
      last.text = lines.join('');
    }
  };
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    const l = text.slice(at, end);
    if (itemStart.test(l)) {
      close();
      items.push({ start: at, end, text: '' });
      lines = [l.slice(indent)];
    } else if (items.length > 0 && inside.test(l)) lines.push(l.slice(indent));
    else if (items.length > 0 && BLANK_OR_COMMENT.test(l)) lines.push(l.endsWith('\n') ? '\n' : '');
    else break;
    at = end;
  }
  close();
  return { items, end: at };
}

/**
 * A List document cut into its head (the document with `items: []` in place of the items) and its items, when
 * its items are a block sequence under a top-level `items:` key; else undefined. Offsets are in `doc`.
 */
function cutListItems(doc: string): { head: string; indent: number; items: ItemText[] } | undefined {
  let at = 0;
  let keyLine = -1;
  let keyEnd = 0;
  while (at < doc.length) {
    const nl = doc.indexOf('\n', at);
    const end = nl < 0 ? doc.length : nl + 1;
    if (ITEMS_KEY.test(doc.slice(at, end))) {
      keyLine = at;
      keyEnd = end;
      break;
    }
    at = end;
  }
  if (keyLine < 0) return undefined;
  // Blank and comment lines between `items:` and the first item belong to neither.
  at = keyEnd;
  while (at < doc.length) {
    const nl = doc.indexOf('\n', at);
    const end = nl < 0 ? doc.length : nl + 1;
    if (!BLANK_OR_COMMENT.test(doc.slice(at, end))) break;
    at = end;
  }
  const nl = doc.indexOf('\n', at);
  const first = /^( *)-(?:[ \t]|\r?\n?$)/.exec(doc.slice(at, nl < 0 ? doc.length : nl + 1));
  if (!first) return undefined;
  const indent = first[1]!.length;
  const { items, end } = scanItems(doc, at, indent);
  return { head: `${doc.slice(0, keyLine)}items: []\n${doc.slice(end)}`, indent, items };
}

/** The documents of one piece of YAML, or undefined when it has an error or warning (then nothing is narrowed). */
export function parsePiece(text: string): unknown[] | undefined {
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

/**
 * Earlier pieces by their text (`item\0…` for a List item): what a re-cut reuses for a text that did not change.
 * A first load may be handed one filled with pieces parsed elsewhere (./parseJobs: a worker thread).
 */
export type Reuse = Map<string, Array<{ doc: number; inputs: RawInput[] }>>;

/** The inputs of `seen` for document `doc`: the very same objects for the same index, else re-labelled (a moved document). */
function relabel(inputs: RawInput[], from: number, doc: number): RawInput[] {
  return from === doc ? inputs : inputs.map((i) => ({ object: i.object, origin: { ...i.origin, doc } }));
}

function reused(reuse: Reuse, key: string, doc: number): RawInput[] | undefined {
  const seen = reuse.get(key);
  if (!seen) return undefined;
  const same = seen.find((p) => p.doc === doc) ?? seen[0]!;
  return relabel(same.inputs, same.doc, doc);
}

export function remember(reuse: Reuse, key: string, doc: number, inputs: RawInput[]): void {
  const list = reuse.get(key);
  if (!list) reuse.set(key, [{ doc, inputs }]);
  else if (!list.some((p) => p.doc === doc)) list.push({ doc, inputs });
}

export const itemKey = (text: string) => `item\u0000${text}`;

/** A List item's objects (its text dedented to a one-item sequence), or undefined when it does not read cleanly. */
export function itemInputs(
  text: string,
  file: string,
  namespace: string | undefined,
  limits: FileLimits,
  doc: number,
): RawInput[] | undefined {
  const values = parsePiece(text);
  if (values?.length !== 1 || !Array.isArray(values[0]) || values[0].length !== 1) return undefined;
  return inputsOf({ kind: 'List', items: values[0] }, file, namespace, limits, doc);
}

/**
 * A document chunk's objects: `null` for a chunk with no document (comments or nothing before the first
 * marker), undefined when it does not read cleanly.
 */
export function chunkInputs(
  text: string,
  file: string,
  namespace: string | undefined,
  limits: FileLimits,
  doc: number,
): RawInput[] | null | undefined {
  const values = parsePiece(text);
  if (!values || values.length > 1) return undefined;
  if (values.length === 0) return null;
  return inputsOf(values[0], file, namespace, limits, doc);
}

function inputsOf(value: unknown, file: string, namespace: string | undefined, limits: FileLimits, doc: number): RawInput[] | undefined {
  const r = fromValues([value], file, namespace, limits, doc);
  return r.errors.length > 0 || r.refused ? undefined : r.inputs;
}

/** Cuts and parses texts into pieces; counts what it parsed. */
class Cutter {
  parsed = 0;
  constructor(
    private readonly file: string,
    private readonly namespace: string | undefined,
    private readonly limits: FileLimits,
    /** Byte length of a piece of the text (its UTF-16 length when the file is ASCII). */
    readonly blen: (s: string) => number,
  ) {}

  /** A turn of the event loop every PIECES_PER_TURN pieces parsed. */
  private async count(): Promise<void> {
    if (++this.parsed % PIECES_PER_TURN === 0) await turn();
  }

  private async parse(t: string): Promise<unknown[] | undefined> {
    await this.count();
    return parsePiece(t);
  }

  /** One List item's inputs (its text dedented), reused by text or parsed; undefined when it does not read cleanly. */
  async item(it: ItemText, doc: number, reuse: Reuse): Promise<Item | undefined> {
    const key = itemKey(it.text);
    let inputs = reused(reuse, key, doc);
    if (!inputs) {
      await this.count();
      inputs = itemInputs(it.text, this.file, this.namespace, this.limits, doc);
      if (!inputs) return undefined;
    }
    remember(reuse, key, doc, inputs);
    return { len: 0, inputs }; // its byte length is set by the caller, who knows its span
  }

  /**
   * `text` (whole documents, starting at a document's start) cut into pieces, the first document numbered
   * `firstDoc`; undefined when it cannot be narrowed exactly.
   */
  async cut(text: string, firstDoc: number, reuse: Reuse): Promise<{ pieces: Piece[]; docs: number } | undefined> {
    if (UNSAFE.test(text)) return undefined;
    const pieces: Piece[] = [];
    let doc = firstDoc;
    for (const chunk of splitDocuments(text)) {
      const split = LIST_KIND.test(chunk) ? cutListItems(chunk) : undefined;
      if (split) {
        const head = await this.parse(split.head);
        const h = head?.[0] as { kind?: unknown; items?: unknown } | undefined;
        if (head?.length !== 1 || !h || typeof h.kind !== 'string' || !h.kind.endsWith('List') || !Array.isArray(h.items)) return undefined;
        const items: Item[] = [];
        const inputs: RawInput[] = [];
        for (const it of split.items) {
          const item = await this.item(it, doc, reuse);
          if (!item) return undefined;
          item.len = this.blen(chunk.slice(it.start, it.end));
          items.push(item);
          for (const i of item.inputs) inputs.push(i);
        }
        const head0 = split.items[0]!.start;
        pieces.push({
          len: this.blen(chunk),
          doc: true,
          inputs,
          list: { head: this.blen(chunk.slice(0, head0)), indent: split.indent, items },
        });
        doc++;
      } else {
        let inputs = reused(reuse, chunk, doc);
        if (!inputs) {
          await this.count();
          const got = chunkInputs(chunk, this.file, this.namespace, this.limits, doc);
          if (got === undefined) return undefined;
          if (got === null) {
            // Comments or nothing before the first marker: no document.
            pieces.push({ len: this.blen(chunk), doc: false, inputs: [] });
            continue;
          }
          inputs = got;
        }
        remember(reuse, chunk, doc, inputs);
        pieces.push({ len: this.blen(chunk), doc: true, inputs });
        doc++;
      }
    }
    return { pieces, docs: doc - firstDoc };
  }
}

/** The pieces' texts (as `Cutter.cut` keys them) with their inputs: the reuse map of a region about to be cut again. */
function reuseOf(text: string, pieces: readonly Piece[], firstDoc: number): Reuse {
  const reuse: Reuse = new Map();
  const chunks = splitDocuments(text);
  if (chunks.length !== pieces.length) return reuse;
  let doc = firstDoc;
  chunks.forEach((chunk, n) => {
    const p = pieces[n]!;
    if (!p.doc) return;
    if (p.list) {
      const split = cutListItems(chunk);
      if (split?.items.length === p.list.items.length)
        split.items.forEach((it, k) => remember(reuse, itemKey(it.text), doc, p.list!.items[k]!.inputs));
    } else remember(reuse, chunk, doc, p.inputs);
    doc++;
  });
  return reuse;
}

function result(pieces: readonly Piece[], bytes: Buffer, parsedPieces: number, limits: FileLimits): Narrowed | undefined {
  const inputs: RawInput[] = [];
  let docs = 0;
  for (const p of pieces) {
    if (p.doc) docs++;
    for (const i of p.inputs) inputs.push(i);
  }
  return narrowed(bytes, pieces, inputs, docs, parsedPieces, limits);
}

/** The last load again (its bytes unchanged). */
function same(prev: DocMemo, bytes: Buffer): Narrowed {
  const memo = { bytes, pieces: prev.pieces, inputs: prev.inputs, docs: prev.docs };
  return { result: { inputs: prev.inputs, errors: [], docs: prev.docs }, memo, parsedPieces: 0, unchanged: true };
}

function narrowed(
  bytes: Buffer,
  pieces: readonly Piece[],
  inputs: RawInput[],
  docs: number,
  parsedPieces: number,
  limits: FileLimits,
): Narrowed | undefined {
  if (inputs.length > limits.maxObjectsPerFile) return undefined;
  return { result: { inputs, errors: [], docs }, memo: { bytes, pieces, inputs, docs }, parsedPieces };
}

/** How many inputs the spans [from, to) hold (pieces or List items): where their inputs start in the flat array. */
function inputsIn(spans: readonly { inputs: readonly RawInput[] }[], from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) n += spans[k]!.inputs.length;
  return n;
}

/**
 * `prev` with its pieces `first` … `last` replaced by `fresh`, whose documents are `shift` more than theirs. The
 * arrays before and after are copied whole (slice and concat), never walked, unless the pieces after move to other
 * document indexes: an edit inside a 2,000-document file costs what the pieces it parsed cost (issue 24 goal 5).
 */
function edited(
  prev: DocMemo,
  bytes: Buffer,
  at: { first: number; last: number; firstIn: number; firstDoc: number },
  fresh: Piece[],
  shift: number,
  parsedPieces: number,
  limits: FileLimits,
): Narrowed | undefined {
  const { first, last, firstIn, firstDoc } = at;
  const lastIn = firstIn + inputsIn(prev.pieces, first, last + 1);
  let freshDocs = 0;
  const freshIn: RawInput[] = [];
  for (const p of fresh) {
    if (p.doc) freshDocs++;
    for (const i of p.inputs) freshIn.push(i);
  }
  const before = prev.pieces.slice(0, first);
  if (shift === 0) {
    const pieces = before.concat(fresh, prev.pieces.slice(last + 1));
    const inputs = prev.inputs.slice(0, firstIn).concat(freshIn, prev.inputs.slice(lastIn));
    return narrowed(bytes, pieces, inputs, prev.docs, parsedPieces, limits);
  }
  const after = shifted(prev.pieces, last + 1, firstDoc + freshDocs, shift);
  const inputs = prev.inputs.slice(0, firstIn).concat(freshIn);
  for (const p of after) for (const i of p.inputs) inputs.push(i);
  return narrowed(bytes, before.concat(fresh, after), inputs, prev.docs + shift, parsedPieces, limits);
}

/** Length of the common prefix of `a` and `b`: equal blocks skipped by memcmp, 64 KiB down to one byte. */
function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let at = 0;
  for (const step of [65536, 4096, 256, 16, 1]) while (at + step <= n && b.compare(a, at, at + step, at, at + step) === 0) at += step;
  return at;
}

/** Length of the common suffix of `a` and `b`, at most `max`. */
function commonSuffix(a: Buffer, b: Buffer, max: number): number {
  let k = 0;
  for (const step of [65536, 4096, 256, 16, 1])
    while (k + step <= max && b.compare(a, a.length - k - step, a.length - k, b.length - k - step, b.length - k) === 0) k += step;
  return k;
}

/**
 * Parses a file's bytes piece by piece: with `prev` (the same file's last narrowed load), only the pieces
 * around the bytes that differ are cut and parsed again. Undefined when the text is one plain document or
 * cannot be narrowed exactly (see above). `text`: the bytes decoded, when the caller has it.
 */
export async function parseNarrowed(
  input: Buffer | string,
  file: string,
  namespace: string | undefined,
  limits: FileLimits,
  prev: DocMemo | undefined,
  decoded?: string,
  /** A first load's pieces parsed already (firstLoadPieces → ./parseJobs), keyed as Cutter.cut keys them. */
  pre?: { reuse: Reuse; pieces: number },
): Promise<Narrowed | undefined> {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (prev) {
    if (prev.bytes.length === 0 && bytes.length === 0) return same(prev, bytes);
    // An edit of an empty text has no piece to reach: it is a first load (below).
    if (prev.bytes.length > 0) return narrowEdit(prev, bytes, file, namespace, limits); // checks the UTF-8 of the bytes that differ
  }
  if (!isUtf8(bytes)) return undefined;
  const text = decoded ?? (typeof input === 'string' ? input : bytes.toString('utf8'));
  if (LONE_CR.test(text)) return undefined;
  const ascii = text.length === bytes.length;
  const cutter = new Cutter(file, namespace, limits, ascii ? (s) => s.length : (s) => Buffer.byteLength(s));
  if (splitDocuments(text).length < 2 && !LIST_KIND.test(text)) return undefined;
  const cut = await cutter.cut(text, 0, pre?.reuse ?? new Map());
  return cut && result(cut.pieces, bytes, cutter.parsed + (pre?.pieces ?? 0), limits);
}

/** A piece of a first load as Cutter.cut parses it: a document chunk or a List item's dedented text, its document. */
export interface FirstPiece {
  item: boolean;
  text: string;
  doc: number;
}

/**
 * The pieces a first load of `text` parses (what parseNarrowed's Cutter would parse one by one), so they can be
 * parsed elsewhere and handed back as `pre` (its keys: `pieceKey`); undefined when the text is not narrowed.
 * A chunk before the first marker with only blank and comment lines holds no document; a piece whose document
 * index is guessed wrong is only a miss (the Cutter parses it again).
 */
export function firstLoadPieces(text: string): FirstPiece[] | undefined {
  if (UNSAFE.test(text) || LONE_CR.test(text)) return undefined;
  const chunks = splitDocuments(text);
  if (chunks.length < 2 && !LIST_KIND.test(text)) return undefined;
  const out: FirstPiece[] = [];
  let doc = 0;
  chunks.forEach((chunk, n) => {
    if (n === 0 && chunk.split('\n').every((l) => BLANK_OR_COMMENT.test(l))) return;
    const split = LIST_KIND.test(chunk) ? cutListItems(chunk) : undefined;
    if (split) for (const it of split.items) out.push({ item: true, text: it.text, doc });
    else out.push({ item: false, text: chunk, doc });
    doc++;
  });
  return out;
}

export const pieceKey = (p: FirstPiece): string => (p.item ? itemKey(p.text) : p.text);

/**
 * A carriage return not followed by a line feed. YAML reads a lone CR as a line break (YAML 1.2 §5.4, `b-break`),
 * but the cuts here split lines at LF only, so a text with one is never narrowed: a narrowed load's text has none,
 * and an edit makes one only with a CR it inserts or by deleting the LF after a CR before it.
 */
const LONE_CR = /\r(?!\n)/;
function loneCr(b: Buffer, from: number, to: number): boolean {
  for (let at = Math.max(0, from); at < to; at++) if (b[at] === 0x0d && b[at + 1] !== 0x0a) return true;
  return false;
}

const continuation = (b: Buffer, at: number): boolean => at < b.length && (b[at]! & 0xc0) === 0x80;

/**
 * The new bytes to check for UTF-8 after `old` bytes [p, oldHi) became new bytes [p, oldHi + delta): the changed
 * span widened to characters of the old bytes (valid UTF-8: a narrowed file's bytes were checked when first
 * parsed, and every edit since). The unchanged prefix before `from` and suffix from `to` are whole characters of
 * the old bytes, so the new bytes are UTF-8 exactly when [from, to) is (the whole file is never checked again).
 */
function changedChars(old: Buffer, p: number, oldHi: number, delta: number): [number, number] {
  let from = p;
  while (from > 0 && continuation(old, from)) from--;
  let to = oldHi;
  while (continuation(old, to)) to++;
  return [from, to + delta];
}

/** The pieces of `prev` after `from`, their document indexes moved by `shift`. */
function shifted(pieces: readonly Piece[], from: number, firstDoc: number, shift: number): Piece[] {
  const out: Piece[] = [];
  let doc = firstDoc;
  for (let n = from; n < pieces.length; n++) {
    const p = pieces[n]!;
    if (shift === 0 || !p.doc) out.push(p);
    else if (!p.list) out.push({ ...p, inputs: relabel(p.inputs, doc - shift, doc) });
    else {
      const items = p.list.items.map((it) => ({ len: it.len, inputs: relabel(it.inputs, doc - shift, doc) }));
      const inputs: RawInput[] = [];
      for (const it of items) for (const i of it.inputs) inputs.push(i);
      out.push({ ...p, inputs, list: { ...p.list, items } });
    }
    if (p.doc) doc++;
  }
  return out;
}

async function narrowEdit(
  prev: DocMemo,
  bytes: Buffer,
  file: string,
  namespace: string | undefined,
  limits: FileLimits,
): Promise<Narrowed | undefined> {
  const old = prev.bytes;
  const p = commonPrefix(old, bytes);
  if (p === old.length && p === bytes.length) return same(prev, bytes);
  const s = commonSuffix(old, bytes, Math.min(old.length, bytes.length) - p);
  const oldHi = old.length - s; // old bytes [p, oldHi) became new bytes [p, bytes.length - s)
  const delta = bytes.length - old.length;
  if (!isUtf8(bytes.subarray(...changedChars(old, p, oldHi, delta)))) return undefined;
  if (loneCr(bytes, p - 1, bytes.length - s)) return undefined;
  const cutter = new Cutter(file, namespace, limits, (t) => Buffer.byteLength(t));
  // The pieces the differing bytes can reach: a marker at q reads bytes q-1 … q+3.
  const lo = Math.max(0, p - 4);
  const hi = Math.min(old.length, oldHi + 1);
  const { first, last, firstStart, lastEnd, end } = overlapping(prev.pieces, 0, lo, hi);
  if (first < 0 || end !== old.length) return undefined;
  let firstDoc = 0;
  for (let n = 0; n < first; n++) if (prev.pieces[n]!.doc) firstDoc++;
  const at = { first, last, firstIn: inputsIn(prev.pieces, 0, first), firstDoc };
  const piece = prev.pieces[first]!;
  if (first === last && piece.list) {
    const items = await narrowItems(prev, bytes, piece, firstStart, firstDoc, p, oldHi, delta, cutter);
    if (items) return edited(prev, bytes, at, [items], 0, cutter.parsed, limits);
  }
  const oldText = old.toString('utf8', firstStart, lastEnd);
  const reuse = reuseOf(oldText, prev.pieces.slice(first, last + 1), firstDoc);
  const cut = await cutter.cut(bytes.toString('utf8', firstStart, lastEnd + delta), firstDoc, reuse);
  if (!cut) return undefined;
  let oldDocs = 0;
  for (let n = first; n <= last; n++) if (prev.pieces[n]!.doc) oldDocs++;
  return edited(prev, bytes, at, cut.pieces, cut.docs - oldDocs, cutter.parsed, limits);
}

/**
 * The run of consecutive spans (their lengths laid end to end from `start`) that overlap the bytes [lo, hi): the
 * first and last of them (first = -1 when none does), where the first starts and the last ends, and where the
 * spans end.
 */
function overlapping(
  spans: readonly { len: number }[],
  start: number,
  lo: number,
  hi: number,
): { first: number; last: number; firstStart: number; lastEnd: number; end: number } {
  let first = -1;
  let last = -1;
  let firstStart = 0;
  let lastEnd = 0;
  let pos = start;
  for (let n = 0; n < spans.length; n++) {
    const end = pos + spans[n]!.len;
    if (pos < hi && end > lo) {
      if (first < 0) {
        first = n;
        firstStart = pos;
      }
      last = n;
      lastEnd = end;
    }
    pos = end;
  }
  return { first, last, firstStart, lastEnd, end: pos };
}

/**
 * An edit inside one List document's items: only the items the differing bytes can reach are cut and parsed
 * again (an item's start line reads bytes q-1 … q+indent+2). Undefined when the edit reaches the List's head
 * or tail, or the new items are not a block sequence of the same indent: then the document is cut again whole.
 */
async function narrowItems(
  prev: DocMemo,
  bytes: Buffer,
  piece: Piece,
  start: number,
  doc: number,
  p: number,
  oldHi: number,
  delta: number,
  cutter: Cutter,
): Promise<Piece | undefined> {
  const list = piece.list!;
  const lo = p - (list.indent + 4);
  const hi = oldHi + 1;
  const itemsStart = start + list.head;
  const { first, last, firstStart, lastEnd, end } = overlapping(list.items, itemsStart, lo, hi);
  if (first < 0 || lo < itemsStart || hi > end) return undefined;
  const text = bytes.toString('utf8', firstStart, lastEnd + delta);
  const scan = scanItems(text, 0, list.indent);
  if (scan.end !== text.length || scan.items.length === 0 || scan.items[0]!.start !== 0) return undefined;
  const reuse: Reuse = new Map();
  const before = scanItems(prev.bytes.toString('utf8', firstStart, lastEnd), 0, list.indent);
  if (before.items.length === last - first + 1)
    before.items.forEach((it, k) => remember(reuse, itemKey(it.text), doc, list.items[first + k]!.inputs));
  const fresh: Item[] = [];
  const freshIn: RawInput[] = [];
  for (const it of scan.items) {
    const item = await cutter.item(it, doc, reuse);
    if (!item) return undefined;
    item.len = Buffer.byteLength(text.slice(it.start, it.end));
    fresh.push(item);
    for (const i of item.inputs) freshIn.push(i);
  }
  // The items' inputs before and after are copied whole: never walked (nor flat-mapped: 0.4 ms for 2,000 items).
  const from = inputsIn(list.items, 0, first);
  const to = from + inputsIn(list.items, first, last + 1);
  const items = list.items.slice(0, first).concat(fresh, list.items.slice(last + 1));
  const inputs = piece.inputs.slice(0, from).concat(freshIn, piece.inputs.slice(to));
  return { len: piece.len + delta, doc: true, inputs, list: { ...list, items } };
}
