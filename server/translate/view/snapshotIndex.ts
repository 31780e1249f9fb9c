// Indexes over one snapshot that every proxy's view reads (istiod's PushContext indexes: podsByName, the
// per-namespace service and DestinationRule indexes of push_context.go), built once per snapshot on first use
// and kept in its memo (model/snapshotMemo.ts). Each index is keyed by the snapshot arrays it reads, so a copy
// of the snapshot with other arrays gets its own. A snapshot without a memo is scanned as before (same answers).
import type { IstioConfig, MeshSnapshot, PodModel, ProxyModel, ServiceModel } from '../../model/mesh';
import { endpointKey } from '../../model/mesh';

const PODS_FIRST = Symbol('pods by namespace/name, first kept');
const PODS_LAST = Symbol('pods by namespace/name, last kept');
const SERVICES_BY_NS = Symbol('services by namespace');
const VISIBLE = Symbol('services visible per namespace');
const TARGETS = Symbol('service targets per proxy');
const DR_BY_NS = Symbol('DestinationRules by namespace');
const DR_RESOLVED = Symbol('DestinationRules by namespace, hosts resolved');
const DR_VISIBLE = Symbol('DestinationRules of a namespace visible to a namespace, by host');
const SCOPE_SERVICES = Symbol('services a Sidecar scope imports, per Sidecar and namespace');
const HEADLESS_ADDRESSES = Symbol('endpoint addresses of headless services');
const HEADLESS_KEYS = Symbol('endpoint keys of headless services');
const NON_KUBERNETES = Symbol("endpoint keys of services that are not Kubernetes'");

const podKey = (namespace: string, name: string) => `${namespace}/${name}`;

/** The first pod named `namespace/name` (as a linear `find` gives it). */
export function podNamed(snapshot: MeshSnapshot, namespace: string, name: string): PodModel | undefined {
  const memo = snapshot.memo;
  if (!memo) return snapshot.pods.find((p) => p.name === name && p.namespace === namespace);
  const byKey = memo.get(PODS_FIRST, [snapshot.pods], () => {
    const m = new Map<string, PodModel>();
    for (const p of snapshot.pods) {
      const k = podKey(p.namespace, p.name);
      if (!m.has(k)) m.set(k, p);
    }
    return m;
  });
  return byKey.get(podKey(namespace, name));
}

/**
 * A map that is `base` with some of its keys' values replaced (`patch` names only keys `base` has): the pod indexes
 * of a snapshot after a few pods moved in place, without a copy of every entry. At most one level deep: a patch of a
 * patched map is merged into one patch over the same base, and copied into a plain Map once it grows past
 * `MAX_PATCH`.
 */
class PatchedMap<K, V> implements ReadonlyMap<K, V> {
  constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly patch: ReadonlyMap<K, V>,
  ) {}
  static of<K, V>(had: ReadonlyMap<K, V>, changes: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
    const base = had instanceof PatchedMap ? (had.base as ReadonlyMap<K, V>) : had;
    const patch = had instanceof PatchedMap ? new Map([...(had.patch as ReadonlyMap<K, V>), ...changes]) : changes;
    if (patch.size <= MAX_PATCH) return new PatchedMap(base, patch);
    const m = new Map(base);
    for (const [k, v] of patch) m.set(k, v);
    return m;
  }
  get(k: K): V | undefined {
    const v = this.patch.get(k);
    return v !== undefined || this.patch.has(k) ? v : this.base.get(k);
  }
  has(k: K): boolean {
    return this.base.has(k);
  }
  get size(): number {
    return this.base.size;
  }
  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.base) yield [k, this.patch.has(k) ? this.patch.get(k)! : v];
  }
  *keys(): MapIterator<K> {
    yield* this.base.keys();
  }
  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
  forEach(f: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) f.call(thisArg, v, k, this);
  }
}
const MAX_PATCH = 64;

