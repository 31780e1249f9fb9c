// `serve --prometheus URL` (env MESHSCOPE_PROMETHEUS_URL): an optional source of observed traffic. Its
// state (connected / failing, the last error) is a source status like the others (/api/healthz,
// /api/errors); every query and a probe every few seconds update it, so an outage shows, and recovery
// happens by itself. Only the traffic views depend on it.
import type { SourceStatus } from '../sources/types';
import { instantQuery, PrometheusError, type QueryOptions, type Sample } from './client';

export const PROMETHEUS_SOURCE_ID = 'prometheus';
const PROBE_MS = 5000;

export class PrometheusSource {
  private state: 'connected' | 'failing' = 'failing';
  private lastError: string | undefined = 'not probed yet';
  private lastOkAt: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    readonly url: string,
    private readonly o: QueryOptions & { probeMs?: number; now?: () => Date } = {},
  ) {}

  start(): void {
    if (this.timer) return;
    void this.probe();
    this.timer = setInterval(() => void this.probe(), this.o.probeMs ?? PROBE_MS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A trivial query: does Prometheus answer its query API? */
  async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await this.query('vector(1)');
    } catch {
      // recorded by query()
    } finally {
      this.probing = false;
    }
  }

  /** Runs one instant query; its outcome is the source's state (a refused query is not an outage). */
  async query(promql: string): Promise<Sample[]> {
    try {
      const out = await instantQuery(this.url, promql, this.o);
      this.ok();
      return out;
    } catch (e) {
      const err = e instanceof PrometheusError ? e : new PrometheusError(String(e), 'unreachable');
      if (err.kind === 'unreachable') {
        this.state = 'failing';
        this.lastError = err.message;
      } else this.ok();
      throw err;
    }
  }

  private ok(): void {
    this.state = 'connected';
    this.lastError = undefined;
    this.lastOkAt = (this.o.now?.() ?? new Date()).toISOString();
  }

  get connected(): boolean {
    return this.state === 'connected';
  }

  status(): SourceStatus {
    const detail = `${this.url}${this.lastOkAt ? ` (last answer ${this.lastOkAt})` : ''}`;
    return {
      id: PROMETHEUS_SOURCE_ID,
      kind: 'prometheus',
      state: this.state,
      detail,
      url: this.url,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }
}
