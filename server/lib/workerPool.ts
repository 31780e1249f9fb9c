// A small bounded pool of worker threads for pure jobs (issue 24 goal 6: the second core). Jobs are plain
// data in, plain data out (structured clone); each has a time budget from the moment it is posted, and a
// worker that is past it, crashes, exits or runs out of its memory limit is terminated and every job it held
// is rejected — the caller runs those jobs on its own thread, so a failing worker never loses work. Workers
// start on first use, up to `workers`, and are unref'd while idle: an idle pool never keeps a process (a CLI
// run, a test runner) alive; with `idleMs` a worker idle that long after its last answer is terminated (a
// server's pool gives its memory back after the first load); close() terminates them. A pool whose worker file cannot start is marked broken
// after `maxFailures` failed starts and rejects at once from then on.
import { Worker } from 'node:worker_threads';

export interface WorkerPoolOptions {
  /** The worker's JavaScript file (it answers `{ id, job }` with `{ id, ok: true, result }` or `{ id, ok: false, error }`). */
  file: string;
  /** Worker threads at most (at least 1). */
  workers: number;
  /** Time a job may take from being posted to its answer (ms). */
  budgetMs: number;
  /** A worker's V8 old-generation limit (MiB). */
  memoryMb?: number;
  /** Failed worker starts (crash before any answer) after which the pool rejects every job. */
  maxFailures?: number;
  /** A worker with no job for this long after an answer is terminated (a later job starts a new one); unset: kept. */
  idleMs?: number;
}

export type ToJobWorker<J> = { id: number; job: J };
export type FromJobWorker<R> = { id: number; ok: true; result: R } | { id: number; ok: false; error: string };

interface Pending<R> {
  resolve: (r: R) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Slot<R> {
  worker: Worker;
  jobs: Map<number, Pending<R>>;
  answered: boolean;
  /** The idle timer (idleMs) while the worker has no job. */
  idle?: ReturnType<typeof setTimeout>;
}

export class WorkerPool<J, R> {
  private readonly slots = new Set<Slot<R>>();
  private nextId = 1;
  private closed = false;
  private failures = 0;
  /** Jobs answered by a worker, and jobs rejected (crash, budget, closed). */
  readonly stats = { done: 0, failed: 0, spawned: 0, idleRetired: 0 };

  constructor(private readonly opts: WorkerPoolOptions) {}

  /** Most workers this pool runs at once. */
  capacity(): number {
    return Math.max(1, this.opts.workers);
  }

  /** Whether close() was called. */
  isClosed(): boolean {
    return this.closed;
  }

  /** Whether run() can still reach a worker (not closed, not broken). */
  usable(): boolean {
    return !this.closed && this.failures < (this.opts.maxFailures ?? 2);
  }

  run(job: J): Promise<R> {
    if (!this.usable()) return Promise.reject(new Error(this.closed ? 'pool closed' : 'worker does not start'));
    let slot: Slot<R>;
    try {
      slot = this.pick();
    } catch (e) {
      this.failures++;
      return Promise.reject(new Error(`worker does not start: ${(e as Error).message}`));
    }
    const id = this.nextId++;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = undefined;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => this.retire(slot, `over its time budget (${this.opts.budgetMs} ms)`), this.opts.budgetMs);
      slot.jobs.set(id, { resolve, reject, timer });
      slot.worker.ref();
      const m: ToJobWorker<J> = { id, job };
      slot.worker.postMessage(m);
    });
  }

  /** Starts the workers now (they load their modules while the caller does something else). */
  warm(): void {
    try {
      while (this.usable() && this.slots.size < this.capacity()) this.spawn();
    } catch {
      this.failures++;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.slots];
    for (const s of all) this.retire(s, 'pool closed');
    await Promise.all(all.map((s) => s.worker.terminate().catch(() => undefined)));
  }

  /** The least busy worker, or a new one while under the limit. */
  private pick(): Slot<R> {
    let best: Slot<R> | undefined;
    for (const s of this.slots) if (!best || s.jobs.size < best.jobs.size) best = s;
    if (best && (best.jobs.size === 0 || this.slots.size >= this.capacity())) return best;
    return this.spawn();
  }

  private spawn(): Slot<R> {
    const worker = new Worker(this.opts.file, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb ?? 1024 },
    });
    worker.unref();
    const slot: Slot<R> = { worker, jobs: new Map(), answered: false };
    this.stats.spawned++;
    worker.on('message', (m: FromJobWorker<R>) => {
      const p = slot.jobs.get(m.id);
      if (!p) return;
      slot.jobs.delete(m.id);
      slot.answered = true;
      clearTimeout(p.timer);
      if (slot.jobs.size === 0) {
        worker.unref();
        this.idleTimer(slot);
      }
      if (m.ok) {
        this.stats.done++;
        p.resolve(m.result);
      } else {
        this.stats.failed++;
        p.reject(new Error(m.error));
      }
    });
    worker.on('error', (e: Error & { code?: string }) => this.retire(slot, `failed: ${e.code ? `${e.code} ` : ''}${e.message}`));
    worker.on('exit', (code) => this.retire(slot, `exited (${code})`));
    this.slots.add(slot);
    return slot;
  }

  /** With idleMs: terminates `slot`'s worker once it has had no job for that long (an unref'd timer). */
  private idleTimer(slot: Slot<R>): void {
    const ms = this.opts.idleMs;
    if (ms === undefined) return;
    slot.idle = setTimeout(() => {
      if (slot.jobs.size > 0 || !this.slots.has(slot)) return;
      this.stats.idleRetired++;
      this.retire(slot, 'idle');
    }, ms);
    slot.idle.unref();
  }

  /** Takes a worker out of the pool (terminating it) and rejects every job it held. */
  private retire(slot: Slot<R>, why: string): void {
    if (slot.idle) clearTimeout(slot.idle);
    if (!this.slots.delete(slot)) return;
    if (!slot.answered && !this.closed) this.failures++;
    void slot.worker.terminate().catch(() => undefined);
    for (const p of slot.jobs.values()) {
      clearTimeout(p.timer);
      this.stats.failed++;
      p.reject(new Error(`worker ${why}`));
    }
    slot.jobs.clear();
  }
}
