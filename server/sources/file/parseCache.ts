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
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

const FORMAT = 'meshscope-plain-yaml-1';
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

export function parseCache(opts: ParseCacheOptions): PlainYamlReader {
  const minChars = opts.minChars ?? 64 * 1024;
  const maxEntries = opts.maxEntries ?? 64;
  const salt = `${FORMAT}\0js-yaml ${parserVersion()}\0`;
  const prune = () => {
    const entries = readdirSync(opts.dir)
      .filter((f) => f.endsWith(SUFFIX))
      .map((f) => ({ f, at: statSync(join(opts.dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { f } of entries.slice(maxEntries)) rmSync(join(opts.dir, f), { force: true });
  };
  return (text, parse) => {
    if (text.length < minChars) return parse(text);
    const key = createHash('sha256').update(salt).update(text).digest('hex');
    const file = join(opts.dir, `${key}${SUFFIX}`);
    try {
      const stored = deserialize(readFileSync(file)) as { key?: unknown; values?: unknown };
      if (stored.key === key && Array.isArray(stored.values)) return stored.values;
      rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(file, { force: true });
    }
    const values = parse(text);
    if (values === undefined) return undefined;
    try {
      mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, serialize({ key, values }), { mode: 0o600 });
      renameSync(tmp, file);
      prune();
    } catch {
      // A cache that cannot be written (read-only home, full disk) only costs speed.
    }
    return values;
  };
}

/** The CLI's reader: the cache the environment asks for, or plain parsing when it is off. */
export function cliPlainYamlReader(env: Record<string, string | undefined> = process.env): PlainYamlReader | undefined {
  const dir = parseCacheDir(env);
  return dir ? parseCache({ dir }) : undefined;
}
