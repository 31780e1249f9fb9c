// Which proxies an endpoint-only change reaches (issue 24): istiod pushes an EDS update only to the proxies
// whose SidecarScope holds the moved service (pilot/pkg/xds/proxy_dependencies.go DefaultProxyNeedsPush →
// proxyDependentOnConfig: a Service/ServiceEntry config is a dependency of a sidecar only when
// `SidecarScope.DependsOnConfig` says its egress imports it, in the current or the previous scope). affected.ts
// scopes by namespace and exportTo, which for a Service exported mesh-wide (the default) is every proxy;
// this narrows an endpoint-only change to the proxies that can hold a ClusterLoadAssignment of a moved
// service: the service is visible to the proxy's namespace (exportTo) and, for a sidecar with a Sidecar
// egress, imported by it (sidecarScope.selectServices), plus the moved pods' own proxies (their IP is their
// identity). Conservative: anything unclear keeps affected.ts' answer.
import type { IstioConfig, MeshSnapshot, ProxyModel, ServiceModel, TranslateOptions } from '../model/mesh';
import type { StoreChange } from '../sources/store';
import { resolveShortname } from '../model/host';
import { importedHosts, selectServices } from '../translate/view/sidecarScope';
import { warmViewIndexes } from '../translate/view/snapshotIndex';
import { gatewayNames, MESH_GATEWAY } from '../translate/view/virtualServices';
import { type AffectedProxies, affectedProxies, changedTypes, exportScope, parseStoreKey } from './affected';
import { scopeGroups } from './scopeMemo';

/**
 * The hostnames whose endpoints differ between two snapshots, when `change` only moved endpoints of
 * services that go to EDS (ClientSideLB); undefined when a full push is needed (a headless, DNS or
 * passthrough service in a changed namespace inlines endpoints into listeners or clusters).
 */
export function movedEndpointHosts(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed' | 'endpointsOnly'>,
): Set<string> | undefined {
  if (!change.endpointsOnly) return undefined;
  const namespaces = new Set<string>();
  for (const key of change.changed) {
    const k = parseStoreKey(key);
    if (!k) return undefined;
    namespaces.add(k.namespace);
  }
  const hosts = new Set<string>();
  for (const snap of [prev, next])
    for (const s of snap.services) {
      if (!namespaces.has(s.namespace)) continue;
      if (s.resolution !== 'ClientSideLB') return undefined;
    }
  const prefixes = [...namespaces].map((ns) => `${ns}/`);
  const inChanged = (k: string) => prefixes.some((p) => k.startsWith(p));
  const compare = (k: string, a: unknown, b: unknown) => {
    if (a === b || !inChanged(k)) return;
    const list = (x: unknown) => (x ? [...(x as Iterable<unknown>)] : null);
    if (JSON.stringify(list(a)) !== JSON.stringify(list(b))) hosts.add(k.slice(k.indexOf('/') + 1));
  };
  for (const [k, a] of prev.endpoints) compare(k, a, next.endpoints.get(k));
  for (const [k, b] of next.endpoints) if (!prev.endpoints.has(k)) compare(k, undefined, b);
  return hosts;
}

/** A delegate VirtualService (no hosts) routes to a moved host: read through roots of any namespace. */
const DELEGATE = '';

type Vs = MeshSnapshot['virtualServices'][number];

/** Every string under a `host` key of a VirtualService's routes (destinations, mirrors), as written. */
function routeHosts(vs: Vs): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'host' && typeof x === 'string') out.push(x);
        else if (k !== 'hosts') walk(x);
      }
  };
  walk(vs.spec);
  return out;
}

const ROUTE_HOSTS = Symbol('route hosts per VirtualService');
type RouteHosts = { map?: Map<Vs, readonly string[]> };

/**
 * routeHosts of each VirtualService of `snap`, kept in its memo; those of `seed` (the previous snapshot) are reused for
 * the same objects (an unchanged VirtualService keeps its identity across incremental builds), so a change walks only
 * the VirtualServices it replaced.
 */
function routeHostsOf(snap: MeshSnapshot, seed?: MeshSnapshot): ReadonlyMap<Vs, readonly string[]> {
  const holder = (x: MeshSnapshot): RouteHosts | undefined => x.memo?.get(ROUTE_HOSTS, [x.virtualServices], (): RouteHosts => ({}));
  const h = holder(snap);
  if (h?.map) return h.map;
  const before = seed ? holder(seed)?.map : undefined;
  // The same VirtualService list (a pod move): the same map.
  if (before && seed!.virtualServices === snap.virtualServices) {
    if (h) h.map = before as Map<Vs, readonly string[]>;
    return before;
  }
  const map = new Map<Vs, readonly string[]>();
  for (const vs of snap.virtualServices) map.set(vs, before?.get(vs) ?? routeHosts(vs));
  if (h) h.map = map;
  return map;
}

