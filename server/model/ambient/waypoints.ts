// Waypoints as istiod's ambient index reads them (pilot/pkg/serviceregistry/ambient/waypoints.go
// gatewayToWaypointTransform / makeWaypoint): every Gateway whose status has an address, with its address
// (getGatewayAddress), traffic type (istio.io/waypoint-for on the Gateway, else its GatewayClass, else
// `service`), the namespaces it admits (makeAllowedRoutes) and the service accounts of its pods. Pure.
import { byteCompare } from '../../lib/compare';
import type { GatewayClassSpec, GatewaySpec, GwObject, Listener } from '../gatewayapi/types';
import { WAYPOINT_CLASS } from '../gatewayapi/listeners';
import type { PodModel } from '../mesh';
import { proxyIdOf } from '../proxyIdentity';
import type { GatewayAddressModel, PendingWaypoint, WaypointAllowedRoutes, WaypointModel } from './types';

/** label.IoK8sNetworkingGatewayGatewayName: pods of a Gateway's deployment carry it. */
export const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';
/** label.IoIstioWaypointFor. */
export const WAYPOINT_FOR_LABEL = 'istio.io/waypoint-for';
/** annotation.AmbientWaypointInboundBinding. */
const INBOUND_BINDING = 'ambient.istio.io/waypoint-inbound-binding';
/** constants.WaypointSandwichListenerProxyProtocol. */
const PROXY_PROTOCOL_LISTENER = 'istio.io/PROXY';
/** The HBONE port istiod hardcodes in getGatewayAddress. */
export const HBONE_PORT = 15008;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const isIp = (s: string): boolean =>
  IPV4.test(s)
    ? s.split('.').every((o) => Number(o) <= 255 && String(Number(o)) === o)
    : /^[0-9a-fA-F:]+(%\w+)?$/.test(s) && s.includes(':');

/** getGatewayAddress: a Hostname status address first, else the first valid IPAddress; undefined when neither. */
export function gatewayAddress(gw: GwObject<GatewaySpec>, network = ''): GatewayAddressModel | undefined {
  const addrs = gw.statusAddresses ?? [];
  const host = addrs.find((a) => a.type === 'Hostname');
  if (host) return { hostname: { namespace: gw.meta.namespace, hostname: host.value }, hboneMtlsPort: HBONE_PORT };
  const ip = addrs.find((a) => a.type === 'IPAddress' && isIp(a.value));
  if (ip) return { address: { network, ip: ip.value }, hboneMtlsPort: HBONE_PORT };
  return undefined;
}

/** makeInboundBinding: `PROXY`, `NONE`, `PROXY/<port>` on the Gateway, else its class; anything else is ignored. */
function inboundBinding(
  gw: GwObject<GatewaySpec>,
  cls: GwObject<GatewayClassSpec> | undefined,
): { protocol: string; port: number } | undefined {
  const ann = gw.meta.annotations[INBOUND_BINDING] ?? cls?.meta.annotations[INBOUND_BINDING];
  if (ann === undefined) return undefined;
  const parts = ann.split('/');
  if (parts.length > 2 || (parts[0] !== 'NONE' && parts[0] !== 'PROXY')) return undefined;
  const port = parts.length === 2 ? Number.parseInt(parts[1]!, 10) : 0;
  return { protocol: parts[0]!, port: Number.isFinite(port) && port > 0 ? port : 0 };
}

const selectorOf = (l: Listener): WaypointAllowedRoutes => {
  const ns = l.allowedRoutes.namespaces;
  return ns.selector ? { from: ns.from, selector: ns.selector } : { from: ns.from };
};

/** makeAllowedRoutes: the bound listener's allowedRoutes, else the HBONE/15008 listener's, else `Same`. */
export function allowedRoutesOf(gw: GwObject<GatewaySpec>, cls: GwObject<GatewayClassSpec> | undefined): WaypointAllowedRoutes {
  const binding = inboundBinding(gw, cls);
  if (binding) {
    const bound = gw.spec.listeners.find((l) =>
      binding.port !== 0 ? l.port === binding.port : binding.protocol === 'PROXY' && l.protocol === PROXY_PROTOCOL_LISTENER,
    );
    if (bound) return selectorOf(bound);
  }
  const hbone = gw.spec.listeners.find((l) => l.protocol === 'HBONE' && l.port === HBONE_PORT);
  return hbone ? selectorOf(hbone) : { from: 'Same' };
}

export interface WaypointsResult {
  waypoints: Map<string, WaypointModel>;
  pending: PendingWaypoint[];
}

/** gatewayToWaypointTransform over every Gateway (istiod does not filter by class: any Gateway with a status address). */
export function buildWaypoints(
  gateways: readonly GwObject<GatewaySpec>[],
  classes: readonly GwObject<GatewayClassSpec>[],
  pods: readonly PodModel[],
): WaypointsResult {
  const classByName = new Map(classes.map((c) => [c.meta.name, c]));
  const waypoints = new Map<string, WaypointModel>();
  const pending: PendingWaypoint[] = [];
  const sorted = [...gateways].sort((a, b) => byteCompare(a.meta.namespace, b.meta.namespace) || byteCompare(a.meta.name, b.meta.name));
  for (const gw of sorted) {
    const key = `${gw.meta.namespace}/${gw.meta.name}`;
    const address = gatewayAddress(gw);
    if (!address) {
      if (gw.spec.gatewayClassName === WAYPOINT_CLASS)
        pending.push({
          key,
          namespace: gw.meta.namespace,
          name: gw.meta.name,
          reason: (gw.statusAddresses ?? []).length
            ? 'its status addresses hold no Hostname or valid IPAddress'
            : 'its status has no address yet (istiod sets one once the waypoint Deployment has a ready pod)',
        });
      continue;
    }
    const instances = pods.filter((p) => p.namespace === gw.meta.namespace && p.labels[GATEWAY_NAME_LABEL] === gw.meta.name);
    const cls = classByName.get(gw.spec.gatewayClassName);
    const fromGw = gw.meta.labels[WAYPOINT_FOR_LABEL];
    const fromClass = cls?.meta.labels[WAYPOINT_FOR_LABEL];
    waypoints.set(key, {
      key,
      namespace: gw.meta.namespace,
      name: gw.meta.name,
      className: gw.spec.gatewayClassName,
      address,
      trafficType: fromGw ?? fromClass ?? 'service',
      trafficTypeFrom: fromGw !== undefined ? 'gateway' : fromClass !== undefined ? 'class' : 'default',
      allowedRoutes: allowedRoutesOf(gw, cls),
      serviceAccounts: instances.map((p) => p.serviceAccount).sort(byteCompare),
      proxies: instances.filter((p) => p.proxy !== 'none').map((p) => proxyIdOf(p.name, p.namespace)),
    });
  }
  return { waypoints, pending };
}

/** The text form of a waypoint's address: `ns/hostname` or `network/ip`. */
export const addressText = (a: GatewayAddressModel): string =>
  'hostname' in a ? `${a.hostname.namespace}/${a.hostname.hostname}` : `${a.address.network}/${a.address.ip}`;
