// HBONE endpoints (pilot/pkg/xds/endpoints/endpoint_builder.go): buildEnvoyLbEndpoint turns an endpoint that
// supports the tunnel into the internal address of `connect_originate` (endpoint_id `IP:PORT`), its logical
// destination in `envoy.filters.listener.original_dst.local` and, outside a waypoint's inbound-vip clusters,
// `envoy.transport_socket_match.tunnel = http` (which picks the cluster's `hbone` transport socket match).
// supportTunnel: the endpoint is a waypoint pod (gateway.istio.io/managed: istio.io-mesh-controller), carries
// `networking.istio.io/tunnel: http`, or is an ambient workload (the ambient index). Only when needed: an endpoint
// with a sidecar (tlsMode istio) keeps Istio mTLS (PREFER_HBONE is off by default), and a proxy with
// DISABLE_HBONE_SEND sends none — except to a waypoint, always HBONE.
// findServiceWaypoint: a router sends a Service's traffic to the Service's waypoint (the waypoint Service's endpoints
// on its HBONE port, `original_dst.local` the Service VIP:port, `original_dst.waypoint` the waypoint pod IP:15008)
// only when the Service or its namespace says istio.io/ingress-use-waypoint (EnableIngressWaypointRouting); sidecars
// never: they send to the workloads (buildEnvoyLbEndpoint's comment on service waypoints). Pure.
import type { MeshSnapshot, PodModel, ServiceModel } from '../../../model/mesh';
import { isIP } from '../../../model/host';
import { proxyKind } from '../../../model/proxyKinds';
import type { ProxyView } from '../../view/types';
import { buildLocalityLbEndpoints, type LocalityLbEndpointsJson } from '../endpoints/localityEndpoints';
import { CONNECT_ORIGINATE, ORIGINAL_DST_METADATA } from './connectOriginate';
import { disablesHboneSend, hboneSendEnabled, ingressWaypointRoutingEnabled } from './profile';

type LbEndpoint = NonNullable<LocalityLbEndpointsJson['lbEndpoints']>[number];

const TRANSPORT_SOCKET_MATCH = 'envoy.transport_socket_match';

/** net.JoinHostPort. */
const joinHostPort = (ip: string, port: number): string => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);

/** A waypoint endpoint's tunnel target: the Service VIP:port behind the tunnel, the waypoint pod IP:port to dial. */
export interface ViaWaypoint {
  local: string;
  waypoint: string;
}

/**
 * An endpoint rewritten to go through connect_originate (HBONE). `waypointInbound`: a waypoint's inbound-vip
 * cluster (TrafficDirectionInboundVIP), which gets no tunnel transport-socket match.
 */
export function toHbone(ep: LbEndpoint, waypointInbound: boolean, via?: ViaWaypoint): LbEndpoint {
  const sa = ep.endpoint?.address?.socketAddress;
  if (!sa) return ep;
  const own = joinHostPort(sa.address ?? '', sa.portValue ?? 0);
  const target = via ? via.waypoint : own;
  const fm: Record<string, unknown> = { ...(ep.metadata?.filterMetadata ?? {}) };
  fm[ORIGINAL_DST_METADATA] = via ? { local: via.local, waypoint: via.waypoint } : { local: own };
  if (waypointInbound) delete fm[TRANSPORT_SOCKET_MATCH];
  else fm[TRANSPORT_SOCKET_MATCH] = { tunnel: 'http' };
  return {
    ...ep,
    endpoint: { address: { envoyInternalAddress: { serverListenerName: CONNECT_ORIGINATE, endpointId: target } } },
    metadata: { filterMetadata: fm as never },
  };
}

/** `networking.istio.io/tunnel` lists `http` (model.TunnelHTTP). */
const tunnelLabel = (p: PodModel): boolean => (p.labels['networking.istio.io/tunnel'] ?? '').split(',').some((t) => t.trim() === 'http');

/**
 * supportTunnel, by IP: a waypoint's own pods (gateway.istio.io/managed mesh controller), `networking.istio.io/tunnel:
 * http`, or ambient-enrolled pods (push.SupportsTunnel: the ambient index's workload at that address speaks HBONE).
 */
