// The CPU pool: work whose cost a request controls (simulate, sandbox evaluate with its request checks and
// contracts, contract runs) runs in worker threads, never on the thread that serves ADS, HTTP and SSE.
// Every task has a time budget; a task past it is answered 422 and its worker is terminated (V8 stops it
// wherever it is, even inside a regex) and replaced on the next task, so a runaway input never holds a
// worker. The queue is bounded: past it, 503 with Retry-After. Answers are `{status, json}` (the body
// serialised in the worker); failures carry `{"error", "stage"}` (docs/budgets.md lists the codes).
//
// The snapshot a task runs on reaches the workers as the store's SnapshotSpec, v8-serialised ONCE per
// snapshot version into shared memory (workers read the same bytes, nothing is copied per worker) and
// sent to a worker only when its version differs; each worker builds and keeps that version's snapshot.
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { FromWorker, SnapshotSpec, Stage, TaskKind, ToWorker } from './protocol';

export interface CpuPoolOptions {
  /** The worker's JS file (building it if needed), or why there is none. Called once. */
  entry: () => Promise<string>;
  /** The current snapshot's build inputs and version. */
  spec: () => { version: number; spec: SnapshotSpec };
  /** Worker threads at most (default 1). */
  workers?: number;
  /** Tasks waiting for a worker at most; more are refused with 503 (default 16). */
  queue?: number;
  /** Time a task may run, building its snapshot excluded (ms; default 10,000). */
  budgetMs?: number;
  /** Time a task may wait in the queue (ms; default: the budget, at least 30 s). */
  queueWaitMs?: number;
  /** Time a worker may take to start or to build a snapshot version (ms; default 120,000): not the request's cost. */
  snapshotMs?: number;
  /** A worker's V8 old-generation limit (MiB; default 1024): past it the task is answered 422. */
  memoryMb?: number;
  /** What the pool did (tests follow the order of these; the log prints recycles). */
  onEvent?: (e: PoolEvent) => void;
}

export type PoolEvent =
  | { type: 'spawn'; worker: number }
  | { type: 'start'; task: number; kind: TaskKind; worker: number }
  | { type: 'stage'; task: number; stage: Stage }
  | { type: 'done'; task: number; status: number }
  | { type: 'budget'; task: number; stage: Stage; worker: number }
  | { type: 'recycle'; worker: number; why: string }
  | { type: 'refused'; kind: TaskKind; why: 'queue full' | 'queue wait' | 'no worker' };

export interface CpuAnswer {
  status: number;
  /** The response body, JSON text. */
  json: string;
  headers?: Record<string, string>;
}

export interface PoolStats {
  workers: number;
  busy: number;
  queued: number;
  completed: number;
  overBudget: number;
  refused: number;
  recycled: number;
}

interface Task {
  id: number;
  kind: TaskKind;
  body: unknown;
  resolve: (a: CpuAnswer) => void;
  budgetMs: number;
  waitTimer?: ReturnType<typeof setTimeout>;
}

interface Slot {
  n: number;
  worker: Worker;
  /** The snapshot version this worker was last sent. */
  version?: number;
  task?: Task;
  stage?: Stage;
  timer?: ReturnType<typeof setTimeout>;
  /** Time left on the clock (ms) as of `started` (when it last started). */
  left: number;
  started: number;
  /** Budget left when the snapshot stage paused the clock. */
  paused?: number;
}

export const failure = (status: number, error: string, stage: Stage, headers?: Record<string, string>): CpuAnswer => ({
  status,
  json: JSON.stringify({ error, stage }),
  ...(headers ? { headers } : {}),
});

