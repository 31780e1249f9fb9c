// VirtualService import (model/push_context.go:initVirtualServices, VirtualServicesForGateway) with
// short-name resolution (model/virtualservice.go:ResolveVirtualServiceShortnames) and gateway name
// resolution (model/config.go:resolveGatewayName).
import type { Destination, VirtualServiceSpec } from '../../model/istio';
import type { IstioConfig, MeshSnapshot, TranslateOptions } from '../../model/mesh';
import { resolveShortname } from '../../model/host';
import { delegateIndex, isRootVirtualService, mergeDelegatesWithOrigins } from './delegation';
import type { BoundVirtualService } from './types';

export const MESH_GATEWAY = 'mesh';

/**
 * resolveGatewayName: `mesh` kept; `ns/name` kept (`./name` → `<vs ns>/name`); `name` → `<vs ns>/name`;
 * legacy `name.ns.svc.cluster.local` → `ns/name`.
 */
export function resolveGatewayName(gw: string, vsNamespace: string): string {
  if (gw === MESH_GATEWAY) return gw;
  const slash = gw.indexOf('/');
  if (slash >= 0) {
    const ns = gw.slice(0, slash);
    const name = gw.slice(slash + 1);
    return ns === '.' ? `${vsNamespace}/${name}` : gw;
  }
  if (gw.includes('.')) {
    const [name, ns] = gw.split('.');
    return `${ns ?? vsNamespace}/${name ?? gw}`;
  }
  return `${vsNamespace}/${gw}`;
}

/** getGatewayNames: the resolved `gateways`, or `mesh` when absent. */
export function gatewayNames(vs: IstioConfig<'VirtualService'>): string[] {
  const gws = vs.spec.gateways ?? [];
  if (gws.length === 0) return [MESH_GATEWAY];
  return gws.map((g) => resolveGatewayName(g, vs.meta.namespace));
}

// Module-level helpers (no closures per VirtualService: this runs for every VirtualService of every view).
const resolveDest = (d: Destination, ns: string, domainSuffix: string): Destination => ({
  ...d,
  host: resolveShortname(d.host, ns, domainSuffix),
});
const resolveGateways = (g: string[] | undefined, ns: string): string[] | undefined => (g ? g.map((x) => resolveGatewayName(x, ns)) : g);
const resolveMatches = <M extends { gateways?: string[] }>(match: M[], ns: string): M[] =>
  match.map((m) => (m.gateways ? { ...m, gateways: resolveGateways(m.gateways, ns) as string[] } : m));
const resolveRoutes = <R extends { destination: Destination }>(route: R[], ns: string, domainSuffix: string): R[] =>
  route.map((d) => ({ ...d, destination: resolveDest(d.destination, ns, domainSuffix) }));

/**
 * A copy of the VirtualService with hosts, destinations and mirror hosts resolved to FQDNs relative to its
 * namespace, and every gateway reference (spec and match level) in `ns/name` form. The input is not mutated.
 */
export function resolveVirtualService(vs: IstioConfig<'VirtualService'>, domainSuffix: string): IstioConfig<'VirtualService'> {
  const ns = vs.meta.namespace;
  const s = vs.spec;
  const spec: VirtualServiceSpec = { ...s };
  if (s.hosts) spec.hosts = s.hosts.map((h) => resolveShortname(h, ns, domainSuffix));
  if (s.gateways) spec.gateways = resolveGateways(s.gateways, ns) as string[];
  if (s.http)
    spec.http = s.http.map((r) => ({
      ...r,
      ...(r.match ? { match: resolveMatches(r.match, ns) } : {}),
      ...(r.route ? { route: resolveRoutes(r.route, ns, domainSuffix) } : {}),
      ...(r.mirror ? { mirror: resolveDest(r.mirror, ns, domainSuffix) } : {}),
      ...(r.mirrors ? { mirrors: resolveRoutes(r.mirrors, ns, domainSuffix) } : {}),
    }));
  if (s.tcp)
    spec.tcp = s.tcp.map((r) => ({
      ...r,
      ...(r.match ? { match: resolveMatches(r.match, ns) } : {}),
      ...(r.route ? { route: resolveRoutes(r.route, ns, domainSuffix) } : {}),
    }));
  if (s.tls)
    spec.tls = s.tls.map((r) => ({
      ...r,
      match: resolveMatches(r.match ?? [], ns),
      ...(r.route ? { route: resolveRoutes(r.route, ns, domainSuffix) } : {}),
    }));
  return { ...vs, spec };
}

