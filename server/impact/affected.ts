// Which proxies a store change can affect, without translating any: from the changed keys and the two
// snapshots (istiod's PushRequest.ConfigsUpdated → ProxyNeedsPush / DefaultProxyNeedsPush scoping, done
// per namespace). Conservative by construction: every rule below over-approximates what the translator
// reads, so a proxy whose Envoy config changed is never missed (changes.test.ts / affected.test.ts compare
// with the exact digest diff); proxies whose config did not change may be named too.
//
// What a proxy's config reads (server/translate/view/buildProxyView.ts):
// - services, VirtualServices, DestinationRules and ServiceEntries *visible to its namespace* (exportTo),
//   narrowed by the Sidecar that selects it (same namespace, or the root namespace's default);
// - Gateways that select it (routers only);
// - endpoints (and pods, for locality/labels) of the services it sees;
// - its own pod (inbound: the services selecting it, their ports, its labels for sourceLabels/selectors).
// A change is mapped to a set of namespaces whose proxies may change, plus "every router", or "all".
import type { IstioConfig, MeshSnapshot, ProxyModel, ServiceModel, TranslateOptions } from '../model/mesh';
import { IGNORED_KINDS } from '../model/schema/kinds';
import type { StoreChange } from '../sources/store';

/** The xDS resource types of a proxy, as the dump and the UI name them. */
export type ResourceKind = 'listeners' | 'routes' | 'clusters' | 'endpoints';
export const RESOURCE_KINDS: readonly ResourceKind[] = ['listeners', 'routes', 'clusters', 'endpoints'];

export interface AffectedProxies {
  /** Every proxy (of either snapshot) may have changed. */
  all: boolean;
  /** Proxy ids (of either snapshot) that may have changed; every proxy when `all`. Sorted. */
  proxies: string[];
  /** Resource types that may have changed for them. */
  types: ResourceKind[];
}

/** Where a change reaches: proxies of these namespaces, every router, a few ids, or everything. */
interface Scope {
  all: boolean;
  namespaces: Set<string>;
  routers: boolean;
  /** Every waypoint proxy (a waypoint Gateway changed). */
  waypoints?: boolean;
  types: Set<ResourceKind>;
}

interface ParsedKey {
  kind: string;
  namespace: string;
  name: string;
}

/** `group/version/kind/namespace/name` (names and namespaces hold no `/`). */
export function parseStoreKey(key: string): ParsedKey | undefined {
  const parts = key.split('/');
  if (parts.length !== 5) return undefined;
  const [, , kind, namespace, name] = parts as [string, string, string, string, string];
  return { kind, namespace, name };
}

/**
 * The namespaces an exportTo list makes an object visible to (hosts.ts isVisibleTo and the VS/DR indexes):
 * 'all' for the mesh default (empty) or `*`; `.` is the owner's namespace, `~` nobody. The owner's
 * namespace is always added (conservative: its own proxies read it for inbound and shadowing).
 */
export function exportScope(exportTo: readonly string[] | undefined, ownNamespace: string): 'all' | Set<string> {
  const list = exportTo ?? [];
  if (list.length === 0 || list.includes('*')) return 'all';
  const out = new Set<string>([ownNamespace]);
  for (const e of list) if (e !== '.' && e !== '~') out.add(e);
  return out;
}

function addExport(scope: Scope, exportTo: readonly string[] | undefined, ns: string): void {
  const s = exportScope(exportTo, ns);
  if (s === 'all') scope.all = true;
  else for (const n of s) scope.namespaces.add(n);
}

/** Per-snapshot lookups, built once per call (a change may list thousands of keys). */
interface Index {
  configs: Map<string, IstioConfig>;
  servicesByRef: Map<string, ServiceModel[]>;
  servicesByNs: Map<string, ServiceModel[]>;
}

const refKey = (kind: string, ns: string, name: string) => `${kind}/${ns}/${name}`;

