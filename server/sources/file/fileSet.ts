// The file source's memory of every file: its stat, content hash, parse result and last good objects.
// A scan re-reads only files whose stat changed (or every file when forced) and re-parses only those whose
// content hash changed, so one edit costs one parse. A file that stops parsing (syntax error, an object
// without identity, unreadable, over a limit) keeps serving its last good objects, each reported as
// "stale: last good from <time>" next to the located error; documents that still parse use their new objects.
import { createHash } from 'node:crypto';
import { readFile as readFileCb } from 'node:fs';
import { stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { promisify } from 'node:util';
import type { LoadError } from '../../model/mesh';
import { hasIdentity } from '../../model/parse/objects';
import { rawKey } from '../storeKeys';
import type { RawInput } from '../types';
import { expandPaths, sizeError } from './loadPaths';
import { type DocMemo, type Narrowed, parseNarrowed } from './docChunks';
import { ReadBuffers } from './readBuffers';
import { DEFAULT_FILE_LIMITS, type FileLimits, type LoadResult, parseTextAsync } from './parseFile';

interface FileEntry {
  sig: string;
  /** SHA-256 of its bytes; not kept for a file narrowed by document (its bytes are, in `docs`). */
  hash?: string;
  result: LoadResult;
  /** Its bytes and their documents (and List items) parsed one by one: an edit re-parses only the ones that changed (./docChunks). */
  docs?: DocMemo;
  /** The file's objects the last time it loaded without error, and when. */
  good?: { inputs: RawInput[]; at: string };
  /**
   * The last objects found all with identity: an input at the same index of the next result that is the same
   * object is not checked again (an edit of one document of a narrowed file keeps the other objects and places).
   */
  identified?: readonly RawInput[];
}

/** A listed file's last load: its parse result, read errors, and what it contributed to the scan (reused while unchanged). */
interface Outcome {
  result: LoadResult | undefined;
  errors: LoadError[];
  contributed?: { result: LoadResult | undefined; good: FileEntry['good']; inputs: RawInput[]; errors: LoadError[] };
}

export interface ScanResult {
  inputs: RawInput[];
  errors: LoadError[];
  /** Files read and parsed anew in this scan. */
  parsed: number;
  /** Documents and List items parsed anew in this scan, in files narrowed by document (./docChunks). */
  pieces: number;
  files: number;
}

export interface FileSetOptions {
  namespace?: string;
  limits?: FileLimits;
  now?: () => Date;
  /** A file parsed in the background (see scan's `background`) has its new result: scan it again. */
  onBackgroundParsed?: (file: string) => void;
  /** Files at least this big are read into reused buffers (./readBuffers; default REUSE_READ_BYTES). */
  reuseReadBytes?: number;
  /**
   * A file's first load by document (no memo yet: the first scan, a whole-file reload), e.g. on a parse
   * worker and this thread together (./pooledLoad poolFirstLoad); default docChunks parseNarrowed in-thread.
   * It must give what parseNarrowed gives. Edits of a narrowed file never go through it.
   */
  firstLoad?: FirstLoad;
}

/** parseNarrowed's first load of `bytes` (`text`: them decoded). */
export type FirstLoad = (
  bytes: Buffer,
  text: string,
  file: string,
  namespace: string | undefined,
  limits: FileLimits,
) => Promise<Narrowed | undefined>;

const inThread: FirstLoad = (bytes, text, file, namespace, limits) => parseNarrowed(bytes, file, namespace, limits, undefined, text);

/**
 * Files at least this big are parsed in the background by a `background` scan: the scan goes on with the
 * file's previous state (a new file: nothing yet) instead of waiting, so a big or refused file never holds up
 * an edit to the others (issue #25); onBackgroundParsed asks for the scan that picks the result up.
 */
export const BACKGROUND_PARSE_BYTES = 512 * 1024;

/** A background parse: the content it is reading, and the newest content waiting for it to finish. */
interface Parsing {
  hash: string;
  next?: { sig: string; hash: string; bytes: Buffer; text: string };
}

/** A listed file's objects in a scan's output: from `at`, `n` of them; `errors`: the errors it added there. */
interface Span {
  at: number;
  n: number;
  errors: number;
}

/**
 * A whole file's bytes through fs.readFile's callback form: fs/promises' readFile reads a big file in 512 KiB
 * chunks, one promise turn each, and took 4–60 ms for the 13 MB Pod export where this takes 3–4 ms (Node 20).
 */
const readFile = promisify(readFileCb);

const code = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? String(e);

export class FileSet {
  private readonly entries = new Map<string, FileEntry>();
  /** The last full listing, and each listed file's last load outcome (for scans of only the changed files). */
  private listing: { files: string[]; errors: LoadError[] } | undefined;
  private readonly outcomes = new Map<string, Outcome>();
  private readonly limits: FileLimits;
  private readonly now: () => Date;
  /** The directories of the last full listing (what the file source watches). */
  private dirs: readonly string[] = [];
  private readonly parsing = new Map<string, Parsing>();
  private readonly buffers: ReadBuffers;

  constructor(
    private readonly paths: readonly string[],
    private readonly opts: FileSetOptions = {},
  ) {
    this.limits = opts.limits ?? DEFAULT_FILE_LIMITS;
    this.now = opts.now ?? (() => new Date());
    this.buffers = new ReadBuffers(opts.reuseReadBytes);
  }

  /** The directories walked by the last full scan (the configured directories and every directory under them). */
  directories(): readonly string[] {
    return this.dirs;
  }

  /** Whether `file` was in the last full listing (an in-place change of it needs only that file re-read). */
  has(file: string): boolean {
    return this.outcomes.has(file);
  }

  /**
   * Lists, stats and (where changed) reads and parses every file. `force` re-reads and re-hashes every file.
   * `only` (files the watcher reported as changed in place) skips the directory walk and the other files'
   * stats: the last listing and their last outcomes are reused.
   */
  async scan(force = false, only?: ReadonlySet<string>, background = false): Promise<ScanResult> {
    if (only && this.listing && !force && [...only].every((f) => this.outcomes.has(f)))
      return this.rescanOnly(only, this.listing, background);
    const listing = expandPaths(this.paths);
    this.dirs = listing.dirs;
    const { files, errors: walkErrors } = listing;
    const inputs: RawInput[] = [];
    const errors: LoadError[] = [...walkErrors];
    let parsed = 0;
    const listed = new Set(files);
    // Files under a directory that could not be walked keep their last good objects.
    const unreadableDirs = walkErrors.map((e) => e.file ?? '').filter((f) => f !== '');
    for (const [path, entry] of this.entries) {
      if (listed.has(path)) continue;
      if (unreadableDirs.some((d) => path.startsWith(d + sep)) && entry.good) {
        listed.add(path);
        files.push(path);
      } else {
        this.entries.delete(path);
        this.buffers.forget(path);
      }
    }
    files.sort();
    this.listing = { files: files.slice(), errors: listing.errors };
    const before = new Map(this.outcomes);
    this.outcomes.clear();
    const spans = new Map<string, Span>();
    for (const file of files) {
      const own: LoadError[] = [];
      const { result, fresh } = await this.load(file, force, own, background);
      // The last contribution is kept: contributeOnce() reuses it only while result and good objects are the same.
      const contributed = before.get(file)?.contributed;
      const outcome: Outcome = { result, errors: own, ...(contributed ? { contributed } : {}) };
      this.outcomes.set(file, outcome);
      if (fresh) parsed++;
      for (const e of own) errors.push(e);
      this.contributeSpan(file, outcome, inputs, errors, spans);
    }
    this.last = { listing: this.listing, inputs, errors, spans };
    return { inputs: inputs.slice(), errors: errors.slice(), parsed, files: files.length, pieces: this.takePieces() };
  }

  private pieces = 0;
  /** The last scan's output (kept, never handed out: callers get copies) and each file's place in it. */
  private last:
    | { listing: { files: string[]; errors: LoadError[] }; inputs: RawInput[]; errors: LoadError[]; spans: Map<string, Span> }
    | undefined;
  private takePieces(): number {
    const n = this.pieces;
    this.pieces = 0;
    return n;
  }

  private async rescanOnly(
    only: ReadonlySet<string>,
    listing: { files: string[]; errors: LoadError[] },
    background: boolean,
  ): Promise<ScanResult> {
    const patched = await this.patchLast(only, listing, background);
    if (patched.result) return patched.result;
    const inputs: RawInput[] = [];
    const errors: LoadError[] = [...listing.errors];
    let parsed = patched.parsed;
    const spans = new Map<string, Span>();
    for (const file of listing.files) {
      let outcome = this.outcomes.get(file);
      if ((only.has(file) && !patched.loaded.has(file)) || !outcome) {
        const own: LoadError[] = [];
        const { result, fresh } = await this.load(file, false, own, background);
        outcome = { result, errors: own };
        this.outcomes.set(file, outcome);
        if (fresh) parsed++;
      }
      for (const e of outcome.errors) errors.push(e);
      this.contributeSpan(file, outcome, inputs, errors, spans);
    }
    this.last = { listing, inputs, errors, spans };
    return { inputs: inputs.slice(), errors: errors.slice(), parsed, files: listing.files.length, pieces: this.takePieces() };
  }

  /**
   * rescanOnly's answer made from the last scan's output: the changed files' objects swapped in at their places,
   * when each of them had and has no error and keeps its object count (one edited document of a file, or one of
   * 35,000 one-object files: the other files are not walked again). No `result` when that is not the case: then
   * `loaded` are the changed files it loaded already (their outcomes are recorded), `parsed` how many were parsed.
   */
  private async patchLast(
    only: ReadonlySet<string>,
    listing: { files: string[]; errors: LoadError[] },
    background: boolean,
  ): Promise<{ result?: ScanResult; loaded: Set<string>; parsed: number }> {
    const last = this.last;
    const loaded = new Set<string>();
    let parsed = 0;
    if (!last || last.listing !== listing) return { loaded, parsed };
    const swaps: Array<{ at: number; inputs: readonly RawInput[] }> = [];
    for (const file of only) {
      const span = last.spans.get(file);
      const before = this.outcomes.get(file);
      if (!span || !before || before.errors.length > 0 || span.errors > 0) return { loaded, parsed };
      loaded.add(file);
      const own: LoadError[] = [];
      const { result, fresh } = await this.load(file, false, own, background);
      const outcome: Outcome = { result, errors: own };
      this.outcomes.set(file, outcome);
      if (fresh) parsed++;
      const contributed: { inputs: RawInput[]; errors: LoadError[] } = { inputs: [], errors: [] };
      this.contributeOnce(file, outcome, contributed.inputs, contributed.errors);
      if (own.length > 0 || contributed.errors.length > 0 || contributed.inputs.length !== span.n) return { loaded, parsed };
      swaps.push({ at: span.at, inputs: contributed.inputs });
    }
    // The last output is never handed out (callers get copies): patched in place, then copied once.
    const inputs = last.inputs;
    for (const { at, inputs: list } of swaps) for (let k = 0; k < list.length; k++) inputs[at + k] = list[k]!;
    const result = { inputs: inputs.slice(), errors: last.errors.slice(), parsed, files: listing.files.length, pieces: this.takePieces() };
    return { result, loaded, parsed };
  }

  /** contributeOnce, recording where the file's objects went in `inputs` and how many errors it added. */
  private contributeSpan(file: string, outcome: Outcome, inputs: RawInput[], errors: LoadError[], spans: Map<string, Span>): void {
    const at = inputs.length;
    const e0 = errors.length;
    this.contributeOnce(file, outcome, inputs, errors);
    spans.set(file, { at, n: inputs.length - at, errors: errors.length - e0 + outcome.errors.length });
  }

  /** The file's current parse result: cached when its stat and content are unchanged. */
  private async load(
    file: string,
    force: boolean,
    errors: LoadError[],
    background = false,
  ): Promise<{ result: LoadResult | undefined; fresh: boolean }> {
    const entry = this.entries.get(file);
    let sig: string;
    try {
      const s = await stat(file);
      sig = `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
      const tooBig = sizeError(file, s.size, this.limits);
      if (tooBig) {
        errors.push(tooBig);
        return { result: undefined, fresh: false };
      }
      if (!force && entry && entry.sig === sig) return { result: entry.result, fresh: false };
      // A big file is read into a buffer already paged in (./readBuffers), given back below when its bytes are not kept.
      const bytes = (this.buffers.wants(s.size) ? await this.buffers.read(file, s.size) : undefined) ?? (await readFile(file));
      const ns = this.opts.namespace;
      if (entry?.docs) {
        // A multi-document file or List parsed by document before: its bytes are compared with the last load's
        // and only the documents (items) around the bytes that differ are cut and parsed again (./docChunks); the
        // rest is never decoded or hashed, so this is cheap enough to do in the scan even for a big file.
        const n = await parseNarrowed(bytes, file, ns, this.limits, entry.docs);
        if (n?.unchanged) {
          entry.sig = sig;
          this.buffers.unused(file, bytes);
          return { result: entry.result, fresh: false };
        }
        if (n) {
          this.pieces += n.parsedPieces;
          const next: FileEntry = { sig, result: n.result, docs: n.memo };
          if (entry.good) next.good = entry.good;
          if (entry.identified) next.identified = entry.identified;
          this.entries.set(file, next);
          // The last load's bytes are referred to by nothing else now (its memo is gone): their buffer is the spare.
          this.buffers.replaced(file, entry.docs.bytes, n.memo.bytes);
          return { result: n.result, fresh: true };
        }
      }
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (entry && entry.hash === hash) {
        entry.sig = sig;
        this.buffers.unused(file, bytes);
        return { result: entry.result, fresh: false };
      }
      const text = bytes.toString('utf8');
      if (background && text.length >= BACKGROUND_PARSE_BYTES) {
        this.parseInBackground(file, sig, hash, bytes, text);
        // Its previous state stays (a new file: nothing yet) until the parse is done.
        return { result: entry?.result ?? { inputs: [], errors: [] }, fresh: false };
      }
      // A file narrowed before whose edit could not be narrowed is parsed whole (its errors located in the file).
      const n = entry?.docs ? undefined : await (this.opts.firstLoad ?? inThread)(bytes, text, file, ns, this.limits);
      if (n) this.pieces += n.parsedPieces;
      const result = n?.result ?? (await parseTextAsync(text, file, ns, this.limits));
      const next: FileEntry = { sig, result, ...(n ? { docs: n.memo } : { hash }) };
      if (entry?.good) next.good = entry.good;
      this.entries.set(file, next);
      if (n) this.buffers.replaced(file, undefined, n.memo.bytes);
      else this.buffers.forget(file);
      return { result, fresh: true };
    } catch (e) {
      const c = code(e);
      errors.push({ severity: 'error', message: `cannot read ${file}: ${c === 'ELOOP' ? 'symlink loop' : c}`, file });
      return { result: undefined, fresh: false };
    }
  }

  /** Parses `text` off the scan; one parse per file at a time, the newest content parsed next. */
  private parseInBackground(file: string, sig: string, hash: string, bytes: Buffer, text: string): void {
    const cur = this.parsing.get(file);
    if (cur) {
      if (cur.hash !== hash) cur.next = { sig, hash, bytes, text };
      else delete cur.next;
      return;
    }
    const state: Parsing = { hash };
    this.parsing.set(file, state);
    const parse = async (): Promise<{ result: LoadResult; memo?: DocMemo }> =>
      (await (this.opts.firstLoad ?? inThread)(bytes, text, file, this.opts.namespace, this.limits)) ?? {
        result: await parseTextAsync(text, file, this.opts.namespace, this.limits),
      };
    void parse().then(
      ({ result, memo }) => {
        const prev = this.entries.get(file);
        const next: FileEntry = { sig, result, ...(memo ? { docs: memo } : { hash }) };
        if (prev?.good) next.good = prev.good;
        this.entries.set(file, next);
        if (memo) this.buffers.replaced(file, undefined, memo.bytes);
        else this.buffers.forget(file);
        this.parsing.delete(file);
        if (state.next) this.parseInBackground(file, state.next.sig, state.next.hash, state.next.bytes, state.next.text);
        else this.opts.onBackgroundParsed?.(file);
      },
      () => this.parsing.delete(file), // parseTextAsync never throws; a bug still frees the slot
    );
  }

  /** contribute(), reusing the file's last contribution while its parse result and last good objects are the same. */
  private contributeOnce(file: string, outcome: Outcome, inputs: RawInput[], errors: LoadError[]): void {
    let c = outcome.contributed;
    if (!c || c.result !== outcome.result || c.good !== this.entries.get(file)?.good) {
      const own: { inputs: RawInput[]; errors: LoadError[] } = { inputs: [], errors: [] };
      this.contribute(file, outcome.result, own.inputs, own.errors);
      // contribute() records the file's good objects first: the state this contribution is valid for.
      c = outcome.contributed = { result: outcome.result, good: this.entries.get(file)?.good, ...own };
    }
    for (const i of c.inputs) inputs.push(i);
    for (const e of c.errors) errors.push(e);
  }

  /**
   * Adds the file's objects and errors to the scan's output. When documents fail (syntax error, an object
   * without identity), the last good objects that came from those documents (matched by document index;
   * a failing last document counts for every document after it) are added too, marked stale;
   * when the whole file fails (unreadable, over a limit), all its last good objects are.
   */
  private contribute(file: string, result: LoadResult | undefined, inputs: RawInput[], errors: LoadError[]): void {
    const entry = this.entries.get(file);
    const current = result?.inputs ?? [];
    if (result) for (const e of result.errors) errors.push(e);
    let whole = !result || result.refused === true;
    const failedDocs = new Set<number>();
    for (const e of result?.errors ?? []) {
      if (e.severity !== 'error') continue;
      if (e.doc === undefined) whole = true;
      else failedDocs.add(e.doc);
    }
    const known = entry?.identified;
    let anonymous = false;
    for (let k = 0; k < current.length; k++) {
      const i = current[k]!;
      inputs.push(i);
      if ((known !== undefined && known[k] === i) || hasIdentity(i.object)) continue;
      anonymous = true;
      if (i.origin.doc !== undefined) failedDocs.add(i.origin.doc);
      else whole = true;
    }
    if (entry) {
      if (anonymous) delete entry.identified;
      else entry.identified = current;
    }
    if (!whole && failedDocs.size === 0) {
      if (entry && (!entry.good || entry.good.inputs !== current)) entry.good = { inputs: current, at: this.now().toISOString() };
      return;
    }
    const good = entry?.good;
    if (!good) return;
    // Keys are made only here (a file with errors): a clean 10,000-object file is not keyed on every edit.
    const present = new Set<string>();
    for (const i of current) {
      const k = rawKey(i.object);
      if (k !== undefined) present.add(k);
    }
    // A failing last document may have swallowed the ones that followed it: they count as failing too.
    const last = (result?.docs ?? 1) - 1;
    const tail = failedDocs.has(last) ? last : Number.POSITIVE_INFINITY;
    for (const i of good.inputs) {
      const k = rawKey(i.object);
      if (k === undefined || present.has(k)) continue;
      if (!whole && !(i.origin.doc !== undefined && (failedDocs.has(i.origin.doc) || i.origin.doc >= tail))) continue;
      inputs.push(i);
      errors.push(staleMarker(i, good.at));
    }
  }
}

function staleMarker(input: RawInput, at: string): LoadError {
  const md = (input.object.metadata ?? {}) as Record<string, unknown>;
  const e: LoadError = {
    severity: 'warning',
    message: `stale: last good from ${at} (the file has errors; its last good version of this object is served)`,
    object: `${String(input.object.kind)} ${md.namespace ? `${String(md.namespace)}/` : ''}${String(md.name)}`,
    staleSince: at,
  };
  if (input.origin.file !== undefined) e.file = input.origin.file;
  if (input.origin.doc !== undefined) e.doc = input.origin.doc;
  return e;
}
