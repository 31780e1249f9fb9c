// DestinationRule consistent hash → RouteAction.hash_policy (istio route.go consistentHashToHashPolicy,
// hashForHTTPDestination, hashForService).
import type { RouteAction_HashPolicyJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { Destination, DestinationRuleSpec, TrafficPolicy } from '../../../model/istio';
import type { ConsistentHashLB } from './context';
import { normalizeDuration } from '../../../lib/duration';

type PortSettings = NonNullable<TrafficPolicy['portLevelSettings']>;

function portLevelHash(dst: Destination, pls: PortSettings | undefined): ConsistentHashLB | undefined {
  if (dst.port === undefined || dst.port === null) return undefined;
  const n = dst.port.number ?? 0;
  for (const s of pls ?? []) if ((s.port?.number ?? 0) === n) return s.loadBalancer?.consistentHash;
  return undefined;
}

/** hashForHTTPDestination: subset port-level > subset > port-level (destination port given) > top-level. */
export function hashForDestination(dr: DestinationRuleSpec | undefined, dst: Destination): ConsistentHashLB | undefined {
  if (!dr) return undefined;
  let hash = dr.trafficPolicy?.loadBalancer?.consistentHash;
  const plsHash = portLevelHash(dst, dr.trafficPolicy?.portLevelSettings);
  let subsetHash: ConsistentHashLB | undefined;
  let subsetPlsHash: ConsistentHashLB | undefined;
  for (const s of dr.subsets ?? []) {
    if (s.name === (dst.subset ?? '')) {
      subsetHash = s.trafficPolicy?.loadBalancer?.consistentHash;
      subsetPlsHash = portLevelHash(dst, s.trafficPolicy?.portLevelSettings);
      break;
    }
  }
  if (subsetPlsHash) hash = subsetPlsHash;
  else if (subsetHash) hash = subsetHash;
  else if (plsHash) hash = plsHash;
  return hash;
}

/** hashForService: top-level hash, overridden by the first port-level setting for the port that has one. */
export function hashForService(dr: DestinationRuleSpec | undefined, port: number): ConsistentHashLB | undefined {
  if (!dr) return undefined;
  let hash = dr.trafficPolicy?.loadBalancer?.consistentHash;
  for (const s of dr.trafficPolicy?.portLevelSettings ?? []) {
    if ((s.port?.number ?? 0) === port) {
      if (s.loadBalancer?.consistentHash) hash = s.loadBalancer.consistentHash;
      break;
    }
  }
  return hash;
}

/** consistentHashToHashPolicy; undefined for ring-size-only or empty hashes. */
export function hashPolicy(h: ConsistentHashLB | undefined): RouteAction_HashPolicyJson | undefined {
  if (!h) return undefined;
  if (h.httpHeaderName !== undefined) return { header: { headerName: String(h.httpHeaderName) } };
  if (h.httpCookie !== undefined) {
    const cookie: NonNullable<RouteAction_HashPolicyJson['cookie']> = { name: String(h.httpCookie?.name ?? '') };
    const ttl = h.httpCookie?.ttl !== undefined ? normalizeDuration(h.httpCookie.ttl) : undefined;
    if (ttl !== undefined) cookie.ttl = ttl;
    if (typeof h.httpCookie?.path === 'string' && h.httpCookie.path) cookie.path = h.httpCookie.path;
    return { cookie };
  }
  if (h.useSourceIp !== undefined) return { connectionProperties: h.useSourceIp ? { sourceIp: true } : {} };
  if (h.httpQueryParameterName !== undefined) return { queryParameter: { name: String(h.httpQueryParameterName) } };
  return undefined;
}