function push<V>(m: Map<string, V[]>, k: string, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const INDEX = Symbol('impact index');

/**
 * The snapshot's Index, kept in its memo (a change's previous snapshot was the last change's next: built once); made
 * from `seed`'s (the previous snapshot) when only VirtualServices were replaced in place (carriedIndex).
 */
function indexOf(snap: MeshSnapshot, seed?: MeshSnapshot): Index {
  const from = [snap.virtualServices, snap.destinationRules, snap.serviceEntries, snap.services];
  return snap.memo ? snap.memo.get(INDEX, from, () => (seed && carriedIndex(seed, snap)) || buildIndex(snap)) : buildIndex(snap);
}

/** How many replaced VirtualServices carriedIndex patches in; more: the index is built anew. */
const MAX_CARRIED = 8;

/**
 * `seed`'s index for `snap` when the two differ only in a few VirtualServices replaced at their places under the same
 * namespace/name (a VirtualService edit): its config map copied with those swapped in, the service maps shared (the
 * same service list). At 5× buildIndex keys 15,000 configs (10–27 ms per VirtualService edit); this copies the map.
 * Undefined when anything else differs or `seed` has no index: then it is built.
 */
function carriedIndex(seed: MeshSnapshot, snap: MeshSnapshot): Index | undefined {
  if (seed.destinationRules !== snap.destinationRules || seed.serviceEntries !== snap.serviceEntries || seed.services !== snap.services)
    return undefined;
  const a = seed.virtualServices;
  const b = snap.virtualServices;
  const had = seed.memo?.peek<Index>(INDEX, [a, seed.destinationRules, seed.serviceEntries, seed.services]);
  if (!had || a.length !== b.length) return undefined;
  const swapped: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && swapped.push(i) > MAX_CARRIED) return undefined;
  const configs = new Map(had.configs);
  for (const i of swapped) {
    const before = a[i]!;
    const after = b[i]!;
    const key = refKey(before.kind, before.meta.namespace, before.meta.name);
    // The map holds the last config of a key: the replaced one must be it, under the same key as its replacement.
    if (key !== refKey(after.kind, after.meta.namespace, after.meta.name) || had.configs.get(key) !== before) return undefined;
    configs.set(key, after);
  }
  return { configs, servicesByRef: had.servicesByRef, servicesByNs: had.servicesByNs };
}

function buildIndex(snap: MeshSnapshot): Index {
  const configs = new Map<string, IstioConfig>();
  for (const list of [snap.virtualServices, snap.destinationRules, snap.serviceEntries] as readonly (readonly IstioConfig[])[])
    for (const c of list) configs.set(refKey(c.kind, c.meta.namespace, c.meta.name), c);
  const servicesByRef = new Map<string, ServiceModel[]>();
  const servicesByNs = new Map<string, ServiceModel[]>();
  for (const s of snap.services) {
    push(servicesByRef, refKey(s.ref.kind, s.ref.namespace, s.ref.name), s);
    push(servicesByNs, s.namespace, s);
  }
  return { configs, servicesByRef, servicesByNs };
}

/**
 * Endpoints of a namespace moved (EndpointSlice, Pod, workload controller): the services of that namespace
 * own those endpoints (Kubernetes selectors and ServiceEntry workloadSelectors only pick pods of their own
 * namespace, parse/endpoints.ts), so the proxies that see any of them, plus the namespace's own proxies.
 */
function addNamespaceServices(scope: Scope, indexes: readonly Index[], ns: string): void {
  scope.namespaces.add(ns);
  for (const ix of indexes) for (const s of ix.servicesByNs.get(ns) ?? []) addExport(scope, s.exportTo, s.namespace);
}

const ALL = (): Set<ResourceKind> => new Set(RESOURCE_KINDS);

function scopeOfKey(scope: Scope, key: string, indexes: readonly Index[], options: TranslateOptions, seenNs: Set<string>): void {
  const k = parseStoreKey(key);
  if (!k) {
    scope.all = true;
    return;
  }
  const { kind, namespace: ns, name } = k;
  // Kinds meshscope deliberately does not read (ServiceAccount, ConfigMap, …) change no snapshot content.
  if (IGNORED_KINDS.has(kind)) return;
  const config = (ix: Index) => ix.configs.get(refKey(kind, ns, name));
  const services = (ix: Index) => ix.servicesByRef.get(refKey(kind, ns, name)) ?? [];
  switch (kind) {
    case 'VirtualService':
    case 'DestinationRule':
    case 'ServiceEntry':
      for (const ix of indexes) {
        const c = config(ix);
        if (!c) continue;
        const spec = c.spec as { exportTo?: string[]; hosts?: string[] };
        // A delegate VirtualService (no hosts) is read through the roots delegating to it, wherever they are.
        if (kind === 'VirtualService' && (spec.hosts ?? []).length === 0) scope.all = true;
        addExport(scope, spec.exportTo, ns);
        // A ServiceEntry's services (its exportTo, or the namespace annotation default) and inbound targets.
        for (const s of services(ix)) addExport(scope, s.exportTo, ns);
      }
      scope.namespaces.add(ns);
      break;
    case 'Service':
      for (const ix of indexes) for (const s of services(ix)) addExport(scope, s.exportTo, ns);
      scope.namespaces.add(ns);
      break;
    case 'Sidecar':
      // The root namespace's Sidecar is the default of every namespace without one of its own.
      if (ns === options.rootNamespace) scope.all = true;
      else scope.namespaces.add(ns);
      break;
    case 'Gateway':
    case 'Ingress':
    case 'IngressClass':
    case 'Secret':
      // Gateways are read by the routers they select (any namespace); sidecars never read them. Ingresses become
      // Gateways plus VirtualServices bound only to them; Secrets only tell gateway credentials apart. Under the
      // ambient profile a Gateway API Gateway may be a waypoint (its address, waypoint-for and allowedRoutes decide
      // which Services and workloads every waypoint serves: ambient/waypoints.go), so waypoints are reached too.
      scope.routers = true;
      if (kind === 'Gateway') scope.waypoints = true;
      break;
    case 'EndpointSlice':
    case 'Pod':
    // A WorkloadEntry is picked only by selectors of its own namespace (parse/workloads.ts).
    case 'WorkloadEntry':
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
      if (seenNs.has(ns)) break;
      seenNs.add(ns);
      addNamespaceServices(scope, indexes, ns);
      break;
    default:
      // Namespace (labels, injection), Node (localities), anything else: everything.
      scope.all = true;
  }
}

