// Kiali's istio_requests_total queries (kiali/kiali graph/telemetry/istio/istio.go), built from validated
// values only: every value is a PromQL string literal (promString), hosts inside a regex are regex-escaped
// first (regexLiteral), windows are whole seconds. Pure.
//
// - A service's incoming requests (Kiali's service node, buildNodeTrafficMap case NodeTypeService):
//   1.a source telemetry of requests no destination workload served
//       {reporter="source", destination_workload="unknown", destination_service=~"^NAME\\.NS\\..*$"}
//   1.b destination telemetry of the requests its workloads served
//       {reporter="destination", destination_service_namespace="NS", destination_service=~"^NAME\\.NS\\..*$"}
//   A namespace in ambient mode reports through its waypoint: reporter=~"waypoint|destination" (Kiali's
//   util.GetReporter with the waypoint rates on).
// - Every workload's outgoing requests (Kiali's namespace graph query 3, source telemetry), for the graph.
// Grouped by Kiali's labels; `> 0` drops idle series (Kiali's idleCondition without idle edges).
import { promString, regexLiteral } from './client';

export const REQUESTS_METRIC = 'istio_requests_total';
/** Kiali's group-by for request traffic (istio.go: the HTTP/GRPC request traffic groupBy). */
export const GROUP_BY =
  'source_cluster,source_workload_namespace,source_workload,source_canonical_service,source_canonical_revision,destination_cluster,destination_service_namespace,destination_service,destination_service_name,destination_workload_namespace,destination_workload,destination_canonical_service,destination_canonical_revision,request_protocol,response_code,grpc_response_status,response_flags';
/** The same with destination_version, to map a destination to a DestinationRule subset by its `version` label. */
export const GROUP_BY_WITH_VERSION = `${GROUP_BY},destination_version`;

export const MIN_WINDOW = 1;
export const MAX_WINDOW = 3600;

export interface ServiceQueryInput {
  host: string;
  /** The service's own `NAME.NS` when it is a cluster service (`NAME.NS.svc.DOMAIN`). */
  cluster?: { name: string; namespace: string };
  windowSeconds: number;
  ambient?: boolean;
  source?: { workload: string; namespace: string };
}

const matchers = (pairs: readonly [string, string, '=' | '=~' | '!='][]): string =>
  pairs.map(([k, v, op]) => `${k}${op}${promString(v)}`).join(',');

function serviceMatcher(i: ServiceQueryInput): [string, string, '=' | '=~'] {
  if (i.cluster) return ['destination_service', `^${regexLiteral(i.cluster.name)}\\.${regexLiteral(i.cluster.namespace)}\\..*$`, '=~'];
  return ['destination_service', i.host, '='];
}

function sourceMatchers(i: ServiceQueryInput): [string, string, '=' | '=~'][] {
  return i.source
    ? [
        ['source_workload_namespace', i.source.namespace, '='],
        ['source_workload', i.source.workload, '='],
      ]
    : [];
}

function windowOf(s: number): number {
  if (!Number.isInteger(s) || s < MIN_WINDOW || s > MAX_WINDOW) throw new Error(`window must be ${MIN_WINDOW}–${MAX_WINDOW} whole seconds`);
  return s;
}

/** Kiali's two service-node queries (1.a unserved, 1.b served), in that order. */
export function serviceQueries(i: ServiceQueryInput): { unserved: string; served: string; reporter: string } {
  const w = windowOf(i.windowSeconds);
  const reporter = i.ambient ? 'waypoint|destination' : 'destination';
  const unserved = matchers([
    ['reporter', 'source', '='],
    ['destination_workload', 'unknown', '='],
    serviceMatcher(i),
    ...sourceMatchers(i),
  ]);
  const served = matchers([
    ['reporter', reporter, i.ambient ? '=~' : '='],
    ...(i.cluster ? [['destination_service_namespace', i.cluster.namespace, '='] as [string, string, '=']] : []),
    serviceMatcher(i),
    ...sourceMatchers(i),
  ]);
  return {
    unserved: `sum(rate(${REQUESTS_METRIC}{${unserved}} [${w}s])) by (${GROUP_BY}) > 0`,
    served: `sum(rate(${REQUESTS_METRIC}{${served}} [${w}s])) by (${GROUP_BY_WITH_VERSION}) > 0`,
    reporter,
  };
}

/** Every workload's outgoing requests, source-reported (Kiali's outgoing query without a namespace). */
export function outgoingQuery(windowSeconds: number): string {
  return `sum(rate(${REQUESTS_METRIC}{reporter="source"} [${windowOf(windowSeconds)}s])) by (${GROUP_BY_WITH_VERSION}) > 0`;
}
