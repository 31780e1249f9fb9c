// What each loopback demo pod's sidecar would serve on its merged metrics port: `/stats/prometheus` on the
// pod's own IP, port 15020, with istio_requests_total and istio_request_duration_milliseconds labelled by
// istioStats.ts. One prom-client Registry per pod, kept while the pod exists (counters are cumulative
// across plan updates); a bind failure is kept as the exporter's error, never thrown.
import { createServer, type Server } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, type IstioLabels, LABEL_NAMES, REQUEST_DURATION, REQUESTS_TOTAL } from './istioStats';

export const METRICS_PORT = 15020;
export const METRICS_PATH = '/stats/prometheus';
/** Most distinct label sets one pod keeps per metric (a bound on memory; Istio has none, the demo's set is small). */
const MAX_SERIES = 2000;

export interface ExporterTarget {
  /** `POD.NAMESPACE` */
  id: string;
  pod: string;
  namespace: string;
  ip: string;
}

class PodStats {
  readonly registry = new Registry();
  private readonly requests: Counter<string>;
  private readonly duration: Histogram<string>;
  private readonly seen = new Set<string>();

  constructor() {
    this.requests = new Counter({
      name: REQUESTS_TOTAL,
      help: 'Requests handled by this proxy (Istio standard metric).',
      labelNames: [...LABEL_NAMES],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: REQUEST_DURATION,
      help: 'Request duration in milliseconds (Istio standard metric).',
      labelNames: [...LABEL_NAMES],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
  }

  record(labels: IstioLabels, latencyMs: number): void {
    const key = JSON.stringify(labels);
    if (!this.seen.has(key)) {
      if (this.seen.size >= MAX_SERIES) return;
      this.seen.add(key);
    }
    this.requests.inc(labels);
    this.duration.observe(labels, latencyMs);
  }
}

interface Running {
  target: ExporterTarget;
  server: Server;
  error?: string;
}

export class DemoExporters {
  private readonly stats = new Map<string, PodStats>();
  private readonly running = new Map<string, Running>();

  constructor(private readonly port = METRICS_PORT) {}

  /** Starts an exporter for every target not yet served, stops the ones no longer wanted (their counters go too). */
  async reconcile(targets: readonly ExporterTarget[]): Promise<void> {
    const wanted = new Map(targets.map((t) => [`${t.id}|${t.ip}`, t]));
    for (const [k, r] of this.running) {
      if (wanted.has(k)) continue;
      this.running.delete(k);
      this.stats.delete(r.target.id);
      await close(r.server);
    }
    for (const [k, t] of wanted) {
      if (this.running.has(k)) continue;
      this.running.set(k, await this.listen(t));
    }
  }

  private listen(t: ExporterTarget): Promise<Running> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET' || path !== METRICS_PATH) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${METRICS_PATH} only\n`);
        return;
      }
      const reg = this.statsOf(t.id).registry;
      reg.metrics().then(
        (body) => res.writeHead(200, { 'content-type': reg.contentType }).end(body),
        (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e)),
      );
    });
    server.headersTimeout = 5000;
    server.requestTimeout = 10_000;
    return new Promise((resolve) => {
      server.once('error', (e) =>
        resolve({ target: t, server, error: `pod ${t.id} metrics could not listen on ${t.ip}:${this.port}: ${e.message}` }),
      );
      server.listen(this.port, t.ip, () => resolve({ target: t, server }));
    });
  }

  private statsOf(id: string): PodStats {
    let s = this.stats.get(id);
    if (!s) {
      s = new PodStats();
      this.stats.set(id, s);
    }
    return s;
  }

  /** Counts a call in pod `id`'s stats (a pod without an exporter still counts: it may get one). */
  record(id: string, labels: IstioLabels, latencyMs: number): void {
    this.statsOf(id).record(labels, latencyMs);
  }

  /** The exposition of one pod (tests, promtool). */
  exposition(id: string): Promise<string> {
    return this.statsOf(id).registry.metrics();
  }

  targets(): { target: ExporterTarget; address: string; error?: string }[] {
    return [...this.running.values()].map((r) => ({
      target: r.target,
      address: `${r.target.ip}:${this.port}`,
      ...(r.error ? { error: r.error } : {}),
    }));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => close(r.server)));
    this.running.clear();
    this.stats.clear();
  }
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