/** The from-arrays of the view indexes that read no pod: carried as they are when the next snapshot has the same. */
const POD_FREE: ReadonlyArray<readonly [symbol, (s: MeshSnapshot) => readonly unknown[]]> = [
  [SERVICES_BY_NS, (s) => [s.services]],
  [VISIBLE, (s) => [s.services]],
  [DR_BY_NS, (s) => [s.destinationRules]],
  [DR_RESOLVED, (s) => [s.destinationRules]],
  [DR_VISIBLE, (s) => [s.destinationRules]],
  [SCOPE_SERVICES, (s) => [s.services, s.sidecars]],
  [HEADLESS_ADDRESSES, (s) => [s.services, s.endpoints]],
  [NON_KUBERNETES, (s) => [s.services]],
  [HEADLESS_KEYS, (s) => [s.services]],
];
const targetsFrom = (s: MeshSnapshot) => [s.pods, s.services, s.endpoints];

/**
 * Seeds `next`'s view indexes from `prev`'s (the push plane calls it on every change, before planning it): each
 * index reads only the snapshot arrays it is keyed by, so one built from arrays `next` still has is `next`'s as
 * well (a VirtualService edit keeps the services', DestinationRules' and pods' indexes; a pod move the services'
 * and DestinationRules'). When `next.pods` is `prev.pods` with a few pods replaced in place by pods of the same
 * namespace and name (an incremental build after pods moved: patchPods), the pod indexes (podNamed, podsByKey)
 * are `prev`'s with the replaced pods swapped in (a patch over them, not a walk of every pod), and the service
 * targets of every proxy object both snapshots have whose pod was not replaced are `prev`'s, unless the services
 * differ or endpoints changed of a service whose targets are its endpoints (a ServiceEntry's). An index `next`
 * already has is kept; nothing is carried when `prev` has not built it.
 */
export function carryViewIndexes(prev: MeshSnapshot, next: MeshSnapshot): void {
  if (!prev.memo || !next.memo || prev.memo === next.memo) return;
  const same = (a: readonly unknown[], b: readonly unknown[]) => a.every((x, i) => x === b[i]);
  for (const [slot, from] of POD_FREE) {
    const f = from(prev);
    if (!same(f, from(next))) continue;
    const had = prev.memo.peek(slot, f);
    if (had !== undefined) next.memo.get(slot, f, () => had);
  }
  const targets = prev.memo.peek<PerProxy>(TARGETS, targetsFrom(prev));
  if (same(targetsFrom(prev), targetsFrom(next))) {
    if (targets) next.memo.get(TARGETS, targetsFrom(next), () => targets);
    return;
  }
  const replaced = prev.pods === next.pods ? [] : replacedPods(prev, next);
  if (!replaced) return;
  if (replaced.length > 0)
    for (const slot of [PODS_FIRST, PODS_LAST]) {
      const had = prev.memo.peek<ReadonlyMap<string, PodModel>>(slot, [prev.pods]);
      if (!had || next.memo.peek(slot, [next.pods])) continue;
      const changes = new Map<string, PodModel>();
      for (const i of replaced) {
        const k = podKey(next.pods[i]!.namespace, next.pods[i]!.name);
        // The index holds the pod at the key's first (last) position: swapped only if that is this position.
        if (had.get(k) === prev.pods[i]) changes.set(k, next.pods[i]!);
      }
      next.memo.get(slot, [next.pods], () => PatchedMap.of(had, changes));
    }
  // The headless services' endpoint addresses (proxyInputs' selfIp): the same set when none of their lists moved.
  const headless = prev.memo.peek(HEADLESS_ADDRESSES, [prev.services, prev.endpoints]);
  if (headless && prev.services === next.services && !endpointsMoved(prev, next, headlessKeys(next)))
    next.memo.get(HEADLESS_ADDRESSES, [next.services, next.endpoints], () => headless);
  if (targets && prev.services === next.services && !endpointsMoved(prev, next, nonKubernetesKeys(next)))
    next.memo.get(
      TARGETS,
      targetsFrom(next),
      (): PerProxy => ({
        own: new WeakMap(),
        base: targets.own,
        skip: new Set(replaced.map((i) => podKey(next.pods[i]!.namespace, next.pods[i]!.name))),
      }),
    );
}

/**
 * The positions where `next.pods` holds another pod than `prev.pods`, each of the same namespace and name and at
 * one position only in `prev` (a few: at most 8); undefined when the lists differ otherwise.
 */
