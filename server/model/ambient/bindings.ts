// Which waypoint a Service or workload is bound to, as istiod decides it (pilot/pkg/serviceregistry/ambient/
// waypoints.go GetUseWaypoint, fetchWaypointForTarget, fetchWaypointForService, fetchWaypointForWorkload,
// AllowsAttachmentFromNamespace; services.go ingressUseWaypointFromLabels), and — where istiod just returns
// nil — why there is none. Pure.
import { selectorMatches } from '../gatewayapi/listeners';
import type { NamespaceModel } from '../mesh';
import type { BindingSkip, BindingSource, WaypointBinding, WaypointModel } from './types';

export const USE_WAYPOINT = 'istio.io/use-waypoint';
export const USE_WAYPOINT_NAMESPACE = 'istio.io/use-waypoint-namespace';
export const INGRESS_USE_WAYPOINT = 'istio.io/ingress-use-waypoint';
const MANAGED = 'gateway.istio.io/managed';

type Labels = Readonly<Record<string, string>>;

/** The object a binding is looked up for: its namespace, labels and a name for messages (`Service ns/name`). */
export interface BindingTarget {
  namespace: string;
  labels: Labels;
  describe: string;
}

export interface BindingContext {
  waypoints: ReadonlyMap<string, WaypointModel>;
  namespaces: ReadonlyMap<string, NamespaceModel>;
  /** Gateways of class istio-waypoint without a status address (`ns/name` → why), for a precise "not ready". */
  pending: ReadonlyMap<string, string>;
}

/** GetUseWaypoint: `none` opts out; otherwise the waypoint `ns/name` (istio.io/use-waypoint-namespace, else `fallbackNs`). */
export function parseUseWaypoint(labels: Labels, fallbackNs: string): { none: true } | { key: string } | undefined {
  const v = labels[USE_WAYPOINT];
  if (v === undefined) return undefined;
  if (v === 'none') return { none: true };
  return { key: `${labels[USE_WAYPOINT_NAMESPACE] ?? fallbackNs}/${v}` };
}

/** Namespace labels as the API server has them: kubernetes.io/metadata.name is always set. */
const nsLabelsOf = (ctx: BindingContext, ns: string): Labels => ({
  ...(ctx.namespaces.get(ns)?.labels ?? {}),
  'kubernetes.io/metadata.name': ns,
});

/** Waypoint.AllowsAttachmentFromNamespace(OrLookup): allowedRoutes All / Selector / Same. */
export function allowsAttachmentFrom(w: WaypointModel, ns: string, ctx: BindingContext): boolean {
  switch (w.allowedRoutes.from) {
    case 'All':
      return true;
    case 'Selector':
      return selectorMatches(w.allowedRoutes.selector ?? {}, nsLabelsOf(ctx, ns));
    default:
      return w.namespace === ns;
  }
}

const skip = (reason: BindingSkip['reason'], message: string, istiodError: boolean, waypoint?: string): BindingSkip =>
  waypoint !== undefined ? { reason, message, istiodError, waypoint } : { reason, message, istiodError };

function resolveNamed(key: string, source: BindingSource, o: BindingTarget, ctx: BindingContext): WaypointBinding {
  const w = ctx.waypoints.get(key);
  const where = source === 'namespace' ? `namespace ${o.namespace}` : o.describe;
  if (!w) {
    const pending = ctx.pending.get(key);
    const why = pending ? `Gateway ${key} is not ready: ${pending}` : `no Gateway ${key} exists`;
    return {
      source,
      skip: skip('WaypointIsNotReady', `waypoint "${key}" is not ready (${why}); named by ${USE_WAYPOINT} on ${where}`, true, key),
    };
  }
  if (!allowsAttachmentFrom(w, o.namespace, ctx))
    return {
      source,
      skip: skip(
        'AttachmentDenied',
        `cross-namespace binding not allowed: waypoint "${key}" admits routes from ${w.allowedRoutes.from === 'Same' ? `its own namespace only` : 'namespaces matching its selector'} (allowedRoutes of its HBONE listener), not from namespace ${o.namespace}`,
        true,
        key,
      ),
    };
  return { waypoint: key, source };
}

/** fetchWaypointForTarget: the object's own label first (`none` opts out), then its namespace's. */
export function waypointForTarget(o: BindingTarget, ctx: BindingContext, ownSource: BindingSource): WaypointBinding {
  const own = parseUseWaypoint(o.labels, o.namespace);
  if (own && 'none' in own)
    return { source: ownSource, skip: skip('OptedOut', `${o.describe} opts out with ${USE_WAYPOINT}: none`, false) };
  if (own) return resolveNamed(own.key, ownSource, o, ctx);
  const nsLabels = ctx.namespaces.get(o.namespace)?.labels ?? {};
  const fromNs = parseUseWaypoint(nsLabels, o.namespace);
  if (fromNs && 'key' in fromNs) return resolveNamed(fromNs.key, 'namespace', o, ctx);
  if (fromNs) return { source: 'namespace', skip: skip('OptedOut', `namespace ${o.namespace} opts out with ${USE_WAYPOINT}: none`, false) };
  return {
    skip: skip('NoUseWaypoint', `no ${USE_WAYPOINT} label on ${o.describe} or on namespace ${o.namespace}`, false),
  };
}

const unsupported = (w: WaypointModel, traffic: string, istiodError: boolean): BindingSkip =>
  skip(
    'UnsupportedTrafficType',
    `waypoint "${w.key}" does not accept ${traffic} traffic: its istio.io/waypoint-for is "${w.trafficType}"${w.trafficTypeFrom === 'default' ? ' (the default)' : w.trafficTypeFrom === 'class' ? ' (from its GatewayClass)' : ''}`,
    istiodError,
    w.key,
  );

/** fetchWaypointForService: waypoints and east-west gateways have none; the waypoint must accept `service` traffic. */
export function waypointForService(o: BindingTarget, ctx: BindingContext): WaypointBinding {
  const managed = o.labels[MANAGED];
  if (managed === 'istio.io-mesh-controller' || managed === 'istio.io-eastwest-controller')
    return { skip: skip('IsWaypoint', `${o.describe} is a waypoint's or east-west gateway's own Service`, false) };
  const b = waypointForTarget(o, ctx, 'service');
  if (!b.waypoint) return b;
  const w = ctx.waypoints.get(b.waypoint)!;
  if (w.trafficType === 'service' || w.trafficType === 'all') return b;
  return { source: b.source!, skip: unsupported(w, 'service', true) };
}

/**
 * fetchWaypointForWorkload: the waypoint must accept `workload` traffic. A binding inherited from the namespace
 * to a service-only waypoint is no error for istiod (the workload just has none); the reason is kept anyway.
 */
export function waypointForWorkload(o: BindingTarget, ctx: BindingContext): WaypointBinding {
  const b = waypointForTarget(o, ctx, 'workload');
  if (!b.waypoint) return b;
  const w = ctx.waypoints.get(b.waypoint)!;
  if (w.trafficType === 'workload' || w.trafficType === 'all') return b;
  return { source: b.source!, skip: unsupported(w, 'workload', o.labels[USE_WAYPOINT] !== undefined) };
}

/** ingressUseWaypointFromLabels: the Service's label, else its namespace's; true only for a strconv.ParseBool true. */
export function ingressUseWaypoint(serviceLabels: Labels, nsLabels: Labels | undefined): { present: boolean; use: boolean } {
  const v = serviceLabels[INGRESS_USE_WAYPOINT] ?? nsLabels?.[INGRESS_USE_WAYPOINT];
  if (v === undefined) return { present: false, use: false };
  return { present: true, use: ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v) };
}
