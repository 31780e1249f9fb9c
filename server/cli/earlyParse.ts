// The CLI's parse worker, started before the command's modules load (issue 24 goal 6): main() looks at the
// --config / --namespace flags, and when the files there are big enough to pay (PARSE_POOL_MIN_BYTES, a
// quick estimate from their sizes) starts the worker at once — it loads its modules while this thread loads
// the command's — then hands the paths to ./pooledParse (imported here on demand). loadMesh joins the run for
// the same paths and namespace (anything else is parsed in-thread as before). Only the bundled CLI has a
// worker file (dist/cli/parseWorker.mjs, built with it); only when MESHSCOPE_PARSE_WORKERS asks for workers (default off). The pool
// belongs to this run: close() (main's `finally`) terminates it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliBuildId } from '../sources/file/parseCache';
import { createParsePool, type ParsePool, parsePoolSettings } from '../sources/file/parsePool';
import type { PooledParse, StartedParse } from './pooledParse';

export interface EarlyParse {
  /** The pooled results when `paths` and `namespace` are the ones this run started with; else undefined. */
  take(paths: readonly string[], namespace: string | undefined): Promise<PooledParse | undefined>;
  close(): Promise<void>;
}

/** dist/cli/parseWorker.mjs beside the running bundle (this code runs from dist/cli or dist/cli/chunks), or undefined. */
export function bundledWorkerFile(): string | undefined {
  if (cliBuildId() === undefined) return undefined; // run from the TypeScript sources
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, dirname(here)]) {
    const f = join(dir, 'parseWorker.mjs');
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** Every value of `--name V`, `--name=V` and `-s V` in `argv` (lenient: a mismatch only costs the early start). */
function flagValues(argv: readonly string[], name: string, short: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith(`--${name}=`)) out.push(a.slice(name.length + 3));
    else if ((a === `--${name}` || a === `-${short}`) && argv[i + 1] !== undefined) out.push(argv[++i]!);
  }
  return out;
}

/** Bytes of YAML/JSON at `paths` (a directory: its own files), a quick estimate. */
function roughBytes(paths: readonly string[]): number {
  let n = 0;
  for (const p of paths) {
    try {
      const st = statSync(p);
      if (st.isFile()) n += st.size;
      else if (st.isDirectory())
        for (const e of readdirSync(p, { withFileTypes: true }))
          if (e.isFile() && /\.(ya?ml|json)$/i.test(e.name)) n += statSync(join(p, e.name)).size;
    } catch {
      // loadPaths reports it.
    }
  }
  return n;
}

export async function startEarlyParse(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
  workerFile: string | undefined = bundledWorkerFile(),
  log: (line: string) => void = (line) => process.stderr.write(`meshscope: ${line}\n`),
): Promise<EarlyParse | undefined> {
  const settings = parsePoolSettings(env);
  if (!settings || !workerFile) return undefined;
  const paths = flagValues(argv, 'config', 'c');
  if (paths.length === 0 || paths.includes('-') || roughBytes(paths) < settings.minBytes) return undefined;
  const namespace = flagValues(argv, 'namespace', 'n').at(-1) || undefined;
  const pool: ParsePool = createParsePool(workerFile, settings);
  pool.warm();
  let started: StartedParse | undefined;
  try {
    const { startPooledParse } = await import('./pooledParse');
    started = startPooledParse(paths, namespace, pool, settings.minBytes, log);
  } catch (e) {
    log(`parse worker not used: ${(e as Error).message}`);
  }
  if (!started) {
    await pool.close();
    return undefined;
  }
  const run = started;
  return {
    take: (p, ns) =>
      ns === run.namespace && p.length === paths.length && p.every((x, i) => x === paths[i]) ? run.finish() : Promise.resolve(undefined),
    close: () => pool.close(),
  };
}
