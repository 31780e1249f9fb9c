// The CLI's cache of validated files (issue #24): a big file the CLI read before, with the same text, name
// and namespace, under the same build, comes back with its load result (raw inputs, located errors) AND each
// input's validated, typed object (parseOne's ParsedOne), so neither js-yaml nor zod runs on it again. On the
// 1,000-service export the validation of 5,144 objects was ~0.4 s of every warm run.
// - Sound for the same reason the server's SnapshotCache is: parseOne is a pure function of the raw input
//   (and of its position only through a synthetic creation time, which `restamp` rewrites), and a snapshot
//   build never mutates a ParsedOne, so a stored one is what parsing would return now. The key names the
//   build (cliBuildId: a new bundle never trusts an old entry), the file, the namespace and the text's hash.
// - An entry that cannot be read back, or does not match its file's inputs, is ignored (and removed); a
//   cache that cannot be written only costs speed.
// - The raw inputs of a stored file are kept thin: what a build reads of them besides parseOne (their identity:
//   apiVersion, kind, metadata name and namespace, for the store key, duplicate and unknown-kind messages), the
//   mesh ConfigMap whole. Half of what was read back was the raw Pods; the commands that hand raw inputs on
//   (diff, check: the sandbox overlays a draft on them) do not use this cache (loadMesh's `rawInputs`).
// - Off with the parse cache (MESHSCOPE_PARSE_CACHE=0), and when run from the TypeScript sources (no build id).
import { SnapshotCache } from '../model/snapshotCache';
import { type ParsedOne, parseOne, restamp } from '../model/parse/objects';
import type { ResultReader } from '../sources/file/loadPaths';
import type { LoadResult } from '../sources/file/parseFile';
import { cliBuildId, parseCacheDir, type ResultCache, resultCache } from '../sources/file/parseCache';
import type { RawInput, RawObject } from '../sources/types';

/** The raw input as a build reads it once its ParsedOne is known (see above); the ConfigMap (mesh config) whole. */
export function thinInput(input: RawInput): RawInput {
  const o = input.object;
  const md = o.metadata;
  if (o.kind === 'ConfigMap' || md === null || typeof md !== 'object' || Array.isArray(md)) return input;
  const m = md as Record<string, unknown>;
  const metadata: Record<string, unknown> = {};
  if ('name' in m) metadata.name = m.name;
  if ('namespace' in m) metadata.namespace = m.namespace;
  const object: RawObject = { metadata };
  if ('apiVersion' in o) object.apiVersion = o.apiVersion;
  if ('kind' in o) object.kind = o.kind;
  return { object, origin: input.origin };
}

/** What is stored per file: its load result (thin inputs) and, in the same order as its inputs, their ParsedOnes. */
export interface StoredFile {
  result: LoadResult;
  parsed: ParsedOne[];
}

const isStoredFile = (v: unknown): v is StoredFile => {
  const s = v as StoredFile;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.result === 'object' &&
    s.result !== null &&
    Array.isArray(s.result.inputs) &&
    Array.isArray(s.result.errors) &&
    Array.isArray(s.parsed) &&
    s.parsed.length === s.result.inputs.length &&
    s.parsed.every((p) => typeof p === 'object' && p !== null && Array.isArray(p.errors))
  );
};

/**
 * A SnapshotCache for one CLI build whose `parse` answers from the files read through `readResult`; `save()`
 * then stores the files that were not in the cache, with the ParsedOnes the build computed.
 */
export class ParsedFileCache extends SnapshotCache {
  private readonly stored = new Map<RawInput, ParsedOne>();
  private readonly computed = new Map<RawInput, ParsedOne>();
  private readonly misses: { file: string; text: string; namespace: string | undefined; result: LoadResult }[] = [];
  /** Files answered from the cache (for tests and the bench). */
  hits = 0;

  constructor(private readonly cache: ResultCache<StoredFile>) {
    super();
  }

  readonly readResult: ResultReader = (file, text, namespace, load) => {
    const hit = this.cache.get(file, text, namespace);
    if (hit) {
      this.hits++;
      hit.result.inputs.forEach((input, i) => this.stored.set(input, hit.parsed[i]!));
      return hit.result;
    }
    const result = load();
    this.misses.push({ file, text, namespace, result });
    return result;
  };

  /** Whether `text` read as `file` has an entry (a parse worker then leaves it alone: ./pooledParse). */
  has(file: string, text: string, namespace: string | undefined): boolean {
    return this.cache.has(file, text, namespace);
  }

  /** ParsedOnes computed elsewhere (a parse worker: ./pooledParse), used by parse() and stored by save(). */
  provide(parsed: ReadonlyMap<RawInput, ParsedOne>): void {
    for (const [input, one] of parsed) {
      this.stored.set(input, one);
      this.computed.set(input, one);
    }
  }

  override readonly parse = (input: RawInput, index: number): ParsedOne => {
    const hit = this.stored.get(input);
    if (hit) return restamp(hit, index);
    const one = parseOne(input, index);
    this.computed.set(input, one);
    return one;
  };

  /** Stores every file read since the last save that was not in the cache. */
  save(): void {
    for (const { file, text, namespace, result } of this.misses.splice(0)) {
      // An input the build did not parse (a duplicate the build dropped) is parsed here: the entry is whole.
      const parsed = result.inputs.map((input, i) => this.computed.get(input) ?? parseOne(input, i));
      this.cache.put(file, text, namespace, { result: { ...result, inputs: result.inputs.map(thinInput) }, parsed });
    }
  }
}

/** The CLI's cache of validated files, or undefined when the parse cache is off or there is no build id. */
export function cliParsedFileCache(
  env: Record<string, string | undefined> = process.env,
  buildId: string | undefined = cliBuildId(),
): ParsedFileCache | undefined {
  const dir = parseCacheDir(env);
  if (!dir || !buildId) return undefined;
  return new ParsedFileCache(resultCache({ dir, buildId, valid: isStoredFile }));
}
