// A waypoint's inline HTTP route configs (listener_waypoint.go buildWaypointInboundHTTPRouteConfig,
// getVirtualServiceForWaypoint, waypointInboundRoute, translateWaypointRoute, getWaypointDestinationCluster,
// portToSubset; httproute.go buildSidecarInboundHTTPRouteConfig for the default). One vhost `inbound|http|PORT`
// with domains `*`: the VIP already chose the Service. Pure.
import type { RouteJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { RouteConfigurationJson } from '../../types';
import type { Destination, HTTPMatchRequest } from '../../../model/istio';
import type { LoadError, ServiceModel } from '../../../model/mesh';
import { hostsMatch } from '../../../model/host';
import { isHttpProtocol } from '../../../model/protocol';
import { outboundCluster } from '../../names';
import type { BoundVirtualService, ProxyView } from '../../view/types';
import { hashForDestination, hashForService, hashPolicy } from '../routes/hash';
import { defaultOutboundRoute, traceOperation } from '../routes/defaultRoute';
import { isCatchAllRoute } from '../routes/match';
import { translateRoute, type RouteContext } from '../routes/httpRoutes';
import { vsError } from '../routes/context';
import type { Problem } from '../routes/action';
import { MAX_DIRECT_RESPONSE_BODY_BYTES } from '../routes/sidecarRouteConfigs';
import type { RouteSourceSink } from '../../routeSources';
import { inboundVipCluster } from './names';

/** getVirtualServiceForWaypoint: VirtualServices of the waypoint's or the Service's namespace with a host matching it. */
export function virtualServicesForWaypoint(view: ProxyView, svc: ServiceModel): BoundVirtualService[] {
  return view.virtualServices.filter(
    (vs) =>
      (vs.meta.namespace === view.proxy.namespace || vs.meta.namespace === svc.namespace) &&
      (vs.spec.hosts ?? []).some((h) => hostsMatch(String(h), svc.hostname)),
  );
}

/** portToSubset: `http`/`tcp` by the port's protocol (unknown port → `http`), `/<subset>` appended. */
export function portToSubset(service: ServiceModel | undefined, port: number, dst: Destination | undefined): string {
  const p = service?.ports.find((x) => x.port === port);
  const subset = typeof dst?.subset === 'string' ? dst.subset : '';
  if (!p) return subset ? `http/${subset}` : 'http';
  const base = isHttpProtocol(p.protocol) || p.protocol === 'Unsupported' ? 'http' : 'tcp';
  return subset ? `${base}/${subset}` : base;
}

/**
 * getWaypointDestinationCluster: `inbound-vip|PORT|http[/subset]|HOST` for a Service this waypoint serves,
 * `outbound|PORT|SUBSET|HOST` for any other; port = destination port, else the Service's only port, else the
 * listener port; no host → UnknownService.
 */
export function waypointDestinationCluster(
  bound: ReadonlyMap<string, ServiceModel>,
): (dst: Destination, service: ServiceModel | undefined, listenerPort: number) => string {
  return (dst, service, listenerPort) => {
    const host = typeof dst?.host === 'string' ? dst.host : '';
    if (!host) return 'UnknownService';
    let port = listenerPort;
    if (dst.port && typeof dst.port === 'object' && dst.port.number !== undefined) port = Number(dst.port.number);
    else if (service && service.ports.length === 1) port = service.ports[0]!.port;
    if (service && !bound.has(service.hostname)) return outboundCluster(port, host, typeof dst.subset === 'string' ? dst.subset : '');
    return inboundVipCluster(portToSubset(service, port, dst), host, port);
  };
}

export interface WaypointRouteInput {
  view: ProxyView;
  svc: ServiceModel;
  port: number;
  /** The chain's cluster name: also the route config's name and the default route's cluster. */
  clusterName: string;
  bound: ReadonlyMap<string, ServiceModel>;
  errors: LoadError[];
  routeSources?: RouteSourceSink;
}

/**
 * waypointInboundRoute: every http rule of the VirtualService in order; a match with sourceLabels is dropped
 * (ambient cannot know the client's labels, istio#51565); a rule without match, or a catch-all route, ends it.
 */
function waypointRoutes(vs: BoundVirtualService, ctx: RouteContext, errors: LoadError[]): RouteJson[] {
  const out: RouteJson[] = [];
  const http = vs.spec.http ?? [];
  for (let i = 0; i < http.length; i++) {
    const rule = http[i]!;
    const problems: Problem[] = [];
    const record = (r: RouteJson | undefined, match?: number) => {
      if (!r) return;
      out.push(r);
      ctx.routeSources?.record(r, {
        kind: 'VirtualService',
        namespace: vs.meta.namespace,
        name: vs.meta.name,
        rule: `http[${i}]`,
        ...(match !== undefined ? { match } : {}),
      });
    };
    if (!rule.match || rule.match.length === 0) {
      record(translateRoute(vs, rule, undefined, ctx, problems));
      for (const p of problems) errors.push(vsError(vs, `spec.http[${i}].${p.field}`, p.message, p.severity));
      return out;
    }
    let catchAll = false;
    rule.match.forEach((m: HTTPMatchRequest, j) => {
      if (catchAll || Object.keys(m.sourceLabels ?? {}).length > 0) return;
      const r = translateRoute(vs, rule, m, ctx, problems);
      record(r, j);
      if (r && isCatchAllRoute(r)) catchAll = true;
    });
    for (const p of problems) errors.push(vsError(vs, `spec.http[${i}].${p.field}`, p.message, p.severity));
    if (catchAll) return out;
  }
  return out;
}

/** buildWaypointInboundHTTPRouteConfig: the merged VirtualService routes, else the default outbound-style route. */
export function waypointRouteConfig(i: WaypointRouteInput): RouteConfigurationJson {
  const { view, svc, port } = i;
  const routes: RouteJson[] = [];
  const ctx: RouteContext = {
    listenerPort: port,
    gatewayNames: new Set(['mesh']),
    proxyLabels: view.proxy.labels,
    proxyNamespace: view.proxy.namespace,
    serviceLookup: (h) => view.service(h),
    consistentHash: (d) => hashForDestination(view.destinationRule(String(d.destination?.host ?? ''))?.spec, d.destination ?? { host: '' }),
    isGateway: false,
    destinationCluster: waypointDestinationCluster(i.bound),
    ...(view.options.defaultHttpRetryPolicy ? { defaultRetryPolicy: view.options.defaultHttpRetryPolicy } : {}),
    ...(i.routeSources ? { routeSources: i.routeSources } : {}),
  };
  for (const vs of virtualServicesForWaypoint(view, svc)) {
    if (!vs.spec.http) continue;
    routes.push(...waypointRoutes(vs, ctx, i.errors));
  }
  const vhostName = `inbound|http|${port}`;
  if (routes.length > 0)
    return { name: i.clusterName, virtualHosts: [{ name: vhostName, domains: ['*'], routes }], validateClusters: false };
  const hp = hashPolicy(hashForService(view.inboundDestinationRule(svc.hostname)?.spec, port));
  const def = defaultOutboundRoute(i.clusterName, traceOperation(svc.hostname, port), hp, view.options.defaultHttpRetryPolicy);
  return {
    name: i.clusterName,
    virtualHosts: [{ name: vhostName, domains: ['*'], routes: [def] }],
    maxDirectResponseBodySizeBytes: MAX_DIRECT_RESPONSE_BODY_BYTES,
    validateClusters: false,
  };
}