export function tunnelIps(snapshot: MeshSnapshot): Set<string> {
  const out = new Set<string>();
  const index = snapshot.ambient;
  for (const p of snapshot.pods) {
    const waypoint = p.labels['gateway.istio.io/managed'] === 'istio.io-mesh-controller';
    if (p.ip && (tunnelLabel(p) || waypoint || index?.workloads.get(`${p.namespace}/${p.name}`)?.ambient)) out.add(p.ip);
  }
  return out;
}

/** The endpoint speaks Istio mTLS (e.TLSMode == istio): istiod keeps mTLS rather than HBONE (PreferHBONESend off). */
const hasSidecarMtls = (ep: LbEndpoint): boolean => {
  const m = ep.metadata?.filterMetadata?.[TRANSPORT_SOCKET_MATCH] as { tlsMode?: string } | undefined;
  return m?.tlsMode === 'istio';
};

/**
 * buildEnvoyLbEndpoint's tunnel decision for an outbound (or waypoint outbound) cluster of a sidecar, gateway or
 * waypoint under the ambient profile: each endpoint that supports the tunnel and has no sidecar becomes HBONE.
 * Without the ambient profile (or with DISABLE_HBONE_SEND) the groups are returned as they are.
 */
export function applyHboneSend(view: ProxyView, groups: LocalityLbEndpointsJson[], tunnel: ReadonlySet<string>): LocalityLbEndpointsJson[] {
  if (!hboneSendEnabled(view.snapshot) || disablesHboneSend(view.proxy) || tunnel.size === 0) return groups;
  return groups.map((g) => ({
    ...g,
    lbEndpoints: (g.lbEndpoints ?? []).map((e) =>
      tunnel.has(e.endpoint?.address?.socketAddress?.address ?? '') && !hasSidecarMtls(e) ? toHbone(e, false) : e,
    ),
  }));
}

/**
 * findServiceWaypoint + waypointEndpoints + generate(toServiceWaypoint): the endpoints a proxy of a kind that calls
 * service waypoints (routers) sends a Service port's traffic to, or undefined when it sends to the Service's own
 * endpoints (not that kind, no VIP, no waypoint, or no istio.io/ingress-use-waypoint). An empty list when the
 * waypoint has no endpoints (istiod answers an empty assignment then).
 */
export function serviceWaypointEndpoints(
  view: ProxyView,
  svc: ServiceModel,
  port: number,
  pods: ReadonlyMap<string, PodModel>,
): LocalityLbEndpointsJson[] | undefined {
  const snapshot = view.snapshot;
  const index = snapshot.ambient;
  if (!index || !ingressWaypointRoutingEnabled(snapshot)) return undefined;
  if (proxyKind(view.proxy).serviceWaypoints !== 'ingress-use-waypoint') return undefined;
  // HasAddressOrAssigned: waypoints only accept VIP traffic
  const vip = svc.addresses.find((a) => a !== '0.0.0.0' && isIP(a)) ?? (svc.address !== '0.0.0.0' ? svc.address : undefined);
  if (!vip) return undefined;
  const binding = index.services.get(`${svc.namespace}/${svc.hostname}`);
  if (!binding?.waypoint || !binding.ingressUseWaypoint) return undefined;
  const waypoint = index.waypoints.get(binding.waypoint);
  if (!waypoint) return undefined;
  const address = waypoint.address;
  // the waypoint Service's endpoints on its HBONE port (BuildSubsetKey(outbound, "", WaypointHostname, hboneMtlsPort))
  if (!('hostname' in address)) return [];
  const { namespace, hostname } = address.hostname;
  const wpSvc = (snapshot.servicesByHost.get(hostname) ?? []).find((s) => s.namespace === namespace);
  const eps = wpSvc
    ? (snapshot.endpoints.get(`${namespace}/${hostname}`)?.get(address.hboneMtlsPort) ?? []).filter((e) => isIP(e.address))
    : [];
  if (!wpSvc || eps.length === 0) return [];
  const local = joinHostPort(vip, port);
  return buildLocalityLbEndpoints(eps, wpSvc, pods, view.options.clusterId).map((g) => ({
    ...g,
    lbEndpoints: (g.lbEndpoints ?? []).map((e) => {
      const sa = e.endpoint?.address?.socketAddress;
      return sa ? toHbone(e, false, { local, waypoint: joinHostPort(sa.address ?? '', sa.portValue ?? 0) }) : e;
    }),
  }));
}