function replacedPods(prev: MeshSnapshot, next: MeshSnapshot): number[] | undefined {
  if (prev.pods.length !== next.pods.length) return undefined;
  const swapped: number[] = [];
  for (let i = 0; i < next.pods.length; i++) {
    const a = prev.pods[i]!;
    const b = next.pods[i]!;
    if (a === b) continue;
    if (a.namespace !== b.namespace || a.name !== b.name || swapped.length >= 8) return undefined;
    swapped.push(i);
  }
  // Each at one position only (the index's answer for its key is then this position's, or another key's).
  if (swapped.some((i) => prev.pods.indexOf(prev.pods[i]!) !== i || prev.pods.lastIndexOf(prev.pods[i]!) !== i)) return undefined;
  return swapped;
}

/** Whether an endpoint list changed between the snapshots under one of `keys`. */
function endpointsMoved(prev: MeshSnapshot, next: MeshSnapshot, keys: ReadonlySet<string>): boolean {
  if (prev.endpoints === next.endpoints) return false;
  for (const k of keys) if (prev.endpoints.get(k) !== next.endpoints.get(k)) return true;
  return false;
}

/** The endpoint keys of the services that are not Kubernetes' (ServiceEntries), per snapshot services. */
function nonKubernetesKeys(snapshot: MeshSnapshot): ReadonlySet<string> {
  const make = () => new Set(snapshot.services.filter((s) => s.registry !== 'Kubernetes').map(endpointKey));
  return snapshot.memo ? snapshot.memo.get(NON_KUBERNETES, [snapshot.services], make) : make();
}

/** `namespace/name` → pod, the last of a key kept (endpoints name their pod by these). */
export function podsByKey(snapshot: MeshSnapshot): ReadonlyMap<string, PodModel> {
  const make = () => new Map(snapshot.pods.map((p) => [podKey(p.namespace, p.name), p]));
  return snapshot.memo ? snapshot.memo.get(PODS_LAST, [snapshot.pods], make) : make();
}

/** The services of a namespace, in snapshot order. */
export function servicesInNamespace(snapshot: MeshSnapshot, namespace: string): readonly ServiceModel[] {
  const memo = snapshot.memo;
  if (!memo) return snapshot.services.filter((s) => s.namespace === namespace);
  const byNs = memo.get(SERVICES_BY_NS, [snapshot.services], () => {
    const m = new Map<string, ServiceModel[]>();
    for (const s of snapshot.services) {
      const l = m.get(s.namespace);
      if (l) l.push(s);
      else m.set(s.namespace, [s]);
    }
    return m;
  });
  return byNs.get(namespace) ?? [];
}

/** A per-snapshot memo of any value by string key (the answer depends only on the snapshot arrays in `from`). */
function keyed<T>(snapshot: MeshSnapshot, slot: symbol, from: readonly unknown[], key: string, make: () => T): T {
  const memo = snapshot.memo;
  if (!memo) return make();
  const m = memo.get(slot, from, () => new Map<string, T>());
  let v = m.get(key);
  if (v === undefined && !m.has(key)) m.set(key, (v = make()));
  return v as T;
}

/** Services exported to a namespace, memoised per snapshot, namespace and mesh default (callers never mutate it). */
export function memoVisible(
  snapshot: MeshSnapshot,
  namespace: string,
  meshDefault: readonly string[],
  make: () => ServiceModel[],
): readonly ServiceModel[] {
  return keyed(snapshot, VISIBLE, [snapshot.services], `${namespace}\u0000${meshDefault.join('\u0000')}`, make);
}

/**
 * A proxy's service targets per snapshot and proxy object; `base` (carryViewIndexes): the previous snapshot's, valid
 * for every proxy whose pod (`namespace/name`) is not in `skip`.
 */
interface PerProxy {
  own: WeakMap<object, { v: unknown }>;
  base?: WeakMap<object, { v: unknown }>;
  skip?: ReadonlySet<string>;
}

