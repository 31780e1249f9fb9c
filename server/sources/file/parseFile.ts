// One file's text (a YAML stream or JSON) → raw objects with origins and located errors, with limits.
// parseText is synchronous (CLI); parseTextAsync gives the event loop a turn every few thousand YAML
// tokens, so a server stays responsive while a big file is parsed. Neither ever throws.
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { Composer, type Document, Lexer, LineCounter, Parser, parseAllDocuments } from 'yaml';
import type { LoadError } from '../../model/mesh';
import { CLUSTER_SCOPED_KINDS } from '../../model/schema/kinds';
import { redactSecret } from '../../model/secrets';
import type { RawInput, RawObject } from '../types';
import type { PlainYamlReader } from './parseCache';

export interface LoadResult {
  inputs: RawInput[];
  errors: LoadError[];
  /** The whole file was refused (over a limit): none of its objects are used. */
  refused?: boolean;
  /** How many YAML documents the file has (a syntax error may swallow the documents after it). */
  docs?: number;
}

/** Per-file limits (DESIGN: limits on every input). Beyond them the file is refused with a located error. */
export interface FileLimits {
  /** Largest file read, in bytes (default 16 MiB). */
  maxFileBytes: number;
  /** Most objects one file may hold, `List` items included (default 100,000). */
  maxObjectsPerFile: number;
  /** Located errors kept per file; the rest are summarised in one more error (default 100). */
  maxErrorsPerFile: number;
}

/**
 * Defaults, from measurements on a 2-core machine: a valid 150k-object List (~13.5 MB of JSON) is under the
 * size limit but over the object limit, so it is refused at once with a clear error (building a snapshot of
 * 150k objects blocks one core for ~10 s); 20 MB of garbage is over the size limit and never parsed (the
 * YAML parser needs ~1 s and much memory per MB of bad lines). A refused file keeps its last good objects.
 */
export const DEFAULT_FILE_LIMITS: FileLimits = { maxFileBytes: 16 * 1024 * 1024, maxObjectsPerFile: 100_000, maxErrorsPerFile: 100 };

/** Above this size a text that looks like JSON is read with JSON.parse (YAML is a superset of JSON). */
const JSON_FAST_PATH_BYTES = 1024 * 1024;
/** YAML tokens between two event-loop turns in parseTextAsync. */
const TOKENS_PER_TURN = 20_000;

type Docs = Document.Parsed[];

/** `readPlain`: how the plain-YAML fast path is read (the CLI passes its parse cache: parseCache.ts). */
export function parseText(
  text: string,
  file: string,
  namespace?: string,
  limits: FileLimits = DEFAULT_FILE_LIMITS,
  readPlain?: PlainYamlReader,
): LoadResult {
  const fast = jsonFastPath(text);
  if (fast) return 'error' in fast ? jsonError(fast.error, file) : fromValues([fast.value], file, namespace, limits);
  const plain = readPlain ? readPlain(text, plainYamlFastPath) : plainYamlFastPath(text);
  if (plain) return fromValues(plain, file, namespace, limits);
  let docs: Docs;
  try {
    docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true }) as unknown as Docs;
  } catch (e) {
    return { inputs: [], errors: [{ severity: 'error', message: `cannot parse: ${String(e)}`, file }] };
  }
  return fromDocs(Array.isArray(docs) ? docs : [], undefined, file, namespace, limits);
}

