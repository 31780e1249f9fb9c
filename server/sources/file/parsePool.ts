// The parse pool's settings (issue 24 goal 6; what it runs: ./parseJobs, ./pooledLoad): kept apart from the
// parser so a caller can start the worker before it loads the parser itself (the CLI: ../../cli/earlyParse).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { WorkerPool } from '../../lib/workerPool';
import type { PieceJob, PieceResult } from './parseJobs';

export type ParsePool = WorkerPool<PieceJob, PieceResult[]>;

/** YAML (characters: a CLI run's big files together; one file in the server) below which no worker is used. */
export const PARSE_POOL_MIN_BYTES = 1024 * 1024;
/**
 * `meshscope serve`'s default: one file at least this big goes to the worker. Measured at serve start on 2 cores
 * (docs/perf/issue24-5x.md, session 13): a 2.4 MB Pod export loses, 4.2 MB wins 2 pairs of 3, 6.2 MB and up win every pair.
 */
export const SERVE_PARSE_POOL_MIN_BYTES = 5 * 1024 * 1024;
/** `meshscope serve`'s worker, idle this long after its last job, is terminated (its memory given back). */
export const SERVE_PARSE_POOL_IDLE_MS = 30_000;
/** A text below this size is parsed on this thread whatever the total (its pieces are too few to share). */
export const PARSE_POOL_MIN_FILE_BYTES = 64 * 1024;
/** A job's time budget (ms): a job is ~JOB_CHARS of YAML, ~0.1–0.3 s of work. */
const JOB_BUDGET_MS = 30_000;

export interface ParsePoolSettings {
  workers: number;
  minBytes: number;
}

/** What applies when the variables are unset: the CLI's (off) unless a caller says otherwise. */
export interface ParsePoolDefaults {
  workers: number;
  minBytes: number;
}

const OFF: ParsePoolDefaults = { workers: 0, minBytes: PARSE_POOL_MIN_BYTES };

/**
 * `meshscope serve`'s defaults: one worker on a machine with a second core, for files of 5 MiB and more (a
 * server starts before its clients connect, so that core is free; measured, issue24-5x.md, session 13).
 */
export const serveParsePoolDefaults = (cores = availableParallelism()): ParsePoolDefaults => ({
  workers: cores >= 2 ? 1 : 0,
  minBytes: SERVE_PARSE_POOL_MIN_BYTES,
});

/**
 * MESHSCOPE_PARSE_WORKERS (0 = off; 1–4 worker threads) and MESHSCOPE_PARSE_POOL_MIN_BYTES, each falling back to
 * `defaults`; undefined when off. The CLI's default is off: a CLI run's parse is short and the worker's start,
 * second JIT warm-up and clones cost more than they saved, also with the second core free (docs/perf/issue24-5x.md,
 * "The second core: a parse pool"). `meshscope serve` passes serveParsePoolDefaults.
 */
export function parsePoolSettings(
  env: Record<string, string | undefined> = process.env,
  defaults: ParsePoolDefaults = OFF,
): ParsePoolSettings | undefined {
  const int = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined);
  const workers = Math.min(4, int(env.MESHSCOPE_PARSE_WORKERS) ?? defaults.workers, Math.max(1, availableParallelism() - 1));
  if (workers <= 0) return undefined;
  return { workers, minBytes: int(env.MESHSCOPE_PARSE_POOL_MIN_BYTES) ?? defaults.minBytes };
}

export function createParsePool(file: string, settings: ParsePoolSettings, idleMs?: number): ParsePool {
  return new WorkerPool<PieceJob, PieceResult[]>({
    file,
    workers: settings.workers,
    budgetMs: JOB_BUDGET_MS,
    memoryMb: 1024,
    ...(idleMs !== undefined ? { idleMs } : {}),
  });
}

/**
 * The server's parse pool (the runtime singleton owns it and closes it on stop), or undefined when off: only
 * under `meshscope serve` (MESHSCOPE_ROOT set: the bin brought dist/cli up to date before starting), with the
 * worker file there; on by default with a second core (serveParsePoolDefaults). Under `next dev` and in tests,
 * files are parsed in-thread as before. The worker starts with the first file big enough for it (a server whose
 * files are all small never starts one; MESHSCOPE_PARSE_WORKERS set explicitly starts it at once, as before) and
 * is terminated after SERVE_PARSE_POOL_IDLE_MS without a job.
 */
export function serveParsePool(
  env: Record<string, string | undefined> = process.env,
  cores = availableParallelism(),
): { pool: ParsePool; minBytes: number } | undefined {
  const settings = parsePoolSettings(env, serveParsePoolDefaults(cores));
  const root = env.MESHSCOPE_ROOT;
  if (!settings || !root) return undefined;
  const file = join(root, 'dist', 'cli', 'parseWorker.mjs');
  if (!existsSync(file)) return undefined;
  const pool = createParsePool(file, settings, SERVE_PARSE_POOL_IDLE_MS);
  // Asked for explicitly: it loads its modules while the server starts, before the first scan needs it.
  if (env.MESHSCOPE_PARSE_WORKERS !== undefined) pool.warm();
  return { pool, minBytes: settings.minBytes };
}