/**
 * Carries routeHostsOf from `prev` to `next` when `prev` has it (a map copy plus the VirtualServices the change
 * replaced): the push plane calls this on every store change, so the first pod move after VirtualService edits does
 * not walk every VirtualService of both snapshots (with 1,100 VirtualServices, most of that change's cold cost).
 * Without `prev` (the plane's first snapshot), `next`'s is made in full.
 */
export function keepRouteHosts(prev: MeshSnapshot | undefined, next: MeshSnapshot): void {
  if (!prev) {
    routeHostsOf(next);
    return;
  }
  const had = prev.memo?.get(ROUTE_HOSTS, [prev.virtualServices], (): RouteHosts => ({}));
  if (had?.map) routeHostsOf(next, prev);
  if (had?.map) keepRouting(prev, next);
}

/**
 * Route host (as written, and resolved in its VirtualService's namespace) → the namespaces routing to it (DELEGATE: a
 * delegate) → how many of those VirtualServices' route hosts name it (so that a VirtualService's part can be taken out).
 */
type RoutingIndex = { suffix: string; byHost: Map<string, Map<string, number>> };
const ROUTING = Symbol('namespaces routing to each host');
/** Above this many VirtualServices replaced by one change, the next snapshot's index is made again when asked. */
const MAX_ROUTING_PATCH = 256;
/** Up to this many VirtualServices replaced in place are found by position (replacedConfigs). */
const FEW_REPLACED = 8;

/** What `vs` adds to the index: [host, namespace] pairs (none for a VirtualService bound to gateways only). */
function routingPairs(vs: Vs, routed: ReadonlyMap<Vs, readonly string[]>, suffix: string): Array<[string, string]> {
  const delegate = (vs.spec.hosts ?? []).length === 0;
  // Only VirtualServices bound to the mesh shape a sidecar's scope (a gateway's own are its alone).
  if (!delegate && !gatewayNames(vs).includes(MESH_GATEWAY)) return [];
  const ns = delegate ? DELEGATE : vs.meta.namespace;
  const out: Array<[string, string]> = [];
  for (const h of routed.get(vs) ?? routeHosts(vs)) out.push([h, ns], [resolveShortname(h, vs.meta.namespace, suffix), ns]);
  return out;
}

function addPairs(byHost: Map<string, Map<string, number>>, pairs: readonly [string, string][], by: 1 | -1, copied?: Set<string>): void {
  for (const [h, ns] of pairs) {
    let m = byHost.get(h);
    if (m && copied && !copied.has(h)) {
      // copy on write: the previous snapshot's index stays as it was
      byHost.set(h, (m = new Map(m)));
      copied.add(h);
    }
    if (!m) {
      if (by < 0) continue;
      byHost.set(h, (m = new Map()));
      copied?.add(h);
    }
    const n = (m.get(ns) ?? 0) + by;
    if (n > 0) m.set(ns, n);
    else m.delete(ns);
    if (m.size === 0) byHost.delete(h);
  }
}

function buildRouting(snap: MeshSnapshot, routed: ReadonlyMap<Vs, readonly string[]>, suffix: string): RoutingIndex {
  const byHost = new Map<string, Map<string, number>>();
  for (const vs of snap.virtualServices) addPairs(byHost, routingPairs(vs, routed, suffix), 1);
  return { suffix, byHost };
}

const routingHolder = (x: MeshSnapshot) => x.memo?.get(ROUTING, [x.virtualServices], (): { index?: RoutingIndex } => ({}));

/**
 * Hands `prev`'s routing index to `next` (keepRouteHosts, on every change): the same index when the VirtualService list
 * is the same; else a copy with the replaced VirtualServices' parts taken out and the new ones' put in (copy on write
 * per host), so the first pod move after VirtualService edits does not walk every VirtualService.
 */