/** A per-proxy answer memoised per snapshot and proxy object (service targets: pods, services, endpoints). */
export function memoPerProxy<T>(snapshot: MeshSnapshot, proxy: Pick<ProxyModel, 'namespace' | 'name'>, make: () => T): T {
  const memo = snapshot.memo;
  if (!memo) return make();
  const m = memo.get(TARGETS, targetsFrom(snapshot), (): PerProxy => ({ own: new WeakMap() }));
  let e = m.own.get(proxy);
  if (!e) {
    const carried = m.base && !m.skip!.has(podKey(proxy.namespace, proxy.name)) ? m.base.get(proxy) : undefined;
    m.own.set(proxy, (e = carried ?? { v: make() }));
  }
  return e.v as T;
}

/** The valid DestinationRules (a non-empty string host) of each namespace, in snapshot order. */
export function destinationRulesByNamespace(snapshot: MeshSnapshot): ReadonlyMap<string, readonly IstioConfig<'DestinationRule'>[]> {
  const make = () => {
    const m = new Map<string, IstioConfig<'DestinationRule'>[]>();
    for (const c of snapshot.destinationRules) {
      if (typeof c.spec?.host !== 'string' || c.spec.host === '') continue; // invalid rule: reported by validation
      const l = m.get(c.meta.namespace);
      if (l) l.push(c);
      else m.set(c.meta.namespace, [c]);
    }
    return m;
  };
  return snapshot.memo ? snapshot.memo.get(DR_BY_NS, [snapshot.destinationRules], make) : make();
}

/** A namespace's rules with their hosts resolved (per domain suffix), memoised per snapshot. */
export function memoResolvedRules<T>(snapshot: MeshSnapshot, namespace: string, domainSuffix: string, make: () => T): T {
  return keyed(snapshot, DR_RESOLVED, [snapshot.destinationRules], `${namespace}\u0000${domainSuffix}`, make);
}

/** A namespace's DestinationRules as another namespace sees them, indexed (destinationRules.ts), per snapshot. */
export function memoRuleIndex<T>(snapshot: MeshSnapshot, key: string, make: () => T): T {
  return keyed(snapshot, DR_VISIBLE, [snapshot.destinationRules], key, make);
}

/** Stands for "no Sidecar with egress" in the per-Sidecar memo below. */
const NO_SIDECAR = {};

/**
 * A sidecar scope's services (and whatever is made from them alone), memoised per snapshot, Sidecar object and
 * `key` (the proxy namespace and the options the selection reads): istiod builds a SidecarScope once per Sidecar
 * and push, not per proxy; at 5,000 mesh-wide services each proxy's selection walked all of them.
 */
export function memoScopeServices<T>(snapshot: MeshSnapshot, sidecar: object | undefined, key: string, make: () => T): T {
  const memo = snapshot.memo;
  if (!memo) return make();
  const bySidecar = memo.get(SCOPE_SERVICES, [snapshot.services, snapshot.sidecars], () => new WeakMap<object, Map<string, T>>());
  const owner = sidecar ?? NO_SIDECAR;
  let m = bySidecar.get(owner);
  if (!m) bySidecar.set(owner, (m = new Map()));
  let v = m.get(key);
  if (v === undefined) m.set(key, (v = make()));
  return v;
}

/** Headless: passthrough with no VIP (outbound.ts addService). */
const isHeadless = (s: ServiceModel): boolean => s.resolution === 'Passthrough' && s.address === '0.0.0.0';

/** The addresses of every endpoint of a headless service, per snapshot (proxyInputs' `selfIp` asks per proxy). */
export function headlessAddresses(snapshot: MeshSnapshot): ReadonlySet<string> {
  const make = () => {
    const out = new Set<string>();
    for (const s of snapshot.services) {
      if (!isHeadless(s)) continue;
      for (const eps of snapshot.endpoints.get(endpointKey(s))?.values() ?? []) for (const e of eps) out.add(e.address);
    }
    return out;
  };
  return snapshot.memo ? snapshot.memo.get(HEADLESS_ADDRESSES, [snapshot.services, snapshot.endpoints], make) : make();
}

/** The endpoint keys of headless services, per snapshot services. */
function headlessKeys(snapshot: MeshSnapshot): ReadonlySet<string> {
  const make = () => new Set(snapshot.services.filter(isHeadless).map(endpointKey));
  return snapshot.memo ? snapshot.memo.get(HEADLESS_KEYS, [snapshot.services], make) : make();
}
