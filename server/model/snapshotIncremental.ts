// An incremental snapshot build: when the inputs differ from the last build's (the store's, through its
// SnapshotCache) only by objects replaced in place — same key, same position — and every replaced object is of a
// kind whose dependents are narrowed here, the new snapshot is the last one with only those dependents re-derived.
// Anything else returns undefined and the caller builds from scratch. The result equals a build from scratch
// (server/model/snapshotCache.property.test.ts), and every unchanged part keeps its identity (downstream memos —
// the ztunnel view, scope sharing, encoding — key on it).
//
// Narrowed kinds:
// - v1 Pod (an explicit pod with an IP): its PodModel at its place in `pods`, the endpoints of the Services whose
//   selector picks it before or after (or whose EndpointSlices name it or its IPs) and of the ServiceEntries with a
//   workloadSelector in its namespace, its proxy, its ambient workload binding, and the Gateway API conversion
//   (which reads pods and endpoints) when there are Gateway API objects.
// - Istio configs that nothing else in the snapshot is derived from (VirtualService, DestinationRule, Gateway,
//   Sidecar, AuthorizationPolicy, PeerAuthentication, EnvoyFilter): the list of their kind, re-sorted.
import { byteCompare as cmp } from '../lib/compare';
import { buildAmbientIndex, patchAmbientPods } from './ambient';
import { convertGatewayApi } from './gatewayapi';
import type { RawInput } from './inputs';
import type { IstioKind } from './istio';
import type { EndpointModel, IstioConfig, MeshSnapshot, PodModel, ProxyModel, ServiceModel } from './mesh';
import { buildEndpointIndex, type EndpointIndex } from './parse/endpoints';
import type { KubeObject, ParsedOne } from './parse/objects';
import { ownersOf } from './parse/owners';
import { explicitPodModel } from './parse/pods';
import { podInstance } from './parse/workloads';
import type { KubePod } from './schema/kube';
import { type BuildSnapshotOptions, byCreation } from './snapshotOptions';
import type { BuildState, OptionsKey, SePair } from './snapshotState';
import type { SnapshotCache } from './snapshotCache';
import { SnapshotMemo } from './snapshotMemo';

export const optionsKey = (o: BuildSnapshotOptions): OptionsKey => ({
  domainSuffix: o.domainSuffix,
  ingressMesh: o.ingressMesh,
  secretsWatched: o.secretsWatched ?? false,
  meshConfig: o.meshConfig,
  meshState: o.meshState,
  ambient: o.ambient ?? false,
});

const sameOptions = (a: OptionsKey, b: OptionsKey): boolean =>
  a.domainSuffix === b.domainSuffix &&
  a.ingressMesh === b.ingressMesh &&
  a.secretsWatched === b.secretsWatched &&
  a.meshConfig === b.meshConfig &&
  a.meshState === b.meshState &&
  a.ambient === b.ambient;

/** Istio kinds nothing else in the snapshot is derived from (ServiceEntry, WorkloadEntry feed services and endpoints). */
const LEAF_ISTIO = new Set<IstioKind>([
  'VirtualService',
  'DestinationRule',
  'Gateway',
  'Sidecar',
  'AuthorizationPolicy',
  'PeerAuthentication',
  'EnvoyFilter',
]);

const MAX_CHANGES = 64;

type Change =
  | { type: 'pod'; before: KubeObject<KubePod>; after: KubeObject<KubePod> }
  | { type: 'istio'; kind: IstioKind; before: IstioConfig; after: IstioConfig };

/** One replaced input as a narrowed change, or undefined (then the whole build runs). */
function classify(before: ParsedOne, after: ParsedOne): Change | undefined {
  if (before.errors.length || after.errors.length || before.rejected || after.rejected || before.unknown || after.unknown) return undefined;
  const b = before.item;
  const a = after.item;
  if (!b || !a || b.bucket !== a.bucket) return undefined;
  if (a.bucket === 'pods') {
    const pb = b.obj as KubeObject<KubePod>;
    const pa = a.obj as KubeObject<KubePod>;
    if (pa.apiVersion !== 'v1' || pb.apiVersion !== 'v1') return undefined;
    return { type: 'pod', before: pb, after: pa };
  }
  if (a.bucket === 'istio') {
    const cb = b.obj as IstioConfig;
    const ca = a.obj as IstioConfig;
    if (ca.kind !== cb.kind || !LEAF_ISTIO.has(ca.kind)) return undefined;
    return { type: 'istio', kind: ca.kind, before: cb, after: ca };
  }
  return undefined;
}

