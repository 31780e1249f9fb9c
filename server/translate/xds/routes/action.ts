// HTTPRoute destinations → Envoy RouteAction (istio route.go:applyHTTPRouteDestination,
// processDestination, processWeightedDestination, setTimeout).
import type { RouteActionJson, RouteJson, WeightedCluster_ClusterWeightJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPRoute } from '../../../model/istio';
import { num, str, type RouteContext } from './context';
import { destinationCluster } from './destination';
import { normalizeDuration } from '../../../lib/duration';
import { hashPolicy } from './hash';
import { applyHeaderOps, translateHeadersOperations } from './headers';
import { mirrorPolicies } from './mirror';
import { convertRetryPolicy } from './retry';

export interface Problem {
  /** Path relative to the http route, e.g. `route[1].weight`. */
  field: string;
  message: string;
  severity: 'error' | 'warning';
}

/** setTimeout: VirtualService timeout or 0s; max_grpc_timeout = timeout (0s when 0). */
export function routeTimeouts(timeout: string | undefined, problems: Problem[]): Pick<RouteActionJson, 'timeout' | 'maxGrpcTimeout'> {
  let t = '0s';
  if (timeout !== undefined) {
    const d = normalizeDuration(timeout);
    if (d === undefined) problems.push({ field: 'timeout', message: `invalid duration "${String(timeout)}"`, severity: 'error' });
    else t = d;
  }
  return { timeout: t, maxGrpcTimeout: t };
}

/**
 * Builds the route action for a forwarding http route. Returns undefined (with a problem) when the
 * route has no usable destination, which istiod's validation would have rejected.
 */
export function buildRouteAction(
  out: RouteJson,
  http: HTTPRoute,
  ctx: RouteContext,
  authority: string,
  problems: Problem[],
  /** Gateway API routes: an invalid backendRef is an empty destination, routed to UnknownService (not an error). */
  gatewaySemantics = false,
): RouteActionJson | undefined {
  const dests = (Array.isArray(http.route) ? http.route : []).filter((d): d is NonNullable<typeof d> => !!d && typeof d === 'object');
  if (dests.length === 0) {
    problems.push({ field: 'route', message: 'http route has no destination, redirect or directResponse', severity: 'error' });
    return undefined;
  }
  const action: RouteActionJson = {};
  if (http.rewrite) {
    const rx = http.rewrite.uriRegexRewrite;
    if (rx && typeof rx === 'object')
      action.regexRewrite = { pattern: { regex: str(rx.match) ?? '' }, substitution: str(rx.rewrite) ?? '' };
    else if (str(http.rewrite.uri)) action.prefixRewrite = str(http.rewrite.uri);
    if (str(http.rewrite.authority)) authority = str(http.rewrite.authority) as string;
  }
  if (authority) action.hostRewriteLiteral = authority;

  let consistentHash = false;
  if (dests.length === 1) {
    const dst = dests[0] as NonNullable<HTTPRoute['route']>[number];
    action.cluster = (ctx.destinationCluster ?? destinationCluster)(
      dst.destination ?? { host: '' },
      ctx.serviceLookup(str(dst.destination?.host) ?? ''),
      ctx.listenerPort,
    );
    if (dst.headers) {
      const ops = translateHeadersOperations(dst.headers);
      applyHeaderOps(out, ops);
      // The destination authority only applies when the route-level rewrite did not set one.
      if (ops.authority && action.hostRewriteLiteral === undefined) action.hostRewriteLiteral = ops.authority;
    }
    const h = ctx.consistentHash?.(dst);
    const hp = hashPolicy(h);
    if (hp) action.hashPolicy = [hp];
    consistentHash = h !== undefined;
  } else {
    const clusters: WeightedCluster_ClusterWeightJson[] = [];
    dests.forEach((dst, i) => {
      const weight = Math.trunc(num(dst.weight) ?? 0);
      if (weight < 0 || weight > 0xffffffff)
        problems.push({ field: `route[${i}].weight`, message: `invalid weight ${String(dst.weight)}`, severity: 'error' });
      if (!(weight > 0 && weight <= 0xffffffff)) return; // weight-0 destinations are dropped when there are several
      const cw: WeightedCluster_ClusterWeightJson = {
        name: (ctx.destinationCluster ?? destinationCluster)(
          dst.destination ?? { host: '' },
          ctx.serviceLookup(str(dst.destination?.host) ?? ''),
          ctx.listenerPort,
        ),
        weight,
      };
      if (dst.headers) {
        const ops = translateHeadersOperations(dst.headers);
        applyHeaderOps(cw, ops);
        if (ops.authority) cw.hostRewriteLiteral = ops.authority;
      }
      clusters.push(cw);
      const hp = hashPolicy(ctx.consistentHash?.(dst));
      if (hp) (action.hashPolicy ??= []).push(hp);
    });
    if (clusters.length === 0) {
      problems.push({ field: 'route', message: 'all destinations have weight 0', severity: 'error' });
      return undefined;
    }
    action.weightedClusters = { clusters };
  }
  dests.forEach((d, i) => {
    if (!str(d.destination?.host) && !gatewaySemantics)
      problems.push({ field: `route[${i}].destination.host`, message: 'destination host is required', severity: 'error' });
  });

  Object.assign(action, routeTimeouts(http.timeout, problems));
  const mirrors = mirrorPolicies(http, ctx);
  if (mirrors.length) action.requestMirrorPolicies = mirrors;
  const retry = convertRetryPolicy(http.retries ?? ctx.defaultRetryPolicy, consistentHash);
  for (const p of retry.problems) problems.push({ field: `retries.${p.field}`, message: p.message, severity: 'error' });
  if (retry.policy) action.retryPolicy = retry.policy;
  return action;
}