function keepRouting(prev: MeshSnapshot, next: MeshSnapshot): void {
  const had = routingHolder(prev)?.index;
  const h = routingHolder(next);
  if (!had || !h || h.index) return;
  if (prev.virtualServices === next.virtualServices) {
    h.index = had;
    return;
  }
  const { removed, added } = replacedConfigs(prev.virtualServices, next.virtualServices);
  if (removed.length + added.length > MAX_ROUTING_PATCH) return;
  const byHost = new Map(had.byHost);
  const copied = new Set<string>();
  const routedPrev = routeHostsOf(prev);
  const routedNext = routeHostsOf(next, prev);
  for (const vs of removed) addPairs(byHost, routingPairs(vs, routedPrev, had.suffix), -1, copied);
  for (const vs of added) addPairs(byHost, routingPairs(vs, routedNext, had.suffix), 1, copied);
  h.index = { suffix: had.suffix, byHost };
}

/**
 * The VirtualServices only in `a` and only in `b`. An edit replaces a few in place (the same length, the rest at the
 * same positions): compared by position, without a set of each list (5,100 VirtualServices at 5×).
 */
function replacedConfigs<T>(a: readonly T[], b: readonly T[]): { removed: T[]; added: T[] } {
  if (a.length === b.length) {
    const removed: T[] = [];
    const added: T[] = [];
    for (let i = 0; i < a.length && removed.length <= FEW_REPLACED; i++)
      if (a[i] !== b[i]) {
        removed.push(a[i]!);
        added.push(b[i]!);
      }
    // Exact only when no differing object is held elsewhere by the other list (a reorder, a duplicate): else as sets.
    if (removed.length <= FEW_REPLACED && removed.every((v) => !b.includes(v)) && added.every((v) => !a.includes(v)))
      return { removed, added };
  }
  const before = new Set(a);
  const after = new Set(b);
  return { removed: a.filter((v) => !after.has(v)), added: b.filter((v) => !before.has(v)) };
}

/**
 * Makes what narrowing an endpoint change reads of `snap` (the route hosts, the routing index, the scope groups) so
 * that the plane's carrying (keepRouteHosts, keepScopeGroups) starts from its first snapshot: the first pod move then
 * does not make them over every VirtualService and proxy.
 */
export function warmEndpointImpact(snap: MeshSnapshot, options: TranslateOptions): void {
  keepRouteHosts(undefined, snap);
  routingNamespaces(snap, undefined, new Set(), options.domainSuffix);
  scopeGroups(snap, options.rootNamespace);
  warmViewIndexes(snap);
}

/**
 * The namespaces whose VirtualServices route (any `host` under their routes: destinations, mirrors; short names
 * resolved in the VirtualService's namespace) to one of `hosts`, and DELEGATE when a delegate does; of VirtualServices
 * bound to the mesh only. Conservative: exportTo and the egress hosts' match are not looked at. From an index of
 * `snap`'s VirtualServices (in its memo; taken over from `seed`, the previous snapshot, when both have the same
 * VirtualService list, as after a pod move), so a change costs O(hosts), not O(VirtualServices).
 */
function routingNamespaces(snap: MeshSnapshot, seed: MeshSnapshot | undefined, hosts: ReadonlySet<string>, suffix: string): Set<string> {
  const h = routingHolder(snap);
  let index = h?.index?.suffix === suffix ? h.index : undefined;
  if (!index && seed && seed.virtualServices === snap.virtualServices) {
    const had = routingHolder(seed)?.index;
    if (had?.suffix === suffix) index = had;
  }
  index ??= buildRouting(snap, routeHostsOf(snap, seed), suffix);
  if (h) h.index = index;
  const out = new Set<string>();
  for (const host of hosts) for (const ns of index.byHost.get(host)?.keys() ?? []) out.add(ns);
  return out;
}

/**
 * Whether `proxy`, under `sc` (the Sidecar in force for it), may hold a cluster, hence a ClusterLoadAssignment, of
 * `service`. Reads only the proxy's kind and namespace (decided once per scope: scopeMemo.ts). A Sidecar's scope
 * holds the services its egress imports and, beside them, every visible service a VirtualService it imports routes
 * to (istiod's SidecarScope adds VirtualService destinations: sidecar.go "Infer more possible destinations from
 * virtual services"; here buildProxyView's service() falls back to the visible services).
 */
function mayHold(
  routing: () => ReadonlySet<string>,
  sc: IstioConfig<'Sidecar'> | undefined,
  proxy: ProxyModel,
  services: readonly ServiceModel[],
  options: TranslateOptions,
): boolean {
  const visible = services.filter((service) => {
    const scope = exportScope(service.exportTo, service.namespace);
    return scope === 'all' || scope.has(proxy.namespace);
  });
  if (visible.length === 0) return false;
  if (proxy.type !== 'sidecar') return true;
  if (!sc || (sc.spec.egress ?? []).length === 0) return true;
  const imported = importedHosts(sc, proxy.namespace, options);
  if (selectServices(visible, imported).length > 0) return true;
  // A VirtualService of a namespace the Sidecar imports (or a delegate) that routes to a moved service.
  for (const ns of routing()) if (ns === DELEGATE || imported.has('*') || imported.has(ns)) return true;
  return false;
}

