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
/** A text below this size is parsed on this thread whatever the total (its pieces are too few to share). */
export const PARSE_POOL_MIN_FILE_BYTES = 64 * 1024;
/** A job's time budget (ms): a job is ~JOB_CHARS of YAML, ~0.1–0.3 s of work. */
const JOB_BUDGET_MS = 30_000;

export interface ParsePoolSettings {
  workers: number;
  minBytes: number;
}

/**
 * MESHSCOPE_PARSE_WORKERS (default 0 = off; 1–4 worker threads) and MESHSCOPE_PARSE_POOL_MIN_BYTES (default
 * 1 MiB); undefined when off. Off by default: on the 2-core machine it was measured on, the second core was
 * never idle and the pool cost 0.4–1.5 s more CPU per load than it saved in wall time (docs/perf/issue24-5x.md,
 * "The second core: a parse pool"); a machine with cores to spare turns it on.
 */
export function parsePoolSettings(env: Record<string, string | undefined> = process.env): ParsePoolSettings | undefined {
  const int = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined);
  const workers = Math.min(4, int(env.MESHSCOPE_PARSE_WORKERS) ?? 0, Math.max(1, availableParallelism() - 1));
  if (workers <= 0) return undefined;
  return { workers, minBytes: int(env.MESHSCOPE_PARSE_POOL_MIN_BYTES) ?? PARSE_POOL_MIN_BYTES };
}

export function createParsePool(file: string, settings: ParsePoolSettings): ParsePool {
  return new WorkerPool<PieceJob, PieceResult[]>({ file, workers: settings.workers, budgetMs: JOB_BUDGET_MS, memoryMb: 1024 });
}

/**
 * The server's parse pool (the runtime singleton owns it and closes it on stop), or undefined when off: only
 * under `meshscope serve` (MESHSCOPE_ROOT set: the bin brought dist/cli up to date before starting), with the
 * worker file there. Under `next dev` and in tests, files are parsed in-thread as before.
 */
export function serveParsePool(env: Record<string, string | undefined> = process.env): { pool: ParsePool; minBytes: number } | undefined {
  const settings = parsePoolSettings(env);
  const root = env.MESHSCOPE_ROOT;
  if (!settings || !root) return undefined;
  const file = join(root, 'dist', 'cli', 'parseWorker.mjs');
  if (!existsSync(file)) return undefined;
  return { pool: createParsePool(file, settings), minBytes: settings.minBytes };
}
