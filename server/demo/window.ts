// Sliding-window call counters with bounded memory: a ring of fixed time buckets (default 40 × 250 ms =
// 10 s), each a map from a call key (source workload, host, tester or not, cluster, pod, outcome) to counts.
// The clock is an argument: callers pass `now` (ms), so this is deterministic under test.

export interface CallKey {
  /** Source workload (Deployment name). */
  source: string;
  /** Destination host:port as called. */
  target: string;
  /** Whether the call carried `x-user: tester`. */
  tester: boolean;
  /** Envoy cluster name of the answering pod's subset (or "" when no pod answered). */
  cluster: string;
  subset: string;
  /** `POD.NAMESPACE` of the answering pod, or "" for an error without a pod. */
  pod: string;
  /** gRPC status name for a failed call (`UNAVAILABLE`, `DEADLINE_EXCEEDED`, …), or "" for OK. */
  error: string;
}

export interface CallCount extends CallKey {
  requests: number;
  /** Sum of latencies (ms), for a mean. */
  latencyMs: number;
}

interface Bucket {
  start: number;
  counts: Map<string, CallCount>;
}

export interface WindowOptions {
  bucketMs?: number;
  buckets?: number;
  /** Distinct keys per bucket; further keys are dropped and counted in `dropped`. */
  maxKeys?: number;
}

const keyOf = (k: CallKey) => `${k.source}\t${k.target}\t${k.tester ? 1 : 0}\t${k.cluster}\t${k.pod}\t${k.error}`;

export class CallWindow {
  readonly bucketMs: number;
  readonly size: number;
  private readonly maxKeys: number;
  private readonly ring: (Bucket | undefined)[];
  dropped = 0;

  constructor(opts: WindowOptions = {}) {
    this.bucketMs = opts.bucketMs ?? 250;
    this.size = opts.buckets ?? 40;
    this.maxKeys = opts.maxKeys ?? 512;
    this.ring = new Array(this.size).fill(undefined);
  }

  /** The longest window this ring can answer, in seconds. */
  get spanSeconds(): number {
    return (this.bucketMs * this.size) / 1000;
  }

  record(now: number, key: CallKey, latencyMs: number): void {
    const start = Math.floor(now / this.bucketMs) * this.bucketMs;
    const slot = Math.floor(start / this.bucketMs) % this.size;
    let b = this.ring[slot];
    if (!b || b.start !== start) {
      b = { start, counts: new Map() };
      this.ring[slot] = b;
    }
    const k = keyOf(key);
    let c = b.counts.get(k);
    if (!c) {
      if (b.counts.size >= this.maxKeys) {
        this.dropped++;
        return;
      }
      c = { ...key, requests: 0, latencyMs: 0 };
      b.counts.set(k, c);
    }
    c.requests++;
    c.latencyMs += latencyMs;
  }

  /** Counts summed over the buckets that started within the last `seconds` (at most the ring's span). */
  totals(now: number, seconds: number): CallCount[] {
    const span = Math.min(Math.max(seconds, this.bucketMs / 1000), this.spanSeconds) * 1000;
    const current = Math.floor(now / this.bucketMs) * this.bucketMs;
    const from = current - span + this.bucketMs;
    const sum = new Map<string, CallCount>();
    for (const b of this.ring) {
      if (!b || b.start < from || b.start > current) continue;
      for (const [k, c] of b.counts) {
        const s = sum.get(k);
        if (s) {
          s.requests += c.requests;
          s.latencyMs += c.latencyMs;
        } else sum.set(k, { ...c });
      }
    }
    return [...sum.values()];
  }

  clear(): void {
    this.ring.fill(undefined);
    this.dropped = 0;
  }
}
