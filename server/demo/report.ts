// GET /api/demo/traffic's body (README "Demo traffic"), from the plan (what is configured) and the window's
// counts (what the real calls did). Pure.
import type { ConfiguredDestination, ConfiguredFault, DemoPlan } from './plan';
import type { CallCount } from './window';

export interface DestinationTraffic {
  cluster: string;
  subset: string;
  /** Share the VirtualService's catch-all route gives this destination (0 when it is not among them). */
  configuredPercent: number;
  /** Share of the answered plain calls this destination's pods answered. */
  observedPercent: number;
  requests: number;
  /** Calls that failed after reaching a known destination (faults and deadlines are counted per service). */
  errors: number;
  pods: { pod: string; requests: number }[];
}

export interface ServiceTraffic {
  host: string;
  port: number;
  virtualService?: { namespace: string; name: string; spec: unknown };
  /** The host's DestinationRule subsets (what the page's sliders offer). */
  subsets: string[];
  /** Every call in the window, plain and tester. */
  requests: number;
  errors: number;
  errorPercent: number;
  errorsByCode: Record<string, number>;
  meanLatencyMs: number;
  fault?: ConfiguredFault;
  /** Plain calls (no `x-user: tester`), against the catch-all route's weights. */
  destinations: DestinationTraffic[];
  /** Calls with `x-user: tester` (configured: the tester route's destinations, else the catch-all's). */
  tester: { requests: number; errors: number; destinations: DestinationTraffic[] };
  /** The calling pods (`POD.NAMESPACE`): their proxies' route graphs show these routes. */
  callers: string[];
  /** Per source workload. */
  sources: { workload: string; requests: number; errors: number }[];
}

export interface TrafficReport {
  windowSeconds: number;
  /** Whether the data plane is running (false: no demo traffic for this source, or stopped). */
  running: boolean;
  /** Requests per second each client sends. */
  ratePerClient: number;
  /** Share (%) of calls sent with `x-user: tester`. */
  testerPercent: number;
  clients: number;
  backends: { id: string; address: string; state: 'serving' | 'failing'; error?: string }[];
  problems: string[];
  services: ServiceTraffic[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function destinations(counts: readonly CallCount[], configured: readonly ConfiguredDestination[]): DestinationTraffic[] {
  const answered = counts.filter((c) => c.pod !== '');
  const total = answered.reduce((a, c) => a + c.requests, 0);
  const byCluster = new Map<string, DestinationTraffic>();
  for (const d of configured) {
    byCluster.set(d.cluster, {
      cluster: d.cluster,
      subset: d.subset,
      configuredPercent: round1(d.percent),
      observedPercent: 0,
      requests: 0,
      errors: 0,
      pods: [],
    });
  }
  for (const c of answered) {
    let d = byCluster.get(c.cluster);
    if (!d) {
      d = { cluster: c.cluster, subset: c.subset, configuredPercent: 0, observedPercent: 0, requests: 0, errors: 0, pods: [] };
      byCluster.set(c.cluster, d);
    }
    d.requests += c.requests;
    if (c.error) d.errors += c.requests;
    const p = d.pods.find((x) => x.pod === c.pod);
    if (p) p.requests += c.requests;
    else d.pods.push({ pod: c.pod, requests: c.requests });
  }
  for (const d of byCluster.values()) {
    d.observedPercent = total > 0 ? round1((100 * d.requests) / total) : 0;
    d.pods.sort((a, b) => (a.pod < b.pod ? -1 : 1));
  }
  return [...byCluster.values()];
}

export function trafficReport(
  plan: Pick<DemoPlan, 'services' | 'clients'>,
  counts: readonly CallCount[],
  info: Pick<TrafficReport, 'windowSeconds' | 'running' | 'ratePerClient' | 'testerPercent' | 'backends' | 'problems'>,
): TrafficReport {
  const services = plan.services.map((svc): ServiceTraffic => {
    const target = `${svc.host}:${svc.port}`;
    const mine = counts.filter((c) => c.target === target);
    const sum = (cs: readonly CallCount[]) => cs.reduce((a, c) => a + c.requests, 0);
    const failed = mine.filter((c) => c.error !== '');
    const errorsByCode: Record<string, number> = {};
    for (const c of failed) errorsByCode[c.error] = (errorsByCode[c.error] ?? 0) + c.requests;
    const requests = sum(mine);
    const errors = sum(failed);
    const plain = mine.filter((c) => !c.tester);
    const tester = mine.filter((c) => c.tester);
    const sources = new Map<string, { workload: string; requests: number; errors: number }>();
    for (const c of mine) {
      const s = sources.get(c.source) ?? { workload: c.source, requests: 0, errors: 0 };
      s.requests += c.requests;
      if (c.error) s.errors += c.requests;
      sources.set(c.source, s);
    }
    const out: ServiceTraffic = {
      host: svc.host,
      port: svc.port,
      subsets: svc.subsets.map((x) => x.name),
      requests,
      errors,
      errorPercent: requests > 0 ? round1((100 * errors) / requests) : 0,
      errorsByCode,
      meanLatencyMs: requests > 0 ? round1(mine.reduce((a, c) => a + c.latencyMs, 0) / requests) : 0,
      destinations: destinations(plain, svc.destinations),
      tester: {
        requests: sum(tester),
        errors: sum(tester.filter((c) => c.error)),
        destinations: destinations(tester, svc.tester ?? svc.destinations),
      },
      callers: [...new Set(plan.clients.filter((c) => c.host === svc.host && c.port === svc.port).map((c) => c.source))].sort(),
      sources: [...sources.values()],
    };
    if (svc.virtualService) out.virtualService = svc.virtualService;
    if (svc.fault) out.fault = svc.fault;
    return out;
  });
  return { ...info, clients: plan.clients.length, services };
}
