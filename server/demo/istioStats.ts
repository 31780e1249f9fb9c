// The labels Istio's stats filter puts on `istio_requests_total` and `istio_request_duration_milliseconds`
// (istio.io "Istio Standard Metrics"; what Kiali's graph queries group by), for one call of the demo data
// plane as its source sidecar (`reporter="source"`) and its destination sidecar (`reporter="destination"`)
// would report it. Pure: pods, the service plan and the call's outcome in, label values out.
//
// Peers (metadata exchange): workload = the pod's controller (Deployment) name; canonical service =
// `service.istio.io/canonical-name`, else `app.kubernetes.io/name`, else `app`, else the workload;
// canonical revision = `service.istio.io/canonical-revision`, else `app.kubernetes.io/version`, else
// `version`, else `latest`; app / version = the `app` / `version` labels, else `unknown`; principal =
// `spiffe://TRUST_DOMAIN/ns/NS/sa/SA`. A peer the reporter cannot know is `unknown` in every field
// (the source reporter of a call that never reached a pod: an injected abort, no healthy upstream).
//
// gRPC outcomes (the demo's calls are gRPC; `request_protocol="grpc"`):
//   answered                       response_code 200, grpc_response_status 0, response_flags "-"
//   answered after an injected delay (the route's delay fault configured and the call took at least
//     that long)                   as answered, response_flags "DI"
//   aborted by the route's abort fault (the call failed with the gRPC status the abort maps to, gRFC A33)
//                                  response_code = the abort's httpStatus (200 for a grpcStatus abort),
//                                  grpc_response_status = the status the client saw, response_flags "FI",
//                                  destination workload `unknown` (no pod was reached; no destination report)
//   DEADLINE_EXCEEDED              response_code 504, grpc_response_status 4, response_flags "UT"
//   UNAVAILABLE (no abort)         response_code 503, grpc_response_status 14, response_flags "UF"
//   any other status               response_code 200, grpc_response_status = the status, response_flags "-"
import * as grpc from '@grpc/grpc-js';
import type { PodModel, TranslateOptions } from '../model/mesh';

/** The workload a pod belongs to (its Deployment, else its `app` label, else the pod); plan.ts uses it too. */
export function workloadOf(p: PodModel): string {
  return p.owner?.name ?? p.labels.app ?? p.name;
}

/** The fault of the route a call took (plan.ts ConfiguredFault). */
export interface RouteFault {
  delayPercent?: number;
  delay?: string;
  abortPercent?: number;
  abortStatus?: number;
}

export const REQUESTS_TOTAL = 'istio_requests_total';
export const REQUEST_DURATION = 'istio_request_duration_milliseconds';
/** Istio's default buckets for istio_request_duration_milliseconds (ms). */
export const DURATION_BUCKETS = [
  0.5, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 300000, 600000, 1800000, 3600000,
];

export const LABEL_NAMES = [
  'reporter',
  'source_workload',
  'source_canonical_service',
  'source_canonical_revision',
  'source_workload_namespace',
  'source_principal',
  'source_app',
  'source_version',
  'source_cluster',
  'destination_workload',
  'destination_workload_namespace',
  'destination_principal',
  'destination_app',
  'destination_version',
  'destination_service',
  'destination_canonical_service',
  'destination_canonical_revision',
  'destination_service_name',
  'destination_service_namespace',
  'destination_cluster',
  'request_protocol',
  'response_code',
  'grpc_response_status',
  'response_flags',
  'connection_security_policy',
] as const;
export type IstioLabels = Record<(typeof LABEL_NAMES)[number], string>;

export interface Peer {
  workload: string;
  namespace: string;
  canonicalService: string;
  canonicalRevision: string;
  app: string;
  version: string;
  principal: string;
  cluster: string;
}

export const UNKNOWN = 'unknown';
export const UNKNOWN_PEER: Peer = {
  workload: UNKNOWN,
  namespace: UNKNOWN,
  canonicalService: UNKNOWN,
  canonicalRevision: UNKNOWN,
  app: UNKNOWN,
  version: UNKNOWN,
  principal: UNKNOWN,
  cluster: UNKNOWN,
};

export function peerOf(p: PodModel, o: Pick<TranslateOptions, 'trustDomain' | 'clusterId'>): Peer {
  const l = p.labels;
  const workload = workloadOf(p);
  return {
    workload,
    namespace: p.namespace,
    canonicalService: l['service.istio.io/canonical-name'] || l['app.kubernetes.io/name'] || l.app || workload,
    canonicalRevision: l['service.istio.io/canonical-revision'] || l['app.kubernetes.io/version'] || l.version || 'latest',
    app: l.app || UNKNOWN,
    version: l.version || UNKNOWN,
    principal: `spiffe://${o.trustDomain}/ns/${p.namespace}/sa/${p.serviceAccount || 'default'}`,
    cluster: o.clusterId,
  };
}

