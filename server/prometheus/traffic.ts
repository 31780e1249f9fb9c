// Observed traffic of one service from Kiali's query results, beside meshscope's configured split. Pure.
// Kiali's rules (kiali/kiali graph/protocol.go, graph/telemetry/istio/util/util.go, graph/config/common):
// - the response code of a series: `-` when response_code is 0 (no response); for gRPC the
//   grpc_response_status unless the HTTP code is a 4xx/5xx (HandleResponseCode);
// - an error: no response, an HTTP 4xx/5xx, or a gRPC status other than 0 (IsHTTPErr, IsGRPCErr);
// - an edge's percentage: the edge's requests over its source node's outgoing requests (addEdgeTelemetry),
//   here with the service as the source node of its edges to workloads (Kiali's injected service node),
//   so `observedPercent` is a share of the requests the service's workloads served;
// - response flags as a share of all requests (addEdgeTelemetry: value / total × 100).
import type { MeshSnapshot, PodModel } from '../model/mesh';
import type { Sample } from './client';

export interface ObservedDestination {
  subset: string;
  version: string;
  workload: string;
  cluster: string;
  requestsPerSecond: number;
  observedPercent: number;
  configuredPercent: number;
}

export interface ObservedService {
  host: string;
  reporter: string;
  requestsPerSecond: number;
  errorPercent: number;
  /** Response code (Kiali's: gRPC status, HTTP code or `-`) → its rate, share and response flags (share of all requests). */
  responseCodes: Record<string, { requestsPerSecond: number; percent: number; flags: Record<string, number> }>;
  destinations: ObservedDestination[];
  sources: { workload: string; namespace: string; requestsPerSecond: number; errorPercent: number; percent: number }[];
}

export interface ConfiguredDestination {
  subset: string;
  cluster: string;
  percent: number;
}

export const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Kiali's HandleResponseCode. */
export function responseCodeOf(m: Record<string, string>): string {
  const code = m.response_code ?? '';
  if (code === '0') return '-';
  const protocol = m.request_protocol ?? '';
  if (protocol !== 'grpc' || /^[45]/.test(code) || m.grpc_response_status === undefined) return code;
  return m.grpc_response_status;
}

/** Kiali's IsHTTPErr / IsGRPCErr for the code responseCodeOf gives. */
export function isErrorCode(protocol: string, code: string): boolean {
  if (code === '-') return true;
  if (protocol === 'grpc' && code.length !== 3) return code !== '0' && code !== '';
  return /^[45]/.test(code);
}

export interface SubsetSpec {
  name: string;
  labels: Readonly<Record<string, string>>;
}

/**
 * The DestinationRule subset a destination workload belongs to: the first subset whose labels its pods
 * carry (the pods of `workload` in `namespace`); without pods in the snapshot, the subset whose labels are
 * satisfied by `version` = destination_version and `app` = destination canonical service.
 */
export function subsetOf(
  subsets: readonly SubsetSpec[],
  pods: readonly PodModel[],
  d: { workload: string; namespace: string; version: string; canonicalService: string },
): string {
  const own = pods.find((p) => p.namespace === d.namespace && (p.owner?.name ?? p.name) === d.workload);
  const labels: Readonly<Record<string, string>> = own?.labels ?? {
    ...(d.version && d.version !== 'unknown' ? { version: d.version } : {}),
    ...(d.canonicalService && d.canonicalService !== 'unknown' ? { app: d.canonicalService } : {}),
  };
  return subsets.find((s) => Object.entries(s.labels).every(([k, v]) => labels[k] === v))?.name ?? '';
}

export interface ServiceTrafficInput {
  host: string;
  /** The service's first port (for the Envoy cluster name `outbound|PORT|SUBSET|HOST`). */
  port: number;
  reporter: string;
  unserved: readonly Sample[];
  served: readonly Sample[];
  subsets: readonly SubsetSpec[];
  configured: readonly ConfiguredDestination[];
  snapshot: Pick<MeshSnapshot, 'pods'>;
}