const selects = (selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The snapshot of `inputs` derived from the last build, or undefined when this change needs a build from scratch. */
export function buildIncremental(
  inputs: readonly RawInput[],
  opts: BuildSnapshotOptions,
  cache: SnapshotCache,
  finish: <T>(v: T) => T,
): MeshSnapshot | undefined {
  const st = cache.last;
  if (!st || inputs.length !== st.inputs.length || !sameOptions(st.options, optionsKey(opts))) return undefined;
  const changes: Change[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const after = inputs[i]!;
    const before = st.inputs[i]!;
    if (after === before) continue;
    const key = cache.keyOf(after);
    if (key === undefined || key !== cache.keyOf(before) || changes.length >= MAX_CHANGES) return undefined;
    const c = classify(cache.parse(before, i), cache.parse(after, i));
    if (!c) return undefined;
    changes.push(c);
  }
  const prev = st.snapshot;
  const pods = changes.some((c) => c.type === 'pod') ? patchPods(st, changes, cache) : undefined;
  if (pods === null) return undefined;

  let istio = st.rawIstio;
  for (const c of changes) {
    if (c.type !== 'istio') continue;
    if (istio === st.rawIstio) istio = { ...st.rawIstio };
    const list = (istio[c.kind] as IstioConfig[]).slice();
    const at = list.indexOf(c.before);
    if (at < 0) return undefined;
    list[at] = c.after;
    (istio as Record<string, IstioConfig[]>)[c.kind] = list;
  }
  // A kind whose replaced configs all keep their creation time, name and namespace keeps its order: the last
  // snapshot's sorted list with those configs swapped in place (byCreation compares nothing else, so a sort
  // would make the same permutation). Sorting 5,000 VirtualServices again parses two timestamps per comparison.
  const sameOrder = (kind: IstioKind) => changes.every((c) => c.type !== 'istio' || c.kind !== kind || byCreation(c.before, c.after) === 0);
  const swapped = <K extends IstioKind>(kind: K, list: readonly IstioConfig<K>[]): IstioConfig<K>[] | undefined => {
    const out = list.slice();
    for (const c of changes) {
      if (c.type !== 'istio' || c.kind !== kind) continue;
      const at = out.indexOf(c.before as IstioConfig<K>);
      if (at < 0) return undefined;
      out[at] = c.after as IstioConfig<K>;
    }
    return out;
  };
  const inPlace = <K extends IstioKind>(kind: K, last: readonly IstioConfig<K>[]): IstioConfig<K>[] | undefined =>
    sameOrder(kind) ? swapped(kind, last) : undefined;
  const sorted = <K extends IstioKind>(kind: K, extra: readonly IstioConfig<K>[] = []): IstioConfig<K>[] =>
    extra.length ? [...istio[kind], ...extra].sort(byCreation) : istio[kind].slice().sort(byCreation);
  const kindChanged = (k: IstioKind) => istio[k] !== st.rawIstio[k];

  const podList = pods?.pods ?? prev.pods;
  const endpoints = pods?.endpoints ?? prev.endpoints;
  let converted = st.converted;
  let convertedErrors = st.convertedErrors;
  let gatewayApi = prev.gatewayApi;
  if (st.hasGatewayApi && pods) {
    // The conversion reads pods and endpoints; its output is merged into the Gateway and VirtualService lists.
    const c = convertGatewayApi(st.gwApi, {
      domainSuffix: opts.domainSuffix ?? 'cluster.local',
      namespaces: st.namespaces,
      services: new Set(st.k8s.map((s) => `${s.namespace}/${s.name}`)),
      hosts: new Set(prev.services.map((s) => s.hostname)),
      pods: podList,
      ...(opts.ambient ? { ambient: true } : {}),
      hasEndpoints: (ns, host, port) => (endpoints.get(`${ns}/${host}`)?.get(port)?.length ?? 0) > 0,
    });
    // The same conversion again (most pod changes reach no Gateway API object): keep the last one's objects.
    if (
      !sameJson(
        [c.gateways, c.virtualServices, c.errors, c.model],
        [st.converted.gateways, st.converted.virtualServices, st.convertedErrors, prev.gatewayApi],
      )
    ) {
      converted = { gateways: c.gateways, virtualServices: c.virtualServices };
      convertedErrors = c.errors;
      gatewayApi = c.model;
    }
  }
  const merge = <K extends IstioKind>(list: IstioConfig<K>[], extra: readonly IstioConfig<K>[]) =>
    extra.length ? [...list, ...extra].sort(byCreation) : list;
  // With the same Gateway API conversion, the last lists (ingress and converted configs merged in) are reused.
  const sameConverted = converted === st.converted;
  const gateways =
    kindChanged('Gateway') || !sameConverted
      ? (sameConverted && inPlace('Gateway', prev.gateways)) || merge(sorted('Gateway', st.ingress.gateways), converted.gateways)
      : undefined;
  const virtualServices =
    kindChanged('VirtualService') || !sameConverted
      ? (sameConverted && inPlace('VirtualService', prev.virtualServices)) ||
        merge(sorted('VirtualService', st.ingress.virtualServices), converted.virtualServices)
      : undefined;

  let ambient = prev.ambient;
  if (pods && prev.ambient) {
    ambient =
      patchAmbientPods(prev.ambient, st.namespaces, pods.changed) ||
      buildAmbientIndex({ namespaces: st.namespaces, pods: podList, services: prev.services, gatewayApi: st.gwApi });
  }

  const next: MeshSnapshot = {
    ...prev,
    version: opts.version,
    ...(pods ? { pods: pods.pods, endpoints: pods.endpoints, proxies: pods.proxies, proxiesById: pods.proxiesById } : {}),
    ...(virtualServices ? { virtualServices } : {}),
    ...(kindChanged('DestinationRule')
      ? { destinationRules: inPlace('DestinationRule', prev.destinationRules) ?? sorted('DestinationRule') }
      : {}),
    ...(gateways ? { gateways } : {}),
    ...(kindChanged('Sidecar') ? { sidecars: inPlace('Sidecar', prev.sidecars) ?? sorted('Sidecar') } : {}),
    ...(kindChanged('AuthorizationPolicy')
      ? { authorizationPolicies: inPlace('AuthorizationPolicy', prev.authorizationPolicies) ?? sorted('AuthorizationPolicy') }
      : {}),
    ...(kindChanged('PeerAuthentication')
      ? { peerAuthentications: inPlace('PeerAuthentication', prev.peerAuthentications) ?? sorted('PeerAuthentication') }
      : {}),
    ...(kindChanged('EnvoyFilter') ? { envoyFilters: inPlace('EnvoyFilter', prev.envoyFilters ?? []) ?? sorted('EnvoyFilter') } : {}),
    ...(prev.gatewayApi ? { gatewayApi } : {}),
    ...(prev.ambient ? { ambient } : {}),
    errors: [...(opts.extraErrors ?? []).map((e) => ({ ...e })), ...st.ownErrors, ...convertedErrors],
    memo: new SnapshotMemo(), // the last snapshot's lookups are not this one's
  };
  if (pods?.fresh) {
    for (const x of pods.fresh) finish(x);
    for (const list of [pods.pods, pods.proxies, pods.endpoints, pods.proxiesById]) Object.freeze(list);
  }
  const snap = finish(next);
  cache.last = { ...st, inputs, snapshot: snap, rawIstio: istio, converted, convertedErrors, ...(pods ? { rank: pods.rank } : {}) };
  cache.stats.incremental++;
  return snap;
}

/** The indexes of `list`'s items by `key`, ascending. */
function groupBy<T>(list: readonly T[], key: (item: T) => string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  list.forEach((item, i) => {
    const k = key(item);
    const at = out.get(k);
    if (at) at.push(i);
    else out.set(k, [i]);
  });
  return out;
}

interface PodPatch {
  pods: PodModel[];
  changed: { before: PodModel; after: PodModel }[];
  endpoints: Map<string, ReadonlyMap<number, readonly EndpointModel[]>>;
  rank: ReadonlyMap<string, number>;
  proxies: ProxyModel[];
  proxiesById: Map<string, ProxyModel>;
  /**
   * The objects new in these lists (the changed pods, their proxies, the rebuilt endpoint lists) when every other
   * item is the last snapshot's (frozen already): the lists are then frozen shallowly with these deeply, not walked.
   */
  fresh?: unknown[];
}

/** The pods, endpoints and proxies after explicit Pods changed in place; null when that is not narrowable. */
/**
 * Makes the pod-change indexes of the last build (pod by `ns/name`, pods and Services per namespace) when it has
 * none: patchPods makes them on first use, so the first pod change after a build from scratch walked every pod
 * and Service (~30 ms at 5×). The store calls this after each build; they are carried to every incremental build.
 */
export function warmPodPatch(st: BuildState | undefined): void {
  if (!st) return;
  const pods = st.snapshot.pods;
  st.podAt ??= new Map(pods.map((p, i) => [`${p.namespace}/${p.name}`, i]));
  st.k8sIn ??= groupBy(st.k8s, (s) => s.namespace);
  st.podsIn ??= groupBy(pods, (p) => p.namespace);
}

function patchPods(st: BuildState, changes: readonly Change[], cache: SnapshotCache): PodPatch | null {
  const prev = st.snapshot;
  if (!st.podAt) st.podAt = new Map(prev.pods.map((p, i) => [`${p.namespace}/${p.name}`, i]));
  const pods = prev.pods.slice();
  const changed: PodPatch['changed'] = [];
  for (const c of changes) {
    if (c.type !== 'pod') continue;
    const at = st.podAt.get(`${c.after.meta.namespace}/${c.after.meta.name}`);
    if (at === undefined) return null;
    const before = prev.pods[at]!;
    if (before.owner !== undefined || before.origin !== c.before.origin) return null; // not this explicit Pod's model
    // Owner references and pod-template-hash decide which workloads are expanded (parse/owners).
    if (
      st.hasWorkloads &&
      (!sameJson(ownersOf(c.before.body), ownersOf(c.after.body)) ||
        c.before.meta.labels['pod-template-hash'] !== c.after.meta.labels['pod-template-hash'])
    )
      return null;
    const after = explicitPodModel(c.after, st.namespaces, st.anyDeclared, st.nodeLabels, cache.pods);
    // An IP that changes may move an allocated one (IpPool); a pod without an IP is given one.
    if (!after || (st.allocated > 0 && after.ip !== before.ip)) return null;
    pods[at] = after;
    changed.push({ before, after });
  }

  // Endpoint keys whose lists may change.
  const affected = new Set<string>();
  const sliceOwned = new Set<string>();
  for (const s of st.slices) {
    const svc = s.meta.labels['kubernetes.io/service-name'];
    if (svc) sliceOwned.add(`${s.meta.namespace}/${svc}`);
  }
  const spaces = new Set<string>();
  let allPods = false;
  const k8sIn = (st.k8sIn ??= groupBy(st.k8s, (s) => s.namespace));
  for (const { before, after } of changed) {
    const ns = after.namespace;
    for (const i of k8sIn.get(ns) ?? []) {
      const svc = st.k8s[i]!;
      if (!svc.selector || sliceOwned.has(`${svc.namespace}/${svc.name}`)) continue;
      if (selects(svc.selector, before.labels) || selects(svc.selector, after.labels)) affected.add(`${svc.namespace}/${svc.hostname}`);
    }
    for (const p of st.sePairs)
      if (p.service.namespace === ns && (p.entries ?? [p.entry]).some((e) => e.spec.workloadSelector))
        affected.add(`${p.service.namespace}/${p.service.hostname}`);
    const ips = new Set([before.ip, after.ip]);
    for (const s of st.slices) {
      const svcName = s.meta.labels['kubernetes.io/service-name'];
      if (!svcName) continue;
      const hit = (s.body.endpoints ?? []).some(
        (e) =>
          e.addresses.some((a) => ips.has(a)) ||
          (e.targetRef?.kind === 'Pod' && e.targetRef.name === after.name && (e.targetRef.namespace ?? s.meta.namespace) === ns),
      );
      if (!hit) continue;
      const svc = st.k8s.find((k) => k.namespace === s.meta.namespace && k.name === svcName);
      if (svc) {
        affected.add(`${svc.namespace}/${svc.hostname}`);
        allPods = true;
      }
    }
  }
  for (const k of affected) spaces.add(k.slice(0, k.indexOf('/')));

  const endpoints = new Map(prev.endpoints as Map<string, ReadonlyMap<number, readonly EndpointModel[]>>);
  const fresh: unknown[] = changed.map((c) => c.after);
  let rank = st.rank; // copied when a key's place changes
  if (affected.size > 0) {
    const services: ServiceModel[] = [];
    const serviceAt: number[] = [];
    // The affected keys' namespaces' Services, in `k8s` order.
    const candidates = [...spaces].flatMap((ns) => k8sIn.get(ns) ?? []).sort((a, b) => a - b);
    for (const i of candidates) {
      const s = st.k8s[i]!;
      if (affected.has(`${s.namespace}/${s.hostname}`)) {
        services.push(s);
        serviceAt.push(i);
      }
    }
    const pairs: SePair[] = [];
    const pairAt: number[] = [];
    st.sePairs.forEach((p, i) => {
      if (affected.has(`${p.service.namespace}/${p.service.hostname}`)) {
        pairs.push(p);
        pairAt.push(i);
      }
    });
    const podsIn = (st.podsIn ??= groupBy(prev.pods, (p) => p.namespace));
    // Only Services that select pods (no EndpointSlices, no ServiceEntry): the pods any of them selects are all
    // their endpoint lists read (kubeEndpoints picks each Service's pods of its namespace by the same `selects`,
    // in pod order), not every pod of those namespaces (500 per namespace at 5×: a label index and an instance each).
    const bySelector = !allPods && pairs.length === 0 && services.every((s) => s.selector && !sliceOwned.has(`${s.namespace}/${s.name}`));
    const picked = (p: PodModel) => !bySelector || services.some((s) => s.namespace === p.namespace && selects(s.selector!, p.labels));
    const scoped = allPods
      ? pods
      : [...spaces]
          .flatMap((ns) => podsIn.get(ns) ?? [])
          .sort((a, b) => a - b)
          .map((i) => pods[i]!)
          .filter(picked);
    const instances = [...scoped.filter((p) => p.ready && p.ip && spaces.has(p.namespace)).map(podInstance), ...st.weInstances];
    const sub: { index: EndpointIndex; rank: Map<string, number> } = buildEndpointIndex({
      services,
      serviceAt,
      pairs,
      pairAt,
      slices: st.slices,
      pods: scoped,
      nodeLabels: st.nodeLabels,
      instances,
      memo: cache.podEndpoints,
    });
    let inPlace = true;
    for (const k of affected) {
      const list = sub.index.get(k);
      if (list) fresh.push(list);
      const r = sub.rank.get(k);
      if (r !== rank.get(k)) {
        inPlace = false;
        if (rank === st.rank) rank = new Map(st.rank);
      }
      if (r === undefined) {
        endpoints.delete(k);
        (rank as Map<string, number>).delete(k);
      } else {
        endpoints.set(k, sub.index.get(k)!);
        if (!inPlace) (rank as Map<string, number>).set(k, r);
      }
    }
    if (!inPlace) {
      const order = [...endpoints.keys()].sort((a, b) => rank.get(a)! - rank.get(b)!);
      const sortedMap = new Map(order.map((k) => [k, endpoints.get(k)!]));
      endpoints.clear();
      for (const [k, v] of sortedMap) endpoints.set(k, v);
    }
  }

  // Proxies: the same id at the same place when the pod keeps one; re-listed otherwise.
  let proxies: ProxyModel[];
  let proxiesById: Map<string, ProxyModel>;
  if (changed.every(({ before, after }) => (before.proxy === 'none') === (after.proxy === 'none'))) {
    proxies = prev.proxies.slice();
    proxiesById = new Map(prev.proxiesById);
    for (const { before, after } of changed) {
      if (after.proxy === 'none') continue;
      const old = cache.proxyOf(before);
      const p = cache.proxyOf(after);
      const at = proxies.indexOf(old);
      if (at < 0 || old.id !== p.id) return null;
      proxies[at] = p;
      proxiesById.set(p.id, p);
      fresh.push(p);
    }
  } else {
    proxies = pods.filter((p) => p.proxy !== 'none').map(cache.proxyOf);
    proxies.sort((a, b) => cmp(a.id, b.id));
    proxiesById = new Map(proxies.map((p) => [p.id, p]));
    return { pods, changed, endpoints, rank, proxies, proxiesById };
  }
  return { pods, changed, endpoints, rank, proxies, proxiesById, fresh };
}
