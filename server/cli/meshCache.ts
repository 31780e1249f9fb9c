// The CLI's cache of built snapshots (issue #24 goal 4): a CLI run on the same --config files (same paths, same
// bytes), with the same --namespace, --mesh-config and --ambient, under the same build, reads the MeshSnapshot the
// last such run built instead of reading each file's validated objects (./parsedCache) and building it again. On
// the 1,000-service export that was ~0.35–0.5 s of every warm run (the cache entries' JSON.parse, buildSnapshot);
// the snapshot read back is one V8 deserialization (~3.7 MB there).
// - Sound because buildSnapshot is a pure function of the raw inputs and its options, and the raw inputs are a
//   pure function of the expanded file list (paths as the origins name them) and each file's text: the key is the
//   SHA-256 of the build id, the options and, per file in order, its path and bytes. Any change to any input
//   (one byte, a file added to or removed from a directory, a renamed file) is another key. What was stored is
//   only what that build made from exactly those texts: loadMesh hands the texts loadPaths parsed to `store`,
//   which keeps nothing unless they are the bytes the key was computed from.
// - Closed by default: an entry is untrusted input. It is read only up to MAX_ENTRY_BYTES, carries the SHA-256 of
//   its payload (a truncated or altered entry is a miss and is removed), its stored key must be the key asked
//   for and its top-level shape a snapshot's; anything else is a miss and the files are read as before. What is
//   stored is plain data (objects, arrays, Maps, Sets, primitives: `plainData`), so what comes back has the shape
//   buildSnapshot gave it; it is frozen again and gets a fresh memo. That buildSnapshot makes only plain data is
//   checked by meshCache.plain.test.ts over every golden case's inputs (sidecar and ambient builds) and the CLI's
//   load of the issue-24 mesh, not walked on each store (the walk was 140–240 ms of a miss at N = 1,000).
// - Only when the files are read from disk (no stdin, no --bug-report, not for diff/check's raw inputs), only
//   for inputs of at least MIN_INPUT_BYTES, at most MAX_ENTRIES snapshots kept. Off with the parse cache
//   (MESHSCOPE_PARSE_CACHE=0) and when run from the TypeScript sources (no build id).
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { MeshSnapshot } from '../model/mesh';
import type { MeshConfigOverride } from '../model/parse/meshSource';
import { deepFreeze } from '../model/snapshot';
import { SnapshotMemo } from '../model/snapshotMemo';
import { expandPaths, sizeError } from '../sources/file/loadPaths';
import { DEFAULT_FILE_LIMITS } from '../sources/file/parseFile';
import { cliBuildId, parseCacheDir } from '../sources/file/parseCache';

const FORMAT = 'meshscope-mesh-snapshot-1';
const MAGIC = Buffer.from(`${FORMAT}\n`);
const DIGEST_BYTES = 32;
const SUFFIX = '.mesh';
/** Inputs smaller than this (in bytes, all files together) build faster than an entry is read: not cached. */
const MIN_INPUT_BYTES = 64 * 1024;
/** Largest entry read or written. */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;
/** Snapshots kept (the oldest written removed beyond this). */
const MAX_ENTRIES = 8;

export interface MeshCacheOptions {
  dir: string;
  buildId: string;
  /** Smallest input cached, in bytes (default 64 KiB). */
  minInputBytes?: number;
  /** Most snapshots kept (default 8). */
  maxEntries?: number;
}

/** What a snapshot depends on besides the files' bytes. */
export interface MeshCacheQuery {
  paths: readonly string[];
  namespace?: string;
  meshConfig?: MeshConfigOverride;
  ambient?: boolean;
}

export type MeshCacheLookup =
  /** The stored snapshot (frozen, with a fresh memo). */
  | { hit: MeshSnapshot }
  /** No entry: after building, `store` keeps the snapshot if `texts` (file → the text loadPaths parsed) are the files hashed. */
  | { hit?: undefined; store: (snapshot: MeshSnapshot, texts: ReadonlyMap<string, string>) => void }
  /** Not cacheable (stdin, a file that cannot be read, too small…): build as before. */
  | undefined;

