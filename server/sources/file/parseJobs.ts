// The second core for a big file's first load (issue 24 goal 6): the pieces a first load parses one by one
// (./docChunks firstLoadPieces: the documents of a multi-document file, the items of a List) are grouped into
// jobs of about JOB_CHARS; a worker thread (./parseWorker, through ../../lib/workerPool) takes jobs from the
// front of the queue while this thread takes them from the back, each running `runPieceJob` — the very
// functions docChunks' Cutter runs on a piece — and, when asked, parseOne (the validation a snapshot build
// runs) on each object. The results are handed to docChunks' Cutter as its `pre` pieces, so the file's load
// result is assembled by the same code as an in-thread first load: same objects, same order, same document
// indexes. A piece that does not read cleanly (a syntax error, a warning, a bad List item) is returned as
// undefined and the Cutter parses it itself (and then, as without a worker, falls back to parsing the whole
// file with its located errors). A job whose worker crashed or ran past its time budget is run on this
// thread instead, with one log line; a pool that cannot start is never retried within a load.
import type { WorkerPool } from '../../lib/workerPool';
import { type ParsedOne, parseOne } from '../../model/parse/objects';
import type { RawInput } from '../types';
import { chunkInputs, type FirstPiece, itemInputs, pieceKey, type Reuse, remember } from './docChunks';
import type { FileLimits } from './parseFile';

/** Characters of YAML per job: big enough that a message's cost is small beside it, small enough to balance two threads. */
export const JOB_CHARS = 192 * 1024;

export interface PieceJob {
  file: string;
  namespace: string | undefined;
  limits: FileLimits;
  /** Also validate each object (parseOne at index 0; the caller re-stamps it for its position). */
  validate: boolean;
  pieces: FirstPiece[];
}

/** Per piece: its objects (a docless chunk: none) and, when validated, their ParsedOnes; undefined when it does not read cleanly. */
export type PieceResult = { inputs: RawInput[]; parsed?: ParsedOne[] } | undefined;

export function runPieceJob(job: PieceJob): PieceResult[] {
  return job.pieces.map((p) => {
    const got = p.item
      ? itemInputs(p.text, job.file, job.namespace, job.limits, p.doc)
      : chunkInputs(p.text, job.file, job.namespace, job.limits, p.doc);
    if (!got) return undefined; // a docless chunk (null): the Cutter reads it itself (no objects, cheap)
    const inputs = got;
    return job.validate ? { inputs, parsed: inputs.map((i) => parseOne(i, 0)) } : { inputs };
  });
}

/** Pieces grouped into jobs of about JOB_CHARS characters, in file order. */
export function planJobs(
  pieces: readonly FirstPiece[],
  file: string,
  namespace: string | undefined,
  limits: FileLimits,
  validate: boolean,
  jobChars = JOB_CHARS,
): PieceJob[] {
  const jobs: PieceJob[] = [];
  let cur: FirstPiece[] = [];
  let chars = 0;
  for (const p of pieces) {
    cur.push(p);
    chars += p.text.length;
    if (chars >= jobChars) {
      jobs.push({ file, namespace, limits, validate, pieces: cur });
      cur = [];
      chars = 0;
    }
  }
  if (cur.length > 0) jobs.push({ file, namespace, limits, validate, pieces: cur });
  return jobs;
}

export interface PooledPieces {
  /** Per file, docChunks parseNarrowed's `pre` (keys are texts: never shared between files, whose objects differ in origin). */
  pre: Map<string, { reuse: Reuse; pieces: number }>;
  /** The ParsedOne of each object parsed with `validate` (at index 0: re-stamp it with ../../model/parse/objects restamp). */
  parsed: Map<RawInput, ParsedOne>;
  /** Jobs run by a worker, and on this thread (one that failed in a worker counts here). */
  jobs: { worker: number; local: number; failed: number };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The jobs run on the pool's workers (from the front, from construction on, two in flight per worker) and,
 * once finish() is called, on this thread too (from the back, a turn of the event loop between two): the
 * workers can start while this thread is still busy with something else. `log`: one line per job a worker
 * failed (then run here).
 */
export class JobRun {
  private readonly results: PieceResult[][];
  private readonly counts = { worker: 0, local: 0, failed: 0 };
  private front = 0;
  private back: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly failed = new Set<number>();

  constructor(
    readonly jobs: readonly PieceJob[],
    private readonly pool: WorkerPool<PieceJob, PieceResult[]> | undefined,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.results = new Array(jobs.length);
    this.back = jobs.length - 1;
    this.dispatch();
  }

  private dispatch(): void {
    const pool = this.pool;
    if (!pool) return;
    while (this.front <= this.back && this.inFlight.size < pool.capacity() * 2 && pool.usable()) {
      const n = this.front++;
      const job = this.jobs[n]!;
      const done: Promise<void> = pool
        .run(job)
        .then(
          (r) => {
            this.results[n] = r;
            this.counts.worker++;
          },
          (e: unknown) => {
            this.failed.add(n);
            this.counts.failed++;
            if (!pool.isClosed())
              this.log(
                `parse worker: job ${n + 1}/${this.jobs.length} (${job.file}) failed in the worker (${(e as Error).message}); parsed on the main thread`,
              );
          },
        )
        .then(() => {
          this.inFlight.delete(done);
          this.dispatch();
        });
      this.inFlight.add(done);
    }
  }

  /** Every job's result, in job order (this thread runs what the workers have not taken, and what they failed). */
  async finish(): Promise<{ results: PieceResult[][]; counts: PooledPieces['jobs'] }> {
    while (this.front <= this.back) {
      const n = this.back--;
      this.results[n] = runPieceJob(this.jobs[n]!);
      this.counts.local++;
      if (this.inFlight.size > 0) await turn();
    }
    while (this.inFlight.size > 0) await Promise.race(this.inFlight);
    for (const n of this.failed) {
      this.results[n] = runPieceJob(this.jobs[n]!);
      this.counts.local++;
    }
    this.failed.clear();
    return { results: this.results, counts: { ...this.counts } };
  }

  /** The finished run keyed for docChunks parseNarrowed's `pre`, per file. */
  async pieces(): Promise<PooledPieces> {
    const { results, counts } = await this.finish();
    return keyed(this.jobs, results, counts);
  }
}

function keyed(jobs: readonly PieceJob[], results: PieceResult[][], counts: PooledPieces['jobs']): PooledPieces {
  const pre: PooledPieces['pre'] = new Map();
  const parsed = new Map<RawInput, ParsedOne>();
  jobs.forEach((job, n) => {
    const rs = results[n]!;
    let mine = pre.get(job.file);
    if (!mine) pre.set(job.file, (mine = { reuse: new Map(), pieces: 0 }));
    job.pieces.forEach((p, k) => {
      const r = rs[k];
      if (!r) return;
      mine.pieces++;
      remember(mine.reuse, pieceKey(p), p.doc, r.inputs);
      if (r.parsed) r.inputs.forEach((input, i) => parsed.set(input, r.parsed![i]!));
    });
  });
  return { pre, parsed, jobs: counts };
}