export interface CallOutcome {
  responseCode: string;
  grpcStatus: string;
  flags: string;
  /** Whether a destination pod answered (then its sidecar reports too). */
  reached: boolean;
}

/** gRFC A33 / grpc's HTTP-to-gRPC mapping of an abort's httpStatus. */
export function grpcStatusOfHttp(code: number): number {
  if (code === 400) return grpc.status.INTERNAL;
  if (code === 401) return grpc.status.UNAUTHENTICATED;
  if (code === 403) return grpc.status.PERMISSION_DENIED;
  if (code === 404) return grpc.status.UNIMPLEMENTED;
  if (code === 429 || code === 502 || code === 503 || code === 504) return grpc.status.UNAVAILABLE;
  return grpc.status.UNKNOWN;
}

/** `5s` / `250ms` / `1.5s` (a VirtualService duration) in ms, or undefined. */
export function durationMs(d: string | undefined): number | undefined {
  const m = d ? /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(d.trim()) : null;
  if (!m) return undefined;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

/**
 * The outcome labels of one call (the rules in this file's header). `fault` is the fault of the route the
 * call took (undefined when it took a route without one); `errorCode` the gRPC status number, if it failed.
 */
export function callOutcome(
  fault: RouteFault | undefined,
  result: { errorCode?: number; answered: boolean; latencyMs: number },
): CallOutcome {
  if (result.answered) {
    const delay = fault?.delay ? durationMs(fault.delay) : undefined;
    const delayed = delay !== undefined && (fault?.delayPercent ?? 0) > 0 && result.latencyMs >= delay;
    return { responseCode: '200', grpcStatus: '0', flags: delayed ? 'DI' : '-', reached: true };
  }
  const code = result.errorCode ?? grpc.status.UNKNOWN;
  if (fault?.abortPercent && fault.abortStatus !== undefined && code === grpcStatusOfHttp(fault.abortStatus))
    return { responseCode: String(fault.abortStatus), grpcStatus: String(code), flags: 'FI', reached: false };
  if (code === grpc.status.DEADLINE_EXCEEDED) return { responseCode: '504', grpcStatus: String(code), flags: 'UT', reached: false };
  if (code === grpc.status.UNAVAILABLE) return { responseCode: '503', grpcStatus: String(code), flags: 'UF', reached: false };
  return { responseCode: '200', grpcStatus: String(code), flags: '-', reached: false };
}

/** The labels one reporter puts on a call from `source` to `host` answered by `dest` (UNKNOWN_PEER when none). */
export function requestLabels(
  reporter: 'source' | 'destination',
  source: Peer,
  dest: Peer,
  host: string,
  o: Pick<TranslateOptions, 'domainSuffix'>,
  outcome: CallOutcome,
): IstioLabels {
  const suffix = `.svc.${o.domainSuffix}`;
  const inCluster = host.endsWith(suffix) ? host.slice(0, -suffix.length).split('.') : [];
  const [svcName, svcNs] = inCluster.length === 2 ? inCluster : [host, UNKNOWN];
  return {
    reporter,
    source_workload: source.workload,
    source_canonical_service: source.canonicalService,
    source_canonical_revision: source.canonicalRevision,
    source_workload_namespace: source.namespace,
    source_principal: reporter === 'destination' ? source.principal : UNKNOWN,
    source_app: source.app,
    source_version: source.version,
    source_cluster: source.cluster,
    destination_workload: dest.workload,
    destination_workload_namespace: dest.namespace,
    destination_principal: dest.principal,
    destination_app: dest.app,
    destination_version: dest.version,
    destination_service: host,
    destination_canonical_service: dest.canonicalService,
    destination_canonical_revision: dest.canonicalRevision,
    destination_service_name: svcName ?? host,
    destination_service_namespace: svcNs ?? UNKNOWN,
    destination_cluster: dest.cluster,
    request_protocol: 'grpc',
    response_code: outcome.responseCode,
    grpc_response_status: outcome.grpcStatus,
    response_flags: outcome.flags,
    // Istio: mutual_tls on the destination side of an mTLS connection; the source reporter says unknown.
    connection_security_policy: reporter === 'destination' ? 'mutual_tls' : UNKNOWN,
  };
}
