// A waypoint's clusters (cluster.go buildClusters `case model.Waypoint`; cluster_waypoint.go
// buildWaypointInboundClusters, buildWaypointInboundVIP(Cluster), buildInternalUpstreamCluster,
// buildWaypointConnectOriginate; waypoint.go filterWaypointOutboundServices): `main_internal` and `encap`
// (STATIC, one internal endpoint), `inbound-vip|PORT|tcp|http[/subset]|HOST` per bound Service port (EDS, the
// DestinationRule's policy, an internal_upstream transport socket passing the tunnel metadata through),
// `connect_originate` (ORIGINAL_DST to port 15008 over HBONE TLS), and `outbound|…` clusters only for Services a
// bound Service's VirtualService routes to but this waypoint does not serve. As for every proxy, the
// HttpProtocolOptions (h2 / CONNECT upgrade) are not generated (see ../clusters/index.ts). Pure.
import type { LoadError, ServiceModel, ServicePort } from '../../../model/mesh';
import { isHttpProtocol } from '../../../model/protocol';
import { configPathOf } from '../../provenance';
import type { ClusterJson } from '../../types';
import type { ProxyView } from '../../view/types';
import { applyEdsConfig, baseCluster, convertResolution, istioMetadata } from '../clusters/base';
import { buildServicePortClusters } from '../clusters/outbound';
import { applyTrafficPolicy } from '../clusters/trafficPolicy/apply';
import { defaultThresholds } from '../clusters/trafficPolicy/connectionPool';
import { mergeSubsetPolicy, portLevelPolicy } from '../clusters/trafficPolicy/select';
import { CONNECT_ORIGINATE, ENCAP, inboundVipCluster, MAIN_INTERNAL, ORIGINAL_DST_METADATA } from './names';
import type { WaypointResources } from './resources';
import { connectOriginateCluster } from '../hbone/connectOriginate';
import { virtualServicesForWaypoint } from './routes';

const T_INTERNAL_UPSTREAM = 'type.googleapis.com/envoy.extensions.transport_sockets.internal_upstream.v3.InternalUpstreamTransport';
const T_RAW_BUFFER = 'type.googleapis.com/envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer';
const rawBuffer = { name: 'envoy.transport_sockets.raw_buffer', typedConfig: { '@type': T_RAW_BUFFER } };

/** util.DefaultInternalUpstreamTransportSocket: internal_upstream around raw_buffer. */
const defaultInternalUpstream = () => ({
  name: 'internal_upstream',
  typedConfig: { '@type': T_INTERNAL_UPSTREAM, transportSocket: rawBuffer },
});
/** util.WaypointInternalUpstreamTransportSocket: also passes the host's original_dst and istio metadata through. */
const waypointInternalUpstream = () => ({
  name: 'internal_upstream',
  typedConfig: {
    '@type': T_INTERNAL_UPSTREAM,
    passthroughMetadata: [
      { kind: { host: {} }, name: ORIGINAL_DST_METADATA },
      { kind: { host: {} }, name: 'istio' },
    ],
    transportSocket: rawBuffer,
  },
});

/** buildInternalUpstreamCluster: STATIC, one endpoint at the internal listener. */
function internalUpstreamCluster(name: string, listener: string): ClusterJson {
  return {
    name,
    type: 'STATIC',
    circuitBreakers: { thresholds: [defaultThresholds()] },
    loadAssignment: {
      clusterName: name,
      endpoints: [{ lbEndpoints: [{ endpoint: { address: { envoyInternalAddress: { serverListenerName: listener } } } }] }],
    },
    transportSocket: defaultInternalUpstream(),
    altStatName: `${name};`,
  } as ClusterJson;
}

/** buildWaypointConnectOriginate: URI SAN prefix `spiffe://<trust domain>/ns/<waypoint ns>/sa/`. */
const waypointConnectOriginate = (view: ProxyView): ClusterJson =>
  connectOriginateCluster(view.options.connectTimeout, [`spiffe://${view.options.trustDomain}/ns/${view.proxy.namespace}/sa/`]);

