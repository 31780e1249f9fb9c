// A token-bucket limit for noisy log lines (NACKs): at most `burst` lines at once, refilled at `perSecond`;
// each line is cut to `maxChars`. Lines over the limit are counted, and the count is logged once per
// `perSecond` window after a storm ("N lines suppressed"), so the log stays bounded whatever clients send.
import { truncateText } from './limits';

export interface LogLimitOptions {
  burst: number;
  perSecond: number;
  maxChars: number;
  now?: () => number;
}

export class LogLimiter {
  private tokens: number;
  private last: number;
  private suppressed = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly opts: LogLimitOptions;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly what: string;

  constructor(log: (line: string) => void, what: string, opts: LogLimitOptions) {
    this.log = log;
    this.what = what;
    this.opts = opts;
    this.now = opts.now ?? Date.now;
    this.tokens = opts.burst;
    this.last = this.now();
  }

  line(text: string): void {
    const now = this.now();
    this.tokens = Math.min(this.opts.burst, this.tokens + ((now - this.last) / 1000) * this.opts.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.log(truncateText(text, this.opts.maxChars));
      return;
    }
    this.suppressed++;
    if (!this.timer) {
      this.timer = setTimeout(() => this.report(), 1000 / this.opts.perSecond);
      this.timer.unref?.();
    }
  }

  /** Logs the suppressed count now (also called on stop). */
  report(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.suppressed === 0) return;
    this.log(
      `ADS: ${this.suppressed} ${this.what} log lines suppressed (rate limit ${this.opts.perSecond}/s); see /debug/syncz for each stream's last one`,
    );
    this.suppressed = 0;
  }
}
