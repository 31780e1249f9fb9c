// Push debouncing as istiod does it (pilot/pkg/xds/discovery.go debounce): events are merged; the merged
// request is released once no new event arrived for `quietMs` (PILOT_DEBOUNCE_AFTER, 100 ms) or once
// `maxMs` (PILOT_DEBOUNCE_MAX, 10 s) passed since the first merged event, whichever comes first.
import type { PushRequest, TypeUrl } from './types';

export interface DebouncerOptions<T> {
  quietMs: number;
  maxMs: number;
  merge: (a: T, b: T) => T;
  flush: (v: T) => void;
  now?: () => number;
}

export class Debouncer<T> {
  private pendingValue: T | undefined;
  private firstAt = 0;
  private lastAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly opts: DebouncerOptions<T>;
  private readonly now: () => number;

  constructor(opts: DebouncerOptions<T>) {
    this.opts = opts;
    this.now = opts.now ?? Date.now;
  }

  add(v: T): void {
    const now = this.now();
    if (this.pendingValue === undefined) {
      this.pendingValue = v;
      this.firstAt = now;
    } else {
      this.pendingValue = this.opts.merge(this.pendingValue, v);
    }
    this.lastAt = now;
    this.schedule();
  }

  get pending(): boolean {
    return this.pendingValue !== undefined;
  }

  /** Releases the pending request now (if any). */
  flushNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const v = this.pendingValue;
    this.pendingValue = undefined;
    if (v !== undefined) this.opts.flush(v);
  }

  /** Drops what is pending (the debouncer stays usable). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pendingValue = undefined;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const due = Math.min(this.lastAt + this.opts.quietMs, this.firstAt + this.opts.maxMs);
    this.timer = setTimeout(() => this.onTimer(), Math.max(0, due - this.now()));
  }

  private onTimer(): void {
    this.timer = undefined;
    const now = this.now();
    const quiet = now - this.lastAt >= this.opts.quietMs;
    const tooLong = now - this.firstAt >= this.opts.maxMs;
    if (quiet || tooLong) this.flushNow();
    else this.schedule();
  }
}

/** Merges two push requests (istiod PushRequest.Merge): union of proxies and types; 'all' / undefined win. */
export function mergePushRequests(a: PushRequest, b: PushRequest): PushRequest {
  const proxies: Set<string> | 'all' =
    a.proxies === 'all' || b.proxies === 'all' || a.proxies === undefined || b.proxies === undefined
      ? 'all'
      : new Set([...a.proxies, ...b.proxies]);
  const out: PushRequest = { proxies, reason: mergeReasons(a.reason, b.reason) };
  if (proxies !== 'all' && (a.unmatched || b.unmatched)) out.unmatched = true;
  if (a.types && b.types) out.types = new Set<TypeUrl>([...a.types, ...b.types]);
  return out;
}

/** Reasons joined without duplicates, bounded so a storm of events does not grow a string forever. */
export function mergeReasons(a: string, b: string): string {
  const parts = a.split(', ');
  if (!parts.includes(b)) parts.push(b);
  if (parts.length > 8) return [...parts.slice(0, 7), '…'].join(', ');
  return parts.join(', ');
}
