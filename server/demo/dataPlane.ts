// The loopback demo data plane: keeps real pod servers and real xDS client workloads in step with the
// snapshot (plan.ts), counts every call in a bounded sliding window (window.ts), and reports it
// (report.ts). Updates are serialized; every failure (a port in use, ADS not listening) becomes the
// status line and the report's `problems`, never an exception. stop() closes every channel and server.
import * as grpcXds from '@grpc/grpc-js-xds';
import { DEFAULT_OPTIONS, type MeshSnapshot, optionsOf, type TranslateOptions } from '../model/mesh';
import type { SourceStatus } from '../sources/types';
import { type OnServed, type RunningBackend, startBackend } from './backends';
import { DemoExporters, METRICS_PORT } from './exporter';
import { callOutcome, requestLabels, UNKNOWN_PEER } from './istioStats';
import { type CallResult, LoadClient } from './clients';
import { type EchoService, loadEchoService } from './echoService';
import { type DemoPlan, planDemo, subsetOfPod } from './plan';
import { type TrafficReport, trafficReport } from './report';
import { CallWindow, type WindowOptions } from './window';

export const DEMO_TRAFFIC_SOURCE_ID = 'demo-traffic';
export const MAX_RATE = 200;

export interface DataPlaneOptions {
  /** proto/echo.proto */
  protoPath: string;
  /** The ADS address the clients dial (`127.0.0.1:PORT`), or undefined while ADS is not listening. */
  adsAddress: () => string | undefined;
  /** Calls per second per client (default 50, at most MAX_RATE). */
  rate?: number;
  /** Per-call deadline (default 5 s: above the demo's 3 s route timeout, so delays show as latency). */
  deadlineMs?: number;
  /** Share of calls sent with `x-user: tester` (default 10). */
  testerPercent?: number;
  tickMs?: number;
  window?: WindowOptions;
  /** The port of every pod's `/stats/prometheus` (default 15020, Istio's merged metrics port). */
  metricsPort?: number;
  now?: () => number;
  log?: (line: string) => void;
}

const backendKey = (b: RunningBackend['plan']) => `${b.id}|${b.ip}|${b.ports.join(',')}|${b.app}|${b.version}`;

export class DemoDataPlane {
  private readonly window: CallWindow;
  private readonly backends = new Map<string, RunningBackend>();
  private readonly clients = new Map<string, LoadClient>();
  private plan: DemoPlan = { backends: [], clients: [], services: [], podLabels: new Map(), problems: [], peers: new Map(), exporters: [] };
  /** Each pod's sidecar metrics (istio_requests_total, …) on IP:15020/stats/prometheus. */
  readonly exporters: DemoExporters;
  readonly metricsPort: number;
  private echo: EchoService | undefined;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private fatal: string | undefined;
  private registered = false;
  private lastOptions: TranslateOptions = DEFAULT_OPTIONS;
  readonly rate: number;
  private readonly now: () => number;

  constructor(
    private readonly translateOptions: TranslateOptions | undefined,
    private readonly o: DataPlaneOptions,
  ) {
    this.window = new CallWindow(o.window);
    this.metricsPort = o.metricsPort ?? METRICS_PORT;
    this.exporters = new DemoExporters(this.metricsPort);
    this.rate = Math.max(0, Math.min(o.rate ?? 50, MAX_RATE));
    this.now = o.now ?? Date.now;
  }

  /** Reconciles servers and clients with `snap` (serialized; resolves when this update is done). */
  update(snap: MeshSnapshot): Promise<void> {
    this.chain = this.chain.then(() => this.reconcile(snap)).catch((e: unknown) => void (this.fatal = (e as Error).message));
    return this.chain;
  }

  private async reconcile(snap: MeshSnapshot): Promise<void> {
    if (this.stopped) return;
    if (!this.echo) this.echo = loadEchoService(this.o.protoPath);
    this.lastOptions = this.translateOptions ?? optionsOf(snap);
    const plan = planDemo(snap, this.lastOptions);
    this.plan = plan;
    // Servers first, so a new client's first calls find them.
    const wanted = new Map(plan.backends.map((b) => [backendKey(b), b]));
    for (const [k, b] of this.backends) {
      if (wanted.has(k)) continue;
      this.backends.delete(k);
      await b.stop();
    }
    for (const [k, b] of wanted) {
      if (this.backends.has(k)) continue;
      const running = await startBackend(b, this.echo, this.served);
      if (this.stopped) {
        await running.stop();
        return;
      }
      if (running.error) this.o.log?.(`meshscope demo: ${running.error}`);
      this.backends.set(k, running);
    }
    await this.exporters.reconcile(plan.exporters);
    if (this.stopped) return this.exporters.stop();
    const ads = this.o.adsAddress();
    // A client is keyed by its target's fault shape too: see ServicePlan.faultShape (a grpc-js-xds bug).
    const shape = (c: (typeof plan.clients)[number]) => plan.services.find((x) => x.host === c.host && x.port === c.port)?.faultShape ?? '';
    const wantedClients = new Map(ads ? plan.clients.map((c) => [`${c.key}|${c.nodeId}|${shape(c)}`, c]) : []);
    for (const [k, c] of this.clients) {
      if (wantedClients.has(k)) continue;
      this.clients.delete(k);
      c.stop();
    }
    if (!ads || this.rate === 0) return;
    if (!this.registered && wantedClients.size > 0) {
      grpcXds.register();
      this.registered = true;
    }
    for (const [k, c] of wantedClients) {
      if (this.clients.has(k)) continue;
      const client = new LoadClient(c, {
        adsAddress: ads,
        echo: this.echo,
        rate: this.rate,
        deadlineMs: this.o.deadlineMs ?? 5000,
        testerPercent: this.o.testerPercent ?? 10,
        maxInFlight: Math.max(4, Math.ceil(this.rate * 2)),
        tickMs: this.o.tickMs ?? 100,
        onResult: (r) => this.record(r),
      });
      this.clients.set(k, client);
      client.start();
    }
  }

