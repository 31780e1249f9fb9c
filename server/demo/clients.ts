// A demo client workload: one @grpc/grpc-js-xds channel (proxyless gRPC, its own per-channel bootstrap
// naming meshscope's ADS server and the source pod's node id) sending a steady, bounded rate of echo calls
// with per-call deadlines. Routing, weights and VirtualService faults are applied by the gRPC xDS client
// itself, exactly as for any proxyless gRPC workload, so every outcome counted here is real.
import * as grpc from '@grpc/grpc-js';
import type { EchoReply, EchoService } from './echoService';
import type { ClientPlan } from './plan';
import { TESTER_HEADER } from './plan';

export interface CallResult {
  client: ClientPlan;
  tester: boolean;
  reply?: EchoReply;
  /** gRPC status name when the call failed. */
  error?: string;
  /** gRPC status number when the call failed. */
  errorCode?: number;
  latencyMs: number;
}

export interface LoadOptions {
  /** ADS server address as the client dials it (`127.0.0.1:15010`). */
  adsAddress: string;
  echo: EchoService;
  /** Calls per second (bounded by the data plane). */
  rate: number;
  deadlineMs: number;
  /** Share (0–100) of calls carrying `x-user: tester`. */
  testerPercent: number;
  /** Most calls in flight per client (a slow backend or a delay fault never piles up calls). */
  maxInFlight: number;
  tickMs: number;
  onResult(r: CallResult): void;
}

/** The bootstrap grpc-js-xds reads for this channel (grpc-xds-client-notes.md: node.locality is required). */
export function bootstrapFor(c: ClientPlan, adsAddress: string): object {
  return {
    xds_servers: [{ server_uri: adsAddress, channel_creds: [{ type: 'insecure' }], server_features: [] }],
    node: {
      id: c.nodeId,
      cluster: `${c.workload}.${c.namespace}`,
      locality: c.locality,
      // GENERATOR=grpc: istiod's (and meshscope's) proxyless gRPC generator (pilot/pkg/networking/grpcgen).
      metadata: { GENERATOR: 'grpc', NAMESPACE: c.namespace },
    },
  };
}

const statusName = (code: number): string => (grpc.status[code] as string | undefined) ?? `CODE_${code}`;

export class LoadClient {
  private readonly client: grpc.Client;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private due = 0;
  private seq = 0;
  private stopped = false;

  constructor(
    readonly plan: ClientPlan,
    private readonly o: LoadOptions,
  ) {
    this.client = new grpc.Client(`xds:///${plan.host}:${plan.port}`, grpc.credentials.createInsecure(), {
      'grpc.TEST_ONLY_DO_NOT_USE_IN_PROD.xds_bootstrap_config': JSON.stringify(bootstrapFor(plan, o.adsAddress)),
    });
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.tick(), this.o.tickMs);
    this.timer.unref?.();
  }

  private tick(): void {
    // Whole calls due this tick; a fraction carries over, a backlog does not (no bursts after a stall).
    this.due = Math.min(this.due + (this.o.rate * this.o.tickMs) / 1000, Math.max(1, (this.o.rate * this.o.tickMs) / 1000) + 1);
    while (this.due >= 1 && this.inFlight < this.o.maxInFlight) {
      this.due -= 1;
      this.call();
    }
  }

  private call(): void {
    // Spread evenly: call n is a tester call when the running count of tester calls steps up.
    const n = this.seq++;
    const tester = Math.floor(((n + 1) * this.o.testerPercent) / 100) > Math.floor((n * this.o.testerPercent) / 100);
    const md = new grpc.Metadata();
    if (tester) md.set(TESTER_HEADER.name, TESTER_HEADER.value);
    const started = performance.now();
    this.inFlight++;
    const m = this.o.echo.method;
    this.client.makeUnaryRequest(
      m.path,
      m.requestSerialize,
      m.responseDeserialize,
      { source: this.plan.source },
      md,
      { deadline: Date.now() + this.o.deadlineMs },
      (err, reply) => {
        this.inFlight--;
        if (this.stopped) return;
        const latencyMs = performance.now() - started;
        if (err) this.o.onResult({ client: this.plan, tester, error: statusName(err.code), errorCode: err.code, latencyMs });
        else this.o.onResult({ client: this.plan, tester, reply: reply as EchoReply, latencyMs });
      },
    );
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.client.close();
  }
}