/** buildWaypointInboundVIPCluster for one (port, subset): EDS, policy, services metadata, waypoint transport socket. */
function vipCluster(view: ProxyView, svc: ServiceModel, port: ServicePort, subset: string, errors: LoadError[]): ClusterJson | undefined {
  const dr = view.inboundDestinationRule(svc.hostname);
  const [proto, subsetName] = subset.split('/', 2) as [string, string?];
  void proto;
  const name = inboundVipCluster(subset, svc.hostname, port.port);
  const c = baseCluster({ name, type: convertResolution('sidecar', svc), proxy: view.proxy, services: [svc] });
  if (!c) return undefined;
  let policy = portLevelPolicy(dr?.spec.trafficPolicy, 'spec.trafficPolicy', port.port);
  if (subsetName) {
    const s = (dr?.spec.subsets ?? []).find((x) => x.name === subsetName);
    policy = mergeSubsetPolicy(policy, portLevelPolicy(s?.trafficPolicy, 'spec.subsets.trafficPolicy', port.port));
  }
  const rule = dr?.from[0];
  applyTrafficPolicy(c, policy, 'outbound', view.options.connectTimeout, {
    errors,
    ...(rule ? { object: `DestinationRule ${rule.meta.namespace}/${rule.meta.name}` } : {}),
  });
  applyEdsConfig(c);
  if (rule) istioMetadata(c)['config'] = configPathOf(rule);
  if (subsetName) istioMetadata(c)['subset'] = subsetName;
  c.transportSocket = waypointInternalUpstream() as ClusterJson['transportSocket'];
  return c;
}

/** buildWaypointInboundVIP: tcp and/or http per port (sniffed ports get both), then per DestinationRule subset. */
function vipClusters(view: ProxyView, res: WaypointResources, errors: LoadError[]): ClusterJson[] {
  const out: ClusterJson[] = [];
  for (const svc of res.services) {
    const subsets = (view.inboundDestinationRule(svc.hostname)?.spec.subsets ?? []).map((s) => s.name);
    for (const port of svc.ports) {
      if (port.protocol === 'UDP') continue;
      const sniffed = port.protocol === 'Unsupported';
      const tcp = sniffed || !isHttpProtocol(port.protocol);
      const http = sniffed || isHttpProtocol(port.protocol);
      for (const suffix of ['', ...subsets.map((s) => `/${s}`)]) {
        if (tcp) out.push(...[vipCluster(view, svc, port, `tcp${suffix}`, errors)].filter((c): c is ClusterJson => !!c));
        if (http) out.push(...[vipCluster(view, svc, port, `http${suffix}`, errors)].filter((c): c is ClusterJson => !!c));
      }
    }
  }
  return out;
}

/**
 * filterWaypointOutboundServices: the Services the bound Services' VirtualServices route to (or mirror to)
 * that this waypoint does not serve (or that are mesh-external).
 */
export function waypointOutboundServices(view: ProxyView, res: WaypointResources): ServiceModel[] {
  const refs = new Set<string>();
  for (const svc of res.services)
    for (const vs of virtualServicesForWaypoint(view, svc)) {
      for (const h of vs.spec.http ?? []) {
        for (const d of h.route ?? []) refs.add(String(d.destination?.host ?? ''));
        if (h.mirror?.host) refs.add(String(h.mirror.host));
      }
      for (const r of [...(vs.spec.tcp ?? []), ...(vs.spec.tls ?? [])])
        for (const d of r.route ?? []) refs.add(String(d.destination?.host ?? ''));
    }
  return view.services.filter((s) => refs.has(s.hostname) && (!res.byHost.has(s.hostname) || res.byHost.get(s.hostname)!.meshExternal));
}

export function buildWaypointClusters(view: ProxyView, res: WaypointResources, errors: LoadError[]): ClusterJson[] {
  const outbound: ClusterJson[] = [];
  const pods = view.pods();
  for (const svc of waypointOutboundServices(view, res))
    for (const port of svc.ports) outbound.push(...buildServicePortClusters({ view, pods, errors }, svc, port));
  return [
    ...outbound,
    internalUpstreamCluster(MAIN_INTERNAL, MAIN_INTERNAL),
    internalUpstreamCluster(ENCAP, CONNECT_ORIGINATE),
    ...vipClusters(view, res, errors),
    waypointConnectOriginate(view),
  ];
}