  /** The destination sidecar's report of a call its pod served (the caller known as metadata exchange tells it). */
  private readonly served: OnServed = (s) => {
    const host = s.authority.replace(/:\d+$/, '');
    const outcome = { responseCode: '200', grpcStatus: '0', flags: '-', reached: true };
    const dest = this.plan.peers.get(s.pod) ?? UNKNOWN_PEER;
    const labels = requestLabels('destination', this.plan.peers.get(s.caller) ?? UNKNOWN_PEER, dest, host, this.opts(), outcome);
    this.exporters.record(s.pod, labels, s.latencyMs);
  };

  private opts(): TranslateOptions {
    return this.translateOptions ?? this.lastOptions;
  }

  private record(r: CallResult): void {
    const target = `${r.client.host}:${r.client.port}`;
    const svc = this.plan.services.find((s) => s.host === r.client.host && s.port === r.client.port);
    // The source sidecar's report: the route's fault (tester calls with a route of their own carry none).
    const fault = r.tester && svc?.tester ? undefined : svc?.fault;
    const outcome = callOutcome(fault, {
      answered: Boolean(r.reply),
      latencyMs: r.latencyMs,
      ...(r.errorCode !== undefined ? { errorCode: r.errorCode } : {}),
    });
    const dest = r.reply ? (this.plan.peers.get(`${r.reply.pod}.${r.reply.namespace}`) ?? UNKNOWN_PEER) : UNKNOWN_PEER;
    const src = this.plan.peers.get(r.client.source) ?? UNKNOWN_PEER;
    this.exporters.record(r.client.source, requestLabels('source', src, dest, r.client.host, this.opts(), outcome), r.latencyMs);
    let cluster = '';
    let subset = '';
    let pod = '';
    if (r.reply) {
      pod = `${r.reply.pod}.${r.reply.namespace}`;
      subset = svc ? subsetOfPod(svc, this.plan.podLabels.get(pod)) : '';
      cluster = `outbound|${r.client.port}|${subset}|${r.client.host}`;
    }
    this.window.record(
      this.now(),
      { source: r.client.workload, target, tester: r.tester, cluster, subset, pod, error: r.error ?? '' },
      r.latencyMs,
    );
  }

  /** The counters of the last `windowSeconds` (one bucket to the window's span; default 10). */
  report(windowSeconds = 10): TrafficReport {
    const seconds = Math.max(this.window.bucketMs / 1000, Math.min(windowSeconds, this.window.spanSeconds));
    const problems = [...this.plan.problems];
    if (this.fatal) problems.unshift(this.fatal);
    if (!this.o.adsAddress()) problems.push('the ADS server is not listening: no client workloads');
    const backends = [...this.backends.values()].map((b) => ({
      id: b.plan.id,
      address: b.plan.ports.map((p) => `${b.plan.ip}:${p}`).join(', '),
      state: b.error ? ('failing' as const) : ('serving' as const),
      ...(b.error ? { error: b.error } : {}),
    }));
    for (const b of backends) if (b.error) problems.push(b.error);
    for (const e of this.exporters.targets()) if (e.error) problems.push(e.error);
    return trafficReport(this.plan, this.window.totals(this.now(), seconds), {
      windowSeconds: seconds,
      running: !this.stopped && this.clients.size > 0,
      ratePerClient: this.rate,
      testerPercent: this.o.testerPercent ?? 10,
      backends,
      problems,
    });
  }

  /** The status line (a source status: shown by /api/healthz and the page's source list). */
  status(): SourceStatus {
    const failing = [...this.backends.values(), ...this.exporters.targets()].filter((b) => b.error);
    const detail = `${this.backends.size} pod servers, ${this.clients.size} clients at ${this.rate} req/s`;
    if (this.stopped) return { id: DEMO_TRAFFIC_SOURCE_ID, kind: 'demo', state: 'stopped', detail };
    if (this.fatal || failing.length > 0) {
      return {
        id: DEMO_TRAFFIC_SOURCE_ID,
        kind: 'demo',
        state: 'failing',
        detail,
        lastError: this.fatal ?? failing.map((b) => b.error).join('; '),
      };
    }
    return { id: DEMO_TRAFFIC_SOURCE_ID, kind: 'demo', state: 'connected', detail };
  }

  /** Forgets the counts (the page's reset). */
  clearCounters(): void {
    this.window.clear();
  }

  /** Closes every channel, then every server (forced: no port stays bound). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.chain.catch(() => undefined);
    for (const c of this.clients.values()) c.stop();
    this.clients.clear();
    await Promise.all([...this.backends.values()].map((b) => b.stop()));
    this.backends.clear();
    await this.exporters.stop();
  }
}
