// The CLI's cache of parsed YAML: a big file the CLI read before (a `kubectl get … -o yaml` export, a
// bug-report's Lists) is read again from a V8-serialized copy of its documents instead of being parsed
// (issue #24: on the 1,000-service export, js-yaml spends ~0.7 s of the process on the 2.4 MB Pod file;
// V8 deserialization of the same documents takes ~25 ms).
// - The key is the SHA-256 of the text itself (not its path or mtime) and the parser's version: a changed
//   file is a miss, and the same text under another name a hit. Only what the plain-YAML fast path reads is
//   cached (its values are a pure function of the text); texts that need the `yaml` parser (errors, tags,
//   block scalars) and JSON are parsed every time.
// - An entry that cannot be read back, or whose stored key differs, is a miss and is removed.
// - Bounded: texts under 64 KiB are not cached; the directory keeps at most 64 entries (oldest removed).
// - Where: MESHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/meshscope/parsed, else ~/.cache/meshscope/parsed
//   (created with mode 0700). MESHSCOPE_PARSE_CACHE=0 turns it off. The server never uses it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';

/** Reads a text's plain-YAML documents through the cache; `parse` on a miss (undefined: not plain YAML). */
export type PlainYamlReader = (text: string, parse: (text: string) => unknown[] | undefined) => unknown[] | undefined;

export interface ParseCacheOptions {
  dir: string;
  /** Smallest text cached, in characters (default 64 KiB). */
  minChars?: number;
  /** Most entries kept (default 64). */
  maxEntries?: number;
}

const FORMAT = 'meshscope-plain-yaml-2';
const RESULT_FORMAT = 'meshscope-file-result-1';
const SUFFIX = '.v8';

