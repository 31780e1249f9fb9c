// CLI input loading: --config paths (files, dirs, `-` for stdin) → one MeshSnapshot, errors printed located.
import { buildSnapshot } from '../model/snapshot';
import type { LoadError, MeshSnapshot } from '../model/mesh';
import type { MeshConfigOverride } from '../model/parse/meshSource';
import { addLines, type ReadText, readTextFile } from '../sources/file/lines';
import { loadPaths, type ResultReader, STDIN_FILE } from '../sources/file/loadPaths';
import { cliPlainYamlReader } from '../sources/file/parseCache';
import { cliParsedFileCache } from './parsedCache';
import { cliMeshCache, type MeshCache } from './meshCache';
import type { EarlyParse } from './earlyParse';
import { PreParsedCache } from './pooledParse';
import type { RawInput } from '../sources/types';
import type { ArchiveContents } from '../archive/read';

export interface LoadedMesh {
  snapshot: MeshSnapshot;
  errors: readonly LoadError[];
  /**
   * The raw inputs the snapshot was built from (what `meshscope diff` overlays a draft on). Whole only with
   * loadMesh's `rawInputs`; else the objects of files read from the cache of validated files are thin (their
   * identity only: server/cli/parsedCache.ts), and none when the snapshot came from the cache of built
   * snapshots (server/cli/meshCache.ts).
   */
  inputs: readonly RawInput[];
  /** Reads a --config file's text again (stdin: the text already read), to locate problems at their line. */
  readText: ReadText;
  /** `--bug-report FILE|DIR`: the opened archive (its pods' dumps feed `drift`). */
  archive?: ArchiveContents;
}

export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function loadMesh(
  paths: readonly string[],
  opts: {
    namespace?: string;
    stdin?: () => Promise<string>;
    meshConfig?: MeshConfigOverride;
    bugReport?: string;
    ambient?: boolean;
    /** `inputs` must be the raw objects whole (diff, check): the cache of validated files is not used. */
    rawInputs?: boolean;
    /** The parse worker main() started for these --config paths (./earlyParse). */
    early?: EarlyParse;
    /** The cache of built snapshots (default: the CLI's, ./meshCache; none when run from the sources). */
    meshCache?: MeshCache;
  } = {},
): Promise<LoadedMesh> {
  const stdin = paths.includes('-') ? await (opts.stdin ?? (() => readStdin()))() : undefined;
  const namespace = opts.namespace ? opts.namespace : undefined;
  const archiveTexts = new Map<string, string>();
  const readText: ReadText = (file) => (file === STDIN_FILE ? stdin : (archiveTexts.get(file) ?? readTextFile(file)));
  // The same files (bytes), flags and build as a run before: its snapshot, read back whole (./meshCache).
  const meshCache = opts.rawInputs || opts.bugReport !== undefined || stdin !== undefined ? undefined : (opts.meshCache ?? cliMeshCache());
  const cached = meshCache?.lookup({
    paths,
    ...(namespace ? { namespace } : {}),
    ...(opts.meshConfig ? { meshConfig: opts.meshConfig } : {}),
    ...(opts.ambient ? { ambient: true } : {}),
  });
  if (cached?.hit) return { snapshot: cached.hit, errors: addLines(cached.hit.errors, readText), inputs: [], readText };
  const readPlain = cliPlainYamlReader();
  // Big files the CLI read before come from the parse cache (MESHSCOPE_PARSE_CACHE=0: off): their YAML, and
  // under the same build their validated objects too (./parsedCache).
  const parsedFiles = opts.rawInputs ? undefined : cliParsedFileCache();
  // Big files no cache answers: parsed and validated on a worker thread and this one together, started by
  // main() before the command loaded (./earlyParse, ./pooledParse).
  const pooled = await opts.early?.take(paths, namespace);
  // The cache of validated files first (a hit skips everything); its misses are loaded by the pool's reader
  // (a pooled result, else the in-thread parse) and stored by save().
  const pooledRead = pooled?.reader();
  const cachedRead: ResultReader | undefined =
    parsedFiles && pooledRead
      ? (file, text, ns, load) => parsedFiles.readResult(file, text, ns, () => pooledRead(file, text, ns, load))
      : (parsedFiles?.readResult ?? pooledRead);
  // The texts the snapshot is built from, for the cache of built snapshots to check against what it hashed.
  const texts = new Map<string, string>();
  const readResult: ResultReader | undefined = cached
    ? (file, text, ns, load) => {
        texts.set(file, text);
        return cachedRead ? cachedRead(file, text, ns, load) : load();
      }
    : cachedRead;
  if (pooled) parsedFiles?.provide(pooled.parsed);
  const loaded = await loadPaths([...paths], {
    ...(namespace ? { namespace } : {}),
    ...(stdin !== undefined ? { stdin } : {}),
    ...(readPlain ? { readPlain } : {}),
    ...(readResult ? { readResult } : {}),
  });
  // `--bug-report`: the archive's cluster objects join the inputs (loaded on demand: the reader and its tar
  // library stay out of the chunks of commands that do not use it). Throws ArchiveError when unusable.
  let archive: ArchiveContents | undefined;
  if (opts.bugReport !== undefined) {
    const { readArchive, archiveInputs } = await import('../archive/index');
    archive = await readArchive(opts.bugReport);
    const fromArchive = archiveInputs(archive, opts.namespace);
    loaded.inputs.push(...fromArchive.inputs);
    loaded.errors.push(...fromArchive.errors);
    for (const f of archive.files) archiveTexts.set(`${archive.source}:${f.path}`, f.text);
  }
  const snapshot = buildSnapshot(loaded.inputs, {
    version: 1,
    extraErrors: loaded.errors,
    ...(opts.meshConfig ? { meshConfig: opts.meshConfig } : {}),
    ...(opts.ambient ? { ambient: true } : {}),
    ...(parsedFiles ? { cache: parsedFiles } : pooled ? { cache: new PreParsedCache(pooled.parsed) } : {}),
  });
  parsedFiles?.save();
  cached?.store(snapshot, texts);
  return { snapshot, errors: addLines(snapshot.errors, readText), inputs: loaded.inputs, readText, ...(archive ? { archive } : {}) };
}

/** Whether anything the mesh model knows about was loaded (else the CLI exits non-zero). */
export function hasUsableInput(s: MeshSnapshot): boolean {
  return (
    s.services.length +
      s.pods.length +
      s.proxies.length +
      s.virtualServices.length +
      s.destinationRules.length +
      s.gateways.length +
      s.serviceEntries.length +
      s.sidecars.length +
      s.peerAuthentications.length +
      s.authorizationPolicies.length +
      s.workloadEntries.length +
      (s.envoyFilters?.length ?? 0) +
      (s.rejectedConfigs?.length ?? 0) +
      [...s.namespaces.values()].filter((n) => n.declared).length >
    0
  );
}
