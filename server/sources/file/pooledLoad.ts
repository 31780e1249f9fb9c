// Big files' first loads on the second core (issue 24 goal 6; the mechanism is in ./parseJobs): the pool's
// settings, and the load of a set of texts whose pieces are parsed (and validated) by a worker thread and this
// thread together, each text then assembled by docChunks' parseNarrowed exactly as an in-thread first load.
// Only texts docChunks narrows (multi-document files, Lists) go through it, and only when there is enough
// YAML to pay for the worker (PARSE_POOL_MIN_BYTES, measured: docs/perf/issue24-5x.md, goal 6); anything else,
// and any text whose narrowed load fails (an error anywhere), is left to the caller's in-thread parse.
import type { ParsedOne } from '../../model/parse/objects';
import type { RawInput } from '../types';
import { firstLoadPieces, parseNarrowed, type DocMemo } from './docChunks';
import type { FirstLoad } from './fileSet';
import type { FileLimits, LoadResult } from './parseFile';
import { JobRun, type PieceJob, planJobs } from './parseJobs';
import { PARSE_POOL_MIN_FILE_BYTES, type ParsePool } from './parsePool';

export interface PooledLoad {
  result: LoadResult;
  memo: DocMemo;
  parsedPieces: number;
}

export interface PooledLoads {
  /** Per file whose narrowed load succeeded: its load result (as parseNarrowed gives it). */
  files: Map<string, PooledLoad>;
  /** The ParsedOne of each object of those results, at index 0 (re-stamp it: ../../model/parse/objects restamp). */
  parsed: Map<RawInput, ParsedOne>;
  jobs: { worker: number; local: number; failed: number };
}

export interface PooledRun {
  /** This thread joins the run; every planned text's narrowed load (a text whose load fails is left out). */
  finish(): Promise<PooledLoads>;
}

export interface PooledLoadOptions {
  namespace: string | undefined;
  limits: FileLimits;
  pool: ParsePool;
  minBytes: number;
  validate: boolean;
  log?: (line: string) => void;
  /** Texts below this size are left out (default PARSE_POOL_MIN_FILE_BYTES); characters per job (default JOB_CHARS). */
  minFileBytes?: number;
  jobChars?: number;
}

/**
 * Starts first loads of `texts` on the pool's workers (this thread joins in finish()), when their narrowable
 * YAML adds up to `minBytes`; undefined when not (then nothing was parsed). `validate`: parseOne on every object too.
 */
export function startPooledLoads(
  texts: ReadonlyArray<{ file: string; text: string; bytes?: Buffer }>,
  opts: PooledLoadOptions,
): PooledRun | undefined {
  if (!opts.pool.usable()) return undefined;
  const planned: Array<{ file: string; text: string; bytes: Buffer | undefined; jobs: PieceJob[] }> = [];
  let total = 0;
  for (const { file, text, bytes } of texts) {
    if (text.length < (opts.minFileBytes ?? PARSE_POOL_MIN_FILE_BYTES)) continue;
    const pieces = firstLoadPieces(text);
    if (!pieces) continue;
    planned.push({ file, text, bytes, jobs: planJobs(pieces, file, opts.namespace, opts.limits, opts.validate, opts.jobChars) });
    total += text.length;
  }
  if (total < opts.minBytes) return undefined;
  const run = new JobRun(
    planned.flatMap((p) => p.jobs),
    opts.pool,
    opts.log,
  );
  return {
    async finish() {
      const pooled = await run.pieces();
      const files = new Map<string, PooledLoad>();
      for (const { file, text, bytes } of planned) {
        const n = await parseNarrowed(
          bytes ?? Buffer.from(text, 'utf8'),
          file,
          opts.namespace,
          opts.limits,
          undefined,
          text,
          pooled.pre.get(file),
        );
        if (n) files.set(file, n);
      }
      return { files, parsed: pooled.parsed, jobs: pooled.jobs };
    },
  };
}

/** startPooledLoads and its finish(). */
export async function pooledLoads(
  texts: ReadonlyArray<{ file: string; text: string }>,
  opts: PooledLoadOptions,
): Promise<PooledLoads | undefined> {
  return startPooledLoads(texts, opts)?.finish();
}

/**
 * The file source's first loads (./fileSet FileSetOptions.firstLoad) on `pool`: a text of at least `minBytes`
 * is parsed by a worker and this thread together (objects only: the store validates them), anything smaller,
 * or when the pool is not usable, by parseNarrowed in-thread as before.
 */
export function poolFirstLoad(pool: ParsePool, minBytes: number, log?: (line: string) => void): FirstLoad {
  return async (bytes, text, file, namespace, limits) => {
    const run =
      text.length >= minBytes
        ? startPooledLoads([{ file, text, bytes }], { namespace, limits, pool, minBytes, validate: false, ...(log ? { log } : {}) })
        : undefined;
    if (!run) return parseNarrowed(bytes, file, namespace, limits, undefined, text);
    const loads = await run.finish();
    const got = loads.files.get(file);
    return got ? { result: got.result, memo: got.memo, parsedPieces: got.parsedPieces } : undefined;
  };
}