export interface MeshCache {
  lookup(query: MeshCacheQuery): MeshCacheLookup;
}

/**
 * Whether `v` is data a V8 serialization gives back exactly: null, undefined, booleans, numbers, strings, and
 * objects whose prototype is Object.prototype, Array.prototype, Map.prototype or Set.prototype with only
 * enumerable string-keyed data properties (no accessors, symbols or functions). Shared objects are fine (a V8
 * serialization keeps identity).
 */
export function plainData(v: unknown, seen: Set<object> = new Set()): boolean {
  const t = typeof v;
  if (v === null || t === 'undefined' || t === 'boolean' || t === 'number' || t === 'string') return true;
  if (t !== 'object') return false;
  const o = v as object;
  if (seen.has(o)) return true;
  seen.add(o);
  const proto = Object.getPrototypeOf(o);
  if (proto === Map.prototype) {
    for (const [k, x] of o as Map<unknown, unknown>) if (!plainData(k, seen) || !plainData(x, seen)) return false;
    return Object.getOwnPropertyNames(o).length === 0 && Object.getOwnPropertySymbols(o).length === 0;
  }
  if (proto === Set.prototype) {
    for (const x of o as Set<unknown>) if (!plainData(x, seen)) return false;
    return Object.getOwnPropertyNames(o).length === 0 && Object.getOwnPropertySymbols(o).length === 0;
  }
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  if (Object.getOwnPropertySymbols(o).length > 0) return false;
  const descs = Object.getOwnPropertyDescriptors(o) as Record<string, PropertyDescriptor>;
  for (const k of Object.keys(descs)) {
    const d = descs[k]!;
    if (proto === Array.prototype && k === 'length') continue;
    if (!d.enumerable || !('value' in d) || !plainData(d.value, seen)) return false;
  }
  return true;
}

const isMap = (v: unknown) => v instanceof Map;
const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const ARRAYS = ['services', 'pods', 'proxies', 'virtualServices', 'destinationRules', 'gateways', 'serviceEntries', 'sidecars'] as const;
const MAPS = ['namespaces', 'servicesByHost', 'endpoints', 'proxiesById'] as const;
const OPTIONAL_ARRAYS = ['workloadEntries', 'authorizationPolicies', 'peerAuthentications', 'envoyFilters', 'rejectedConfigs'] as const;
const OPTIONAL_OBJECTS = ['secrets', 'gatewayApi', 'ambient'] as const;

/** The top-level shape of a MeshSnapshot (what was stored was one; this catches an entry that is something else). */
function snapshotShaped(v: unknown): v is MeshSnapshot {
  if (!isObject(v)) return false;
  const s = v as Record<string, unknown>;
  return (
    typeof s.version === 'number' &&
    ARRAYS.every((k) => Array.isArray(s[k])) &&
    MAPS.every((k) => isMap(s[k])) &&
    OPTIONAL_ARRAYS.every((k) => s[k] === undefined || Array.isArray(s[k])) &&
    OPTIONAL_OBJECTS.every((k) => s[k] === undefined || isObject(s[k])) &&
    Array.isArray(s.errors) &&
    isObject(s.mesh) &&
    s.memo === undefined
  );
}

/** The whole entry file; undefined when there is none, 'bad' when its size cannot be an entry's. */
function readEntry(file: string): Buffer | 'bad' | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_ENTRY_BYTES || size < MAGIC.length + DIGEST_BYTES) return 'bad';
    const buf = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, buf, at, size - at, at);
      if (n === 0) return 'bad';
      at += n;
    }
    return buf;
  } finally {
    closeSync(fd);
  }
}