/** Resource types an EndpointSlice change can move: EDS, plus what non-EDS services inline (conservative). */
function endpointTypes(prev: MeshSnapshot | undefined, next: MeshSnapshot, namespaces: readonly string[]): Set<ResourceKind> {
  const types = new Set<ResourceKind>(['endpoints']);
  for (const snap of [prev, next])
    for (const s of snap?.services ?? []) if (namespaces.includes(s.namespace) && s.resolution !== 'ClientSideLB') return ALL();
  return types;
}

/**
 * The resource types a change of `changed` may move (affectedProxies' `types`): every type for any key but an
 * EndpointSlice (or a kind meshscope does not read); for EndpointSlices, EDS, plus every type when a service of their
 * namespace is not EDS (endpointTypes).
 */
export function changedTypes(prev: MeshSnapshot | undefined, next: MeshSnapshot, changed: readonly string[]): ResourceKind[] {
  const types = new Set<ResourceKind>();
  const sliceNamespaces: string[] = [];
  for (const key of changed) {
    const k = parseStoreKey(key);
    if (k?.kind === 'EndpointSlice') sliceNamespaces.push(k.namespace);
    else if (!k || !IGNORED_KINDS.has(k.kind)) return [...RESOURCE_KINDS];
  }
  if (sliceNamespaces.length > 0) for (const t of endpointTypes(prev, next, sliceNamespaces)) types.add(t);
  return RESOURCE_KINDS.filter((t) => types.has(t));
}

/**
 * The proxies (of `prev` or `next`) whose Envoy config may differ between the two snapshots after `change`,
 * and which resource types may. `prev` undefined (nothing seen before) means everything. Never throws.
 */
export function affectedProxies(
  prev: MeshSnapshot | undefined,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed'>,
  options: TranslateOptions,
): AffectedProxies {
  const everyProxy = new Map<string, ProxyModel>();
  for (const p of prev?.proxies ?? []) everyProxy.set(p.id, p);
  for (const p of next.proxies) everyProxy.set(p.id, p);
  const allIds = () => [...everyProxy.keys()].sort();
  if (!prev) return { all: true, proxies: allIds(), types: [...RESOURCE_KINDS] };
  // A MeshConfig change (ConfigMap istio-system/istio or --mesh-config) reaches every proxy, as istiod's full push.
  if (JSON.stringify(prev.mesh?.config) !== JSON.stringify(next.mesh?.config))
    return { all: everyProxy.size > 0, proxies: allIds(), types: [...RESOURCE_KINDS] };

  const scope: Scope = { all: false, namespaces: new Set(), routers: false, types: new Set() };
  const indexes = [indexOf(prev), indexOf(next, prev)];
  const seenNs = new Set<string>();
  for (const key of change.changed) {
    if (scope.all) break;
    scopeOfKey(scope, key, indexes, options, seenNs);
  }
  const types = changedTypes(prev, next, change.changed);
  if (scope.all) return { all: everyProxy.size > 0, proxies: allIds(), types };

  const ids: string[] = [];
  for (const p of everyProxy.values())
    if (scope.namespaces.has(p.namespace) || (scope.routers && p.type === 'router') || (scope.waypoints && p.type === 'waypoint'))
      ids.push(p.id);
  ids.sort();
  return { all: ids.length > 0 && ids.length === everyProxy.size, proxies: ids, types };
}
