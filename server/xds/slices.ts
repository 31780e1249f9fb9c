// Response generation in time slices: a burst of requests (K clients connecting at once, a push to many
// connections) must not hold the event loop for the whole burst, or the responses already written sit in
// grpc-js/HTTP/2 buffers until the last client's translation is done and every client is served at once
// (lockstep). Jobs run first in, first out; after `sliceMs` of work the rest wait for the next turn of the
// event loop (setImmediate), so sockets are read and written in between and each client is served as soon
// as its own resources are ready. One instance per ADS server.
//
// It also bounds the bytes of responses written but not yet taken by the clients (handed to the socket):
// while more than `maxBytes` wait, no new response is generated, so a connect wave never holds a response
// per client in memory at once (the peak, not the steady state, sets how far the process's heap grows, and
// malloc rarely gives such a peak back). A write counts for at most `holdMs` (the send timeout): a client
// that stopped reading can delay the others by that much, never stall them.

export interface SliceOptions {
  /** Work per turn of the event loop (ms). */
  sliceMs?: number;
  /** Response bytes written and not yet taken before generation pauses (0 or unset: no bound; the server passes limits.maxPendingSendBytes). */
  maxBytes?: number;
  /** How long one write counts against maxBytes at most (ms; istiod's PILOT_XDS_SEND_TIMEOUT). */
  holdMs?: number;
  onError?: (e: unknown) => void;
}

export class SliceScheduler {
  private jobs: Array<() => void> = [];
  private head = 0;
  private soonJobs: Array<() => void> = [];
  private scheduled = false;
  private waiting = false;
  private held = 0;
  private readonly sliceMs: number;
  private readonly maxBytes: number;
  private readonly holdMs: number;
  private readonly onError: (e: unknown) => void;

  constructor(opts: SliceOptions = {}) {
    this.sliceMs = opts.sliceMs ?? 5;
    this.maxBytes = opts.maxBytes ?? 0;
    this.holdMs = opts.holdMs ?? 1000;
    this.onError = opts.onError ?? (() => {});
  }

  /**
   * A response of `bytes` was written: it counts until `taken` resolves (the client took it, or the stream
   * closed) or for holdMs, whichever comes first.
   */
  hold(bytes: number, taken: Promise<unknown>): void {
    if (this.maxBytes <= 0) return;
    this.held += bytes;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      this.held -= bytes;
      if (this.waiting && this.held < this.maxBytes) {
        this.waiting = false;
        this.schedule();
      }
    };
    const timer = setTimeout(release, this.holdMs);
    timer.unref?.();
    void taken.then(release, release);
  }

  /** Response bytes written and not yet taken (as counted for the bound). */
  get heldBytes(): number {
    return this.held;
  }

  private schedule(): void {
    if (this.scheduled || this.pending === 0) return;
    this.scheduled = true;
    setImmediate(this.drain);
  }

  /**
   * Runs `job` in a later slice, after every job queued before it. `soon`: ahead of the other jobs (after
   * the other `soon` ones): a stream already being served completes its config before new streams start.
   */
  run(job: () => void, soon = false): void {
    (soon ? this.soonJobs : this.jobs).push(job);
    if (!this.waiting) this.schedule();
  }

  /** Jobs waiting. */
  get pending(): number {
    return this.jobs.length - this.head + this.soonJobs.length;
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    const end = performance.now() + this.sliceMs;
    while (this.pending > 0) {
      if (this.maxBytes > 0 && this.held >= this.maxBytes) {
        this.waiting = true; // hold() reschedules when enough was taken
        return;
      }
      let job: () => void;
      if (this.soonJobs.length > 0) job = this.soonJobs.shift()!;
      else {
        job = this.jobs[this.head]!;
        this.jobs[this.head++] = noop; // the queue keeps no reference to a job that ran
      }
      try {
        job();
      } catch (e) {
        this.onError(e);
      }
      if (performance.now() >= end) break;
    }
    if (this.pending === 0) {
      this.jobs = [];
      this.head = 0;
      return;
    }
    if (this.head > 1024) {
      this.jobs = this.jobs.slice(this.head);
      this.head = 0;
    }
    this.schedule();
  };
}

const noop = () => {};