export class CpuPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private readonly max: { workers: number; queue: number; budgetMs: number; queueWaitMs: number; snapshotMs: number; memoryMb: number };
  private file: Promise<string> | undefined;
  private shared: { version: number; bytes: SharedArrayBuffer; length: number } | undefined;
  private nextTask = 1;
  private nextWorker = 1;
  private closed = false;
  private readonly counts = { completed: 0, overBudget: 0, refused: 0, recycled: 0 };

  constructor(private readonly opts: CpuPoolOptions) {
    const budgetMs = opts.budgetMs ?? 10_000;
    this.max = {
      workers: Math.max(1, opts.workers ?? 1),
      queue: Math.max(1, opts.queue ?? 16),
      budgetMs,
      queueWaitMs: opts.queueWaitMs ?? Math.max(budgetMs, 30_000),
      snapshotMs: opts.snapshotMs ?? 120_000,
      memoryMb: opts.memoryMb ?? 1024,
    };
  }

  /** Runs one task (`budgetMs`: this task's own budget); never rejects (every failure is an answer with `{"error", "stage"}`). */
  run(kind: TaskKind, body: unknown, opts: { budgetMs?: number } = {}): Promise<CpuAnswer> {
    if (this.closed) return Promise.resolve(failure(503, 'server is stopping', 'queue'));
    // Absolute: also while the first workers start (their bundle may still be building).
    if (this.queue.length >= this.max.queue) {
      this.counts.refused++;
      this.emit({ type: 'refused', kind, why: 'queue full' });
      return Promise.resolve(
        failure(503, `busy: ${this.queue.length} ${kind === 'evaluate' ? 'evaluations' : 'tasks'} already waiting; retry later`, 'queue', {
          'retry-after': '1',
        }),
      );
    }
    return new Promise((resolve) => {
      const task: Task = { id: this.nextTask++, kind, body, resolve, budgetMs: opts.budgetMs ?? this.max.budgetMs };
      task.waitTimer = setTimeout(() => {
        const at = this.queue.indexOf(task);
        if (at < 0) return;
        this.queue.splice(at, 1);
        this.counts.refused++;
        this.emit({ type: 'refused', kind, why: 'queue wait' });
        resolve(
          failure(503, `busy: no worker became free within ${this.max.queueWaitMs} ms; retry later`, 'queue', { 'retry-after': '1' }),
        );
      }, this.max.queueWaitMs);
      this.queue.push(task);
      void this.dispatch();
    });
  }

  stats(): PoolStats {
    let busy = 0;
    for (const s of this.slots) if (s.task) busy++;
    return { workers: this.slots.size, busy, queued: this.queue.length, ...this.counts };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) {
      clearTimeout(t.waitTimer);
      t.resolve(failure(503, 'server is stopping', 'queue'));
    }
    const all = [...this.slots];
    for (const s of all) this.retire(s, 'pool closed', failure(503, 'server is stopping', s.stage ?? 'worker'));
    await Promise.all(all.map((s) => s.worker.terminate().catch(() => undefined)));
  }

  private emit(e: PoolEvent): void {
    this.opts.onEvent?.(e);
  }

  private idleSlot(): Slot | undefined {
    for (const s of this.slots) if (!s.task) return s;
    return undefined;
  }

  private async dispatch(): Promise<void> {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.idleSlot();
      if (!slot) {
        if (this.slots.size >= this.max.workers) return;
        let file: string;
        try {
          this.file ??= this.opts.entry();
          file = await this.file;
        } catch (e) {
          this.file = undefined; // try again on the next task (a build may succeed later)
          for (const t of this.queue.splice(0)) {
            clearTimeout(t.waitTimer);
            this.counts.refused++;
            this.emit({ type: 'refused', kind: t.kind, why: 'no worker' });
            t.resolve(failure(503, `no CPU worker: ${(e as Error).message}`, 'worker'));
          }
          return;
        }
        // Another dispatch may have filled the pool while this one waited for the file.
        slot = this.idleSlot() ?? (this.slots.size < this.max.workers ? this.spawn(file) : undefined);
        if (!slot) return;
      }
      const task = this.queue.shift();
      if (!task) return;
      clearTimeout(task.waitTimer);
      this.start(slot, task);
    }
  }

  private spawn(file: string): Slot {
    const worker = new Worker(file, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.max.memoryMb },
    });
    const slot: Slot = { n: this.nextWorker++, worker, left: 0, started: 0 };
    worker.unref(); // an idle pool never keeps the process alive
    worker.on('message', (m: FromWorker) => this.onMessage(slot, m));
    worker.on('error', (e: Error & { code?: string }) => {
      const stage = slot.stage ?? 'worker';
      const answer =
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? this.overBudget(slot, `${slot.task?.kind ?? 'task'} exceeded its memory budget (${this.max.memoryMb} MiB)`)
          : failure(500, `internal: CPU worker failed: ${e.message}`, stage);
      this.retire(slot, e.code ?? 'error', answer);
    });
    worker.on('exit', (code) =>
      this.retire(slot, `exited (${code})`, failure(500, `internal: CPU worker exited (${code})`, slot.stage ?? 'worker')),
    );
    this.slots.add(slot);
    this.emit({ type: 'spawn', worker: slot.n });
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    const { version, spec } = this.opts.spec();
    if (this.shared?.version !== version) {
      const buf = serialize(spec);
      const bytes = new SharedArrayBuffer(buf.byteLength);
      new Uint8Array(bytes).set(buf);
      this.shared = { version, bytes, length: buf.byteLength };
    }
    slot.task = task;
    // Until the worker says it runs the task (a new worker loads its modules first), the budget does not run.
    slot.stage = 'worker';
    if (slot.version !== version) {
      const m: ToWorker = { t: 'snapshot', version, bytes: this.shared.bytes, length: this.shared.length };
      slot.worker.postMessage(m);
      slot.version = version;
    }
    const m: ToWorker = { t: 'task', id: task.id, kind: task.kind, body: task.body };
    slot.worker.ref();
    slot.worker.postMessage(m);
    this.emit({ type: 'start', task: task.id, kind: task.kind, worker: slot.n });
    this.clock(slot, this.max.snapshotMs);
  }

  /** (Re)starts the budget clock of the slot's task with `ms` left. */
  private clock(slot: Slot, ms: number): void {
    clearTimeout(slot.timer);
    slot.left = ms;
    slot.started = performance.now();
    slot.timer = setTimeout(() => {
      const task = slot.task;
      if (!task) return;
      const stage = slot.stage ?? task.kind;
      this.emit({ type: 'budget', task: task.id, stage, worker: slot.n });
      const answer =
        stage === 'snapshot' || stage === 'worker'
          ? failure(
              503,
              `a CPU worker took longer than ${this.max.snapshotMs} ms to ${stage === 'worker' ? 'start' : 'build the snapshot'}`,
              stage,
            )
          : this.overBudget(slot, `${task.kind} exceeded its time budget (${task.budgetMs} ms)`);
      this.retire(slot, 'over budget', answer);
    }, ms);
  }

  private overBudget(slot: Slot, error: string): CpuAnswer {
    this.counts.overBudget++;
    return failure(422, error, slot.stage ?? slot.task?.kind ?? 'worker');
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    const task = slot.task;
    if (!task || m.id !== task.id) return;
    if (m.t === 'stage') {
      // Building the snapshot is not the request's cost: its clock pauses (the snapshot limit applies instead).
      const setup = (st: Stage | undefined) => st === 'worker' || st === 'snapshot';
      if (setup(m.stage) && !setup(slot.stage)) {
        slot.paused = Math.max(0, slot.left - (performance.now() - slot.started));
        this.clock(slot, this.max.snapshotMs);
      } else if (!setup(m.stage) && setup(slot.stage)) {
        this.clock(slot, slot.paused ?? task.budgetMs);
        slot.paused = undefined;
      }
      slot.stage = m.stage;
      this.emit({ type: 'stage', task: task.id, stage: m.stage });
      return;
    }
    clearTimeout(slot.timer);
    slot.task = undefined;
    slot.stage = undefined;
    slot.worker.unref();
    this.counts.completed++;
    const answer = m.t === 'done' ? { status: m.status, json: m.json } : failure(500, `internal: ${m.error}`, m.stage);
    this.emit({ type: 'done', task: task.id, status: answer.status });
    task.resolve(answer);
    void this.dispatch();
  }

  /** Takes a worker out of the pool (terminating it), answering its task with `answer`. */
  private retire(slot: Slot, why: string, answer: CpuAnswer): void {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.timer);
    this.counts.recycled++;
    this.emit({ type: 'recycle', worker: slot.n, why });
    const task = slot.task;
    slot.task = undefined;
    void slot.worker.terminate().catch(() => undefined);
    if (task) {
      this.emit({ type: 'done', task: task.id, status: answer.status });
      task.resolve(answer);
    }
    void this.dispatch();
  }
}