function parserVersion(): string {
  try {
    const req = createRequire(import.meta.url);
    return String((req('js-yaml/package.json') as { version?: string }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/** The cache directory the environment asks for, or undefined when the cache is off. */
export function parseCacheDir(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.MESHSCOPE_PARSE_CACHE === '0') return undefined;
  if (env.MESHSCOPE_CACHE_DIR) return env.MESHSCOPE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'meshscope', 'parsed');
}

/** The first byte of an entry stored as JSON (`{`); a V8 serialization starts with its version tag, 0xFF. */
const JSON_TAG = 0x7b;

/**
 * Whether JSON.parse(JSON.stringify(v)) gives `v` back exactly: plain objects (Object.prototype) and dense arrays
 * reached once each (no shared or cyclic object: JSON would copy it), strings, booleans, null and finite
 * numbers other than -0. Anything else (undefined, Map, Date, bigint, a class instance…) is kept as a V8
 * serialization, which preserves it.
 */
export function jsonSafe(v: unknown, seen: Set<object> = new Set()): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object' || seen.has(v)) return false;
  seen.add(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !jsonSafe(v[i], seen)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.getOwnPropertySymbols(v).length > 0) return false;
  for (const k of Object.keys(v)) if (!jsonSafe((v as Record<string, unknown>)[k], seen)) return false;
  return true;
}

/**
 * Serialized values on disk, one file a key (`<key>.v8`), the oldest removed beyond `maxEntries`. A value that
 * JSON keeps exactly (`jsonSafe`) is stored as JSON text: V8's JSON.parse reads the big entries (a Pod export's
 * validated objects) in about two thirds of the CPU of v8.deserialize, with less garbage; anything else is a
 * V8 serialization. The first byte says which.
 */
interface EntryStore {
  /** The value stored under `key`, or undefined (an entry that cannot be read back, or under another key, is removed). */
  get(key: string): unknown;
  put(key: string, value: unknown): void;
}

function entryStore(dir: string, maxEntries: number): EntryStore {
  const prune = () => {
    const entries = readdirSync(dir)
      .filter((f) => f.endsWith(SUFFIX))
      .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { f } of entries.slice(maxEntries)) rmSync(join(dir, f), { force: true });
  };
  return {
    get(key) {
      const file = join(dir, `${key}${SUFFIX}`);
      try {
        // Read as text first (the common case, and Node's fastest read); a V8 serialization is read again as bytes.
        const text = readFileSync(file, 'utf8');
        const stored = (text.charCodeAt(0) === JSON_TAG ? JSON.parse(text) : deserialize(readFileSync(file))) as {
          key?: unknown;
          value?: unknown;
        };
        if (stored && stored.key === key && stored.value !== undefined) return stored.value;
        rmSync(file, { force: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(file, { force: true });
      }
      return undefined;
    },
    put(key, value) {
      const file = join(dir, `${key}${SUFFIX}`);
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${file}.${process.pid}.tmp`;
        const entry = { key, value };
        writeFileSync(tmp, jsonSafe(entry) ? JSON.stringify(entry) : serialize(entry), { mode: 0o600 });
        renameSync(tmp, file);
        prune();
      } catch {
        // A cache that cannot be written (read-only home, full disk) only costs speed.
      }
    },
  };
}

export function parseCache(opts: ParseCacheOptions): PlainYamlReader {
  const minChars = opts.minChars ?? 64 * 1024;
  const store = entryStore(opts.dir, opts.maxEntries ?? 64);
  const salt = `${FORMAT}\0js-yaml ${parserVersion()}\0`;
  return (text, parse) => {
    if (text.length < minChars) return parse(text);
    const key = createHash('sha256').update(salt).update(text).digest('hex');
    const stored = store.get(key);
    if (Array.isArray(stored)) return stored;
    const values = parse(text);
    if (values !== undefined) store.put(key, values);
    return values;
  };
}

/**
 * A whole file's load result kept with what the caller derived from it (the CLI: each input's validated,
 * typed object), under one key: the text's SHA-256, the file name and namespace the inputs were read with,
 * and the build that wrote it (a new build never trusts an old entry: its validation may differ).
 */
export interface ResultCache<T> {
  /** The stored entry of `text` read as `file`, or undefined (a miss; also for texts too small to cache). */
  get(file: string, text: string, namespace: string | undefined): T | undefined;
  /** Stores `value` for `text` read as `file`; texts too small to cache are not stored. */
  put(file: string, text: string, namespace: string | undefined, value: T): void;
  /** Whether an entry for `text` read as `file` is stored (not read back: get() may still miss). */
  has(file: string, text: string, namespace: string | undefined): boolean;
}

export function resultCache<T>(opts: ParseCacheOptions & { buildId: string; valid: (v: unknown) => v is T }): ResultCache<T> {
  const minChars = opts.minChars ?? 64 * 1024;
  const store = entryStore(opts.dir, opts.maxEntries ?? 64);
  // has() then get() of the same file hash its text once (the last key per file is kept).
  const last = new Map<string, { text: string; namespace: string | undefined; key: string }>();
  const key = (file: string, text: string, namespace: string | undefined) => {
    const seen = last.get(file);
    if (seen && seen.namespace === namespace && seen.text === text) return seen.key;
    const k = createHash('sha256')
      .update(`${RESULT_FORMAT}\0${opts.buildId}\0${file}\0${namespace ?? ''}\0${namespace === undefined ? 0 : 1}\0`)
      .update(text)
      .digest('hex');
    last.set(file, { text, namespace, key: k });
    return k;
  };
  return {
    has(file, text, namespace) {
      return text.length >= minChars && existsSync(join(opts.dir, `${key(file, text, namespace)}${SUFFIX}`));
    },
    get(file, text, namespace) {
      if (text.length < minChars) return undefined;
      const v = store.get(key(file, text, namespace));
      return v !== undefined && opts.valid(v) ? v : undefined;
    },
    put(file, text, namespace, value) {
      if (text.length >= minChars) store.put(key(file, text, namespace), value);
    },
  };
}

/** The CLI's reader: the cache the environment asks for, or plain parsing when it is off. */
export function cliPlainYamlReader(env: Record<string, string | undefined> = process.env): PlainYamlReader | undefined {
  const dir = parseCacheDir(env);
  return dir ? parseCache({ dir }) : undefined;
}

declare const MESHSCOPE_BUILD_ID: string | undefined;

/**
 * The id of the running CLI build: the hash scripts/build-cli.mjs computes over the bundle it wrote (so any
 * change to any source or bundled package is a new id). Undefined when run from the TypeScript sources (tsx,
 * tests): then nothing derived from a build is cached.
 */
export function cliBuildId(): string | undefined {
  return typeof MESHSCOPE_BUILD_ID === 'string' ? MESHSCOPE_BUILD_ID : undefined;
}