export function observedService(i: ServiceTrafficInput): ObservedService {
  const all = [...i.unserved, ...i.served];
  const total = all.reduce((a, s) => a + s.value, 0);
  let errors = 0;
  const codes = new Map<string, { rps: number; flags: Map<string, number> }>();
  const sources = new Map<string, { workload: string; namespace: string; rps: number; err: number }>();
  for (const s of all) {
    const m = s.metric;
    const code = responseCodeOf(m);
    const err = isErrorCode(m.request_protocol ?? '', code);
    if (err) errors += s.value;
    const c = codes.get(code) ?? { rps: 0, flags: new Map() };
    c.rps += s.value;
    const flag = m.response_flags ?? '-';
    c.flags.set(flag, (c.flags.get(flag) ?? 0) + s.value);
    codes.set(code, c);
    const sk = `${m.source_workload ?? 'unknown'}.${m.source_workload_namespace ?? 'unknown'}`;
    const src = sources.get(sk) ?? {
      workload: m.source_workload ?? 'unknown',
      namespace: m.source_workload_namespace ?? 'unknown',
      rps: 0,
      err: 0,
    };
    src.rps += s.value;
    if (err) src.err += s.value;
    sources.set(sk, src);
  }
  // Served requests per destination workload (the service node's outgoing edges).
  const dests = new Map<string, { workload: string; version: string; subset: string; rps: number }>();
  for (const s of i.served) {
    const m = s.metric;
    const workload = m.destination_workload ?? 'unknown';
    const version =
      m.destination_version && m.destination_version !== 'unknown' ? m.destination_version : (m.destination_canonical_revision ?? '');
    const subset = subsetOf(i.subsets, i.snapshot.pods, {
      workload,
      namespace: m.destination_workload_namespace ?? '',
      version: m.destination_version ?? '',
      canonicalService: m.destination_canonical_service ?? '',
    });
    const k = `${workload}|${m.destination_workload_namespace ?? ''}|${subset}`;
    const d = dests.get(k) ?? { workload, version, subset, rps: 0 };
    d.rps += s.value;
    dests.set(k, d);
  }
  const served = [...dests.values()].reduce((a, d) => a + d.rps, 0);
  const configured = new Map<string, number>();
  for (const c of i.configured) configured.set(c.subset, (configured.get(c.subset) ?? 0) + c.percent);
  const cluster = (subset: string) => `outbound|${i.port}|${subset}|${i.host}`;
  const destinations: ObservedDestination[] = [...dests.values()].map((d) => ({
    subset: d.subset,
    version: d.version,
    workload: d.workload,
    cluster: cluster(d.subset),
    requestsPerSecond: round(d.rps, 3),
    observedPercent: served > 0 ? round((100 * d.rps) / served, 1) : 0,
    configuredPercent: round(configured.get(d.subset) ?? 0, 1),
  }));
  // Configured destinations no request reached: shown with 0 observed (the comparison needs both sides).
  for (const [subset, percent] of configured) {
    if (destinations.some((d) => d.subset === subset)) continue;
    destinations.push({
      subset,
      version: '',
      workload: '',
      cluster: cluster(subset),
      requestsPerSecond: 0,
      observedPercent: 0,
      configuredPercent: round(percent, 1),
    });
  }
  destinations.sort((a, b) => (a.subset < b.subset ? -1 : a.subset > b.subset ? 1 : a.workload < b.workload ? -1 : 1));
  const pct = (x: number) => (total > 0 ? round((100 * x) / total, 1) : 0);
  return {
    host: i.host,
    reporter: i.reporter,
    requestsPerSecond: round(total, 3),
    errorPercent: pct(errors),
    responseCodes: Object.fromEntries(
      [...codes.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([code, c]) => [
          code,
          { requestsPerSecond: round(c.rps, 3), percent: pct(c.rps), flags: Object.fromEntries([...c.flags].map(([f, v]) => [f, pct(v)])) },
        ]),
    ),
    destinations,
    sources: [...sources.values()]
      .sort((a, b) => b.rps - a.rps)
      .map((s) => ({
        workload: s.workload,
        namespace: s.namespace,
        requestsPerSecond: round(s.rps, 3),
        errorPercent: s.rps > 0 ? round((100 * s.err) / s.rps, 1) : 0,
        percent: pct(s.rps),
      })),
  };
}