export async function parseTextAsync(
  text: string,
  file: string,
  namespace?: string,
  limits: FileLimits = DEFAULT_FILE_LIMITS,
): Promise<LoadResult> {
  const fast = jsonFastPath(text);
  if (fast) {
    await turn();
    return 'error' in fast ? jsonError(fast.error, file) : fromValues([fast.value], file, namespace, limits);
  }
  // Small files only: a big one goes through the yielding parser below, so the server stays responsive.
  const plain = text.length <= PLAIN_YAML_ASYNC_MAX_BYTES ? plainYamlFastPath(text) : undefined;
  if (plain) return fromValues(plain, file, namespace, limits);
  const lines = new LineCounter();
  const docs: Docs = [];
  try {
    const parser = new Parser(lines.addNewLine);
    lines.addNewLine(0); // what Parser.parse() does first: line 1 starts at offset 0
    const composer = new Composer({ uniqueKeys: true });
    let n = 0;
    for (const lexeme of new Lexer().lex(text)) {
      for (const token of parser.next(lexeme)) for (const d of composer.next(token)) docs.push(d as Document.Parsed);
      if (++n % TOKENS_PER_TURN === 0) await turn();
    }
    for (const token of parser.end()) for (const d of composer.next(token)) docs.push(d as Document.Parsed);
    for (const d of composer.end()) docs.push(d as Document.Parsed);
  } catch (e) {
    return { inputs: [], errors: [{ severity: 'error', message: `cannot parse: ${String(e)}`, file }] };
  }
  return fromDocs(docs, lines, file, namespace, limits);
}

/** Largest text parseTextAsync reads with the (synchronous) plain-YAML fast path. */
const PLAIN_YAML_ASYNC_MAX_BYTES = 256 * 1024;
/**
 * Text that only the `yaml` parser reads: a tag (`!!float 1`: the two parsers differ on explicit tags), a
 * directive (`%YAML 1.1` changes the schema), a block scalar (`|`, `>`: the parsers differ on some indentation
 * indicators and leading-space lines). Matching more (a `!` or ` |` inside a string) only costs speed.
 */
const YAML_ONLY = /(?:^|[\s[\]{},:?-])!|^%|(?:^|[\s:?-])[|>][0-9+-]*[ \t]*(?:#.*)?$/m;

/**
 * The documents of an error-free YAML stream of plain mappings, sequences and scalars, read with js-yaml's YAML 1.2
 * core schema (2-3× faster than `yaml`'s document model; the same values, as parseFile.test.ts checks over this
 * repo's YAML and generated values). Undefined for anything else — a syntax error, a duplicate key, an alias
 * (`maxAliases: 0`: `yaml`'s alias limit guards against billion-laughs input), a tag, a directive, a block scalar — which the
 * `yaml` parser then reads, with its located errors.
 */
export function plainYamlFastPath(text: string): unknown[] | undefined {
  if (YAML_ONLY.test(text)) return undefined;
  try {
    return loadAll(text, { schema: CORE_SCHEMA, maxAliases: 0 });
  } catch {
    return undefined;
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A big text that looks like JSON is read as JSON only: when JSON.parse fails (a file caught half-written, a
 * truncated upload), the error is located from JSON's position, without handing megabytes of broken text to
 * the YAML parser (seconds per MB: issue #25, a big file must never hold up the others).
 */
function jsonFastPath(text: string): { value: unknown } | { error: string } | undefined {
  if (text.length < JSON_FAST_PATH_BYTES) return undefined;
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    const msg = (e as Error).message;
    const at = /position (\d+)/.exec(msg);
    if (!at) return { error: `JSON syntax error: ${msg}` };
    const pos = Number(at[1]);
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - before.lastIndexOf('\n');
    return { error: `JSON syntax error at line ${line}, column ${col}: ${msg.replace(/ in JSON at position \d+.*$/, '')}` };
  }
}

const jsonError = (error: string, file: string): LoadResult => ({
  inputs: [],
  errors: [{ severity: 'error', message: error, file, doc: 0 }],
  docs: 1,
});

class Collector {
  readonly inputs: RawInput[] = [];
  readonly errors: LoadError[] = [];
  private dropped = 0;
  overLimit = false;
  docs = 1;

  constructor(
    readonly file: string,
    readonly namespace: string | undefined,
    readonly limits: FileLimits,
  ) {}

  error(e: LoadError): void {
    if (this.errors.length < this.limits.maxErrorsPerFile) this.errors.push(e);
    else this.dropped++;
  }

  result(): LoadResult {
    if (this.dropped > 0)
      this.errors.push({
        severity: 'error',
        message: `${this.dropped} more errors in this file not shown (limit ${this.limits.maxErrorsPerFile} per file)`,
        file: this.file,
      });
    if (this.overLimit) return { inputs: [], errors: this.errors, refused: true, docs: this.docs };
    return { inputs: this.inputs, errors: this.errors, docs: this.docs };
  }
}

function fromDocs(docs: Docs, lines: LineCounter | undefined, file: string, namespace: string | undefined, limits: FileLimits): LoadResult {
  const c = new Collector(file, namespace, limits);
  c.docs = docs.length;
  docs.forEach((doc, index) => {
    if (c.overLimit) return;
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const pos = err.linePos?.[0] ?? (lines && err.pos ? lines.linePos(err.pos[0]) : undefined);
        const message = (err.message.split('\n')[0] ?? err.message).replace(/ at line \d+, column \d+:?$/, '');
        const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
        c.error({ severity: 'error', message: `YAML syntax error${where}: ${message}`, file, doc: index });
      }
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      c.error({ severity: 'error', message: `cannot read document: ${String(e)}`, file, doc: index });
      return;
    }
    addValue(c, value, index);
  });
  return c.result();
}

/** The objects of parsed documents (`firstDoc`: the index of the first of them in its file). */
export function fromValues(values: unknown[], file: string, namespace: string | undefined, limits: FileLimits, firstDoc = 0): LoadResult {
  const c = new Collector(file, namespace, limits);
  c.docs = values.length;
  for (let i = 0; i < values.length; i++) addValue(c, values[i], firstDoc + i);
  return c.result();
}

function addValue(c: Collector, value: unknown, doc: number): void {
  if (value === null || value === undefined) return; // empty document
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) collect(c, item, doc);
}