type Tier = 'private' | 'exported' | 'public' | 'none';

/**
 * initVirtualServices' classification for a proxy namespace: exportTo empty or containing `*` → public;
 * `~` → nobody; `.` or the VS's own namespace → private (only its namespace); other names → exported to them.
 */
function tierFor(vs: IstioConfig<'VirtualService'>, proxyNamespace: string, meshDefault: readonly string[]): Tier {
  const written = vs.spec.exportTo ?? [];
  // exportTo unset: MeshConfig.defaultVirtualServiceExportTo (`*` unless set).
  const exportTo = written.length === 0 ? meshDefault : written;
  if (exportTo.length === 0 || exportTo.includes('*')) return 'public';
  if (exportTo.includes('~')) return 'none';
  const own = vs.meta.namespace;
  const isPrivate = exportTo.some((e) => e === '.' || e === own);
  if (isPrivate && proxyNamespace === own) return 'private';
  if (exportTo.some((e) => e !== '.' && e !== own && e === proxyNamespace)) return 'exported';
  return 'none';
}

/**
 * VirtualServicesForGateway(proxyNamespace, gateway): the VirtualServices bound to `gateway` (`mesh` or
 * `ns/name`) that the namespace may see, in import order: private of that namespace, exported to it, public;
 * each in creation order. Delegates (no hosts) are never bound directly; root VirtualServices come back with
 * their delegates merged in (./delegation) and `httpOrigins` saying where each merged rule came from. Names
 * are resolved (see above).
 */
export function virtualServicesForGateway(
  snapshot: MeshSnapshot,
  proxyNamespace: string,
  gateway: string,
  options: Pick<TranslateOptions, 'domainSuffix'> & Partial<Pick<TranslateOptions, 'defaultVirtualServiceExportTo'>>,
  /**
   * Only VirtualServices of namespaces it accepts (a Sidecar importing some namespaces only): the same result as
   * filtering the returned list by namespace, without resolving and merging the others.
   */
  namespaceFilter?: (namespace: string) => boolean,
): BoundVirtualService[] {
  const tiers: Record<Tier, IstioConfig<'VirtualService'>[]> = { private: [], exported: [], public: [], none: [] };
  for (const vs of snapshot.virtualServices) {
    if (!vs.spec.hosts || vs.spec.hosts.length === 0) continue;
    if (namespaceFilter && !namespaceFilter(vs.meta.namespace)) continue;
    if (!gatewayNames(vs).includes(gateway)) continue;
    tiers[tierFor(vs, proxyNamespace, options.defaultVirtualServiceExportTo ?? [])].push(vs);
  }
  // Favor same-namespace Gateway API routes among the public ones: the GAMMA "consumer override".
  const consumer = (vs: IstioConfig<'VirtualService'>) =>
    vs.meta.annotations?.['internal.istio.io/route-semantics'] === 'gateway' && vs.meta.namespace === proxyNamespace;
  const ordered = [...tiers.private, ...tiers.exported, ...tiers.public.filter(consumer), ...tiers.public.filter((vs) => !consumer(vs))];
  const resolve = (vs: IstioConfig<'VirtualService'>) => resolveVirtualService(vs, options.domainSuffix);
  // Root VirtualServices get their delegates merged in (virtualservice_controller.go:mergeVirtualServices).
  const delegates = ordered.some(isRootVirtualService) ? delegateIndex(snapshot.virtualServices) : undefined;
  return ordered.map((vs): BoundVirtualService => {
    if (!delegates || !isRootVirtualService(vs)) return resolve(vs);
    const { vs: merged, origins } = mergeDelegatesWithOrigins(resolve(vs), delegates, resolve);
    return { ...merged, httpOrigins: origins };
  });
}