export function meshCache(opts: MeshCacheOptions): MeshCache {
  const minInputBytes = opts.minInputBytes ?? MIN_INPUT_BYTES;
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  const prune = () => {
    const entries = readdirSync(opts.dir)
      .filter((f) => f.endsWith(SUFFIX))
      .map((f) => ({ f, at: statSync(join(opts.dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { f } of entries.slice(maxEntries)) rmSync(join(opts.dir, f), { force: true });
  };

  const read = (key: string): MeshSnapshot | undefined => {
    const file = join(opts.dir, `${key}${SUFFIX}`);
    let buf: Buffer | 'bad' | undefined;
    try {
      buf = readEntry(file);
    } catch {
      buf = 'bad';
    }
    if (buf === undefined) return undefined;
    if (buf !== 'bad')
      try {
        const payload = buf.subarray(MAGIC.length + DIGEST_BYTES);
        const sound =
          buf.subarray(0, MAGIC.length).equals(MAGIC) &&
          createHash('sha256')
            .update(payload)
            .digest()
            .equals(buf.subarray(MAGIC.length, MAGIC.length + DIGEST_BYTES));
        if (sound) {
          const stored = deserialize(payload) as { key?: unknown; snapshot?: unknown };
          if (isObject(stored) && stored.key === key && snapshotShaped(stored.snapshot)) {
            const snapshot = stored.snapshot as MeshSnapshot & { memo?: SnapshotMemo };
            snapshot.memo = new SnapshotMemo();
            return deepFreeze(snapshot);
          }
        }
      } catch {
        // Not a V8 serialization: removed below.
      }
    rmSync(file, { force: true });
    return undefined;
  };

  const write = (key: string, snapshot: MeshSnapshot) => {
    const { memo: _memo, ...content } = snapshot;
    if (!snapshotShaped(content)) return;
    const file = join(opts.dir, `${key}${SUFFIX}`);
    try {
      const payload = serialize({ key, snapshot: content });
      if (payload.length + MAGIC.length + DIGEST_BYTES > MAX_ENTRY_BYTES) return;
      mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.concat([MAGIC, createHash('sha256').update(payload).digest(), payload]), { mode: 0o600 });
      renameSync(tmp, file);
      prune();
    } catch {
      // A cache that cannot be written (read-only home, full disk) only costs speed.
    }
  };

  return {
    lookup(query) {
      if (query.paths.includes('-')) return undefined;
      const { files, errors } = expandPaths(query.paths);
      // Walk problems (unreadable directories, symlink loops) depend on more than the files' bytes: not cached.
      if (errors.length > 0) return undefined;
      const hash = createHash('sha256');
      hash.update(`${FORMAT}\0${opts.buildId}\0${query.namespace ?? ''}\0${query.namespace === undefined ? 0 : 1}\0`);
      hash.update(`${query.ambient === true ? 1 : 0}\0`);
      const mc = query.meshConfig;
      hash.update(mc ? `1\0${mc.file.length}:${mc.file}\0${mc.text.length}:${mc.text}\0` : '0\0');
      const bytes = new Map<string, Buffer>();
      let total = 0;
      for (const f of files) {
        let buf: Buffer;
        try {
          // Over the size limit: loadPaths reports it; not cached.
          if (sizeError(f, statSync(f).size, DEFAULT_FILE_LIMITS)) return undefined;
          buf = readFileSync(f);
        } catch {
          return undefined;
        }
        if (bytes.has(f)) return undefined; // the same file twice: the build reports the duplicates
        bytes.set(f, buf);
        total += buf.length;
        hash.update(`${f.length}:${f}\0${buf.length}\0`);
        hash.update(buf);
      }
      if (files.length === 0 || total < minInputBytes) return undefined;
      const key = hash.digest('hex');
      const hit = read(key);
      if (hit) return { hit };
      return {
        store(snapshot, texts) {
          // Only a snapshot built from exactly the texts of the bytes hashed above (a file may have changed since).
          if (texts.size !== bytes.size) return;
          for (const [f, buf] of bytes) if (texts.get(f) !== buf.toString('utf8')) return;
          write(key, snapshot);
        },
      };
    },
  };
}

/** The CLI's cache of built snapshots, or undefined when the parse cache is off or there is no build id. */
export function cliMeshCache(
  env: Record<string, string | undefined> = process.env,
  buildId: string | undefined = cliBuildId(),
): MeshCache | undefined {
  const dir = parseCacheDir(env);
  if (!dir || !buildId) return undefined;
  return meshCache({ dir, buildId });
}
