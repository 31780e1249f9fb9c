// Per-connection push queue (istiod pilot/pkg/xds/pushqueue.go): a connection is either idle, queued
// (one merged job waiting), or being pushed (plus at most one merged pending job, run after the current
// one finishes). At most `concurrency` pushes run at once (PILOT_PUSH_THROTTLE).

export interface PushQueueOptions<K, V> {
  concurrency: number;
  merge: (a: V, b: V) => V;
  run: (key: K, value: V) => Promise<void>;
  onError?: (key: K, err: unknown) => void;
}

export class PushQueue<K, V> {
  private queued = new Map<K, V>();
  private running = new Set<K>();
  private pendingAfterRun = new Map<K, V>();
  private idleWaiters: Array<() => void> = [];
  private readonly opts: PushQueueOptions<K, V>;

  constructor(opts: PushQueueOptions<K, V>) {
    this.opts = { ...opts, concurrency: Math.max(1, opts.concurrency) };
  }

  enqueue(key: K, value: V): void {
    if (this.running.has(key)) {
      const p = this.pendingAfterRun.get(key);
      this.pendingAfterRun.set(key, p === undefined ? value : this.opts.merge(p, value));
      return;
    }
    const q = this.queued.get(key);
    this.queued.set(key, q === undefined ? value : this.opts.merge(q, value));
    this.pump();
  }

  /** Forgets a key (its connection closed). A push already running finishes on its own. */
  remove(key: K): void {
    this.queued.delete(key);
    this.pendingAfterRun.delete(key);
  }

  stats(): { queued: number; running: number; pending: number } {
    return { queued: this.queued.size, running: this.running.size, pending: this.pendingAfterRun.size };
  }

  /** Resolves when nothing is queued, running or pending. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.queued.size === 0 && this.running.size === 0 && this.pendingAfterRun.size === 0;
  }

  private pump(): void {
    while (this.running.size < this.opts.concurrency && this.queued.size > 0) {
      const first = this.queued.entries().next();
      if (first.done) break;
      const [key, value] = first.value;
      this.queued.delete(key);
      this.running.add(key);
      let p: Promise<void>;
      try {
        p = this.opts.run(key, value);
      } catch (e) {
        p = Promise.reject(e);
      }
      p.catch((e: unknown) => this.opts.onError?.(key, e)).finally(() => this.done(key));
    }
    if (this.isIdle()) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private done(key: K): void {
    this.running.delete(key);
    const next = this.pendingAfterRun.get(key);
    if (next !== undefined) {
      this.pendingAfterRun.delete(key);
      const q = this.queued.get(key);
      this.queued.set(key, q === undefined ? next : this.opts.merge(q, next));
    }
    this.pump();
  }
}