/**
 * The proxies that may hold a CLA of a moved service (`hosts`, movedEndpointHosts), in either snapshot, and the moved
 * pods' own proxies; `all` when that is every proxy of both. Decided once per Sidecar scope (scopeMemo.scopeGroups:
 * mayHold reads a proxy's kind and namespace and the Sidecar in force only) and expanded to the ids of the scopes that
 * may hold one: O(scopes + services + the proxies it names), not O(proxies), once the snapshots' groups are made.
 * It is not intersected with affectedProxies' answer (narrowEndpointChange does that): never fewer proxies than the
 * intersection; the same ones unless a service of another namespace shares a moved hostname.
 */
export function endpointProxies(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed'>,
  hosts: ReadonlySet<string>,
  options: TranslateOptions,
): { all: boolean; ids: Set<string> } {
  const ids = new Set<string>();
  for (const key of change.changed) {
    const k = parseStoreKey(key);
    const id = k?.kind === 'Pod' ? `${k.name}.${k.namespace}` : undefined;
    if (id !== undefined && (prev.proxiesById.has(id) || next.proxiesById.has(id))) ids.add(id);
  }
  const left: (readonly string[])[] = [];
  for (const [snap, seed] of [
    [prev, undefined],
    [next, prev],
  ] as const) {
    const services = snap.services.filter((s) => hosts.has(s.hostname));
    let routing: Set<string> | undefined;
    const routes = () => (routing ??= routingNamespaces(snap, seed, hosts, options.domainSuffix));
    for (const g of scopeGroups(snap, options.rootNamespace, seed)) {
      if (services.length > 0 && mayHold(routes, g.sidecar, g.proxy, services, options)) for (const id of g.ids) ids.add(id);
      else left.push(g.ids);
    }
  }
  const all = ids.size > 0 && left.every((group) => group.every((id) => ids.has(id)));
  return { all, ids };
}

/**
 * `affected` narrowed for an endpoint-only change of EDS services (`hosts`, movedEndpointHosts; undefined:
 * not such a change, `affected` as it is): its proxies that endpointProxies names. Types are kept as they are.
 */
export function narrowEndpointChange(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed' | 'endpointsOnly'>,
  affected: AffectedProxies,
  options: TranslateOptions,
  hosts: ReadonlySet<string> | undefined = movedEndpointHosts(prev, next, change),
): AffectedProxies {
  if (!hosts) return affected;
  const { ids } = endpointProxies(prev, next, change, hosts, options);
  const proxies = affected.proxies.filter((id) => ids.has(id));
  const every = new Set([...prev.proxies, ...next.proxies].map((p) => p.id));
  return { all: proxies.length > 0 && proxies.length === every.size, proxies, types: affected.types };
}

const NARROWED = Symbol('narrowed change impact');

/**
 * affectedProxies narrowed for an endpoint-only change (narrowEndpointChange), with the moved hosts: what both the
 * push plane (xdsPlane.planChange) and the live event (changes.changeEvent) ask of every store change, computed once
 * per change (kept in the new snapshot's memo, by the previous snapshot, the changed keys and the options).
 */
export function narrowedImpact(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed' | 'endpointsOnly'>,
  options: TranslateOptions,
): { hosts: Set<string> | undefined; affected: AffectedProxies } {
  const make = () => {
    const hosts = movedEndpointHosts(prev, next, change);
    // An endpoint-only change (no MeshConfig change rides with it) skips affectedProxies' walk of every proxy: its
    // answer for moved endpoints is the proxies the moved services are visible to, a superset of endpointProxies'.
    if (!hosts || JSON.stringify(prev.mesh?.config) !== JSON.stringify(next.mesh?.config))
      return { hosts, affected: narrowEndpointChange(prev, next, change, affectedProxies(prev, next, change, options), options, hosts) };
    const { all, ids } = endpointProxies(prev, next, change, hosts, options);
    return { hosts, affected: { all, proxies: [...ids].sort(), types: changedTypes(prev, next, change.changed) } };
  };
  const from = [prev, change.changed, change.endpointsOnly, JSON.stringify(options)];
  return next.memo ? next.memo.get(NARROWED, from, make) : make();
}
