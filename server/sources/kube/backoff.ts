// Capped exponential backoff and a sleep that a stop() can cut short (so no timer outlives the source).

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000 };

/** Delay before retry number `attempt` (0-based): initial · 2^attempt, capped at max. */
export function backoffDelay(opts: BackoffOptions, attempt: number): number {
  const d = opts.initialMs * 2 ** Math.min(attempt, 30);
  return Math.max(0, Math.min(d, opts.maxMs));
}

/**
 * client-node's informer waits 1 s, 2 s, … 30 s between quiet re-watches. Map its delays onto our
 * backoff scale (identity with the defaults), so tests with a short backoff also re-watch quickly.
 */
export function scaleInformerDelay(opts: BackoffOptions, ms: number): number {
  return Math.min((ms * opts.initialMs) / DEFAULT_BACKOFF.initialMs, opts.maxMs);
}

/** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