function collect(c: Collector, value: unknown, doc: number): void {
  if (c.overLimit || value === null || value === undefined) return;
  if (typeof value !== 'object' || Array.isArray(value)) {
    c.error({
      severity: 'error',
      message: 'document is not a Kubernetes object (expected a mapping with apiVersion and kind)',
      file: c.file,
      doc,
    });
    return;
  }
  const obj = value as RawObject;
  if (typeof obj.kind === 'string' && (obj.kind === 'List' || obj.kind.endsWith('List')) && Array.isArray(obj.items)) {
    if (c.inputs.length + obj.items.length > c.limits.maxObjectsPerFile) return refuse(c, c.inputs.length + obj.items.length, doc);
    for (const item of obj.items) collect(c, item, doc);
    return;
  }
  if (c.inputs.length >= c.limits.maxObjectsPerFile) return refuse(c, c.inputs.length + 1, doc);
  c.inputs.push({ object: withNamespace(redactSecret(obj), c.namespace), origin: { source: 'file', file: c.file, doc } });
}

function refuse(c: Collector, count: number, doc: number): void {
  c.overLimit = true;
  c.errors.unshift({
    severity: 'error',
    message: `too many objects: at least ${count} in this file, over the limit of ${c.limits.maxObjectsPerFile} per file; the file is not loaded (split it into several files)`,
    file: c.file,
    doc,
  });
}

/** The object with `metadata.namespace` defaulted (cluster-scoped kinds and malformed metadata untouched). */
export function withNamespace(obj: RawObject, namespace: string | undefined): RawObject {
  if (typeof obj.kind === 'string' && CLUSTER_SCOPED_KINDS.has(obj.kind)) return obj;
  const md = obj.metadata;
  if (md !== undefined && (typeof md !== 'object' || md === null || Array.isArray(md))) return obj; // reported by the parser
  const meta = (md ?? {}) as Record<string, unknown>;
  if (typeof meta.namespace === 'string' && meta.namespace !== '') return obj;
  return { ...obj, metadata: { ...meta, namespace: namespace ?? 'default' } };
}
