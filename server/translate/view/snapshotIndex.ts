// Indexes over one snapshot that every proxy's view reads (istiod's PushContext indexes: podsByName, the
// per-namespace service and DestinationRule indexes of push_context.go), built once per snapshot on first use
// and kept in its memo (model/snapshotMemo.ts). Each index is keyed by the snapshot arrays it reads, so a copy
// of the snapshot with other arrays gets its own. A snapshot without a memo is scanned as before (same answers).
import type { IstioConfig, MeshSnapshot, PodModel, ServiceModel } from '../../model/mesh';

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
 * Seeds `next`'s pod indexes (podNamed, podsByKey) from `prev`'s when `next.pods` is `prev.pods` with some pods
 * replaced in place by pods of the same namespace and name (an incremental build after pods changed: patchPods): a
 * copy of each index `prev` has, with the replaced pods swapped in, instead of a walk of every pod building keys.
 * O(pods) pointer compares; nothing is done when the arrays differ otherwise or `prev` has no index built.
 */
export function carryPodIndexes(prev: MeshSnapshot, next: MeshSnapshot): void {
  if (!prev.memo || !next.memo || prev.pods === next.pods || prev.pods.length !== next.pods.length) return;
  const slots = [PODS_FIRST, PODS_LAST].filter((slot) => prev.memo!.peek(slot, [prev.pods]) && !next.memo!.peek(slot, [next.pods]));
  if (slots.length === 0) return;
  const swapped: number[] = [];
  for (let i = 0; i < next.pods.length; i++) {
    const a = prev.pods[i]!;
    const b = next.pods[i]!;
    if (a === b) continue;
    if (a.namespace !== b.namespace || a.name !== b.name) return;
    swapped.push(i);
  }
  // A few pods, each at one position only (the index's answer for its key is then this position's, or another key's).
  if (swapped.length > 8 || swapped.some((i) => prev.pods.indexOf(prev.pods[i]!) !== i || prev.pods.lastIndexOf(prev.pods[i]!) !== i))
    return;
  for (const slot of slots) {
    const had = prev.memo.peek<ReadonlyMap<string, PodModel>>(slot, [prev.pods])!;
    const m = new Map(had);
    for (const i of swapped) {
      const k = podKey(next.pods[i]!.namespace, next.pods[i]!.name);
      // The index holds the pod at the key's first (last) position: swapped only if that is this position.
      if (had.get(k) === prev.pods[i]) m.set(k, next.pods[i]!);
    }
    next.memo.get(slot, [next.pods], () => m);
  }
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

/** A per-proxy answer memoised per snapshot and proxy object (service targets: pods, services, endpoints). */
export function memoPerProxy<T>(snapshot: MeshSnapshot, proxy: object, make: () => T): T {
  const memo = snapshot.memo;
  if (!memo) return make();
  const m = memo.get(TARGETS, [snapshot.pods, snapshot.services, snapshot.endpoints], () => new WeakMap<object, { v: T }>());
  let e = m.get(proxy);
  if (!e) m.set(proxy, (e = { v: make() }));
  return e.v;
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

/** The addresses of every endpoint of a headless service (passthrough, no VIP), per snapshot; `make` builds them. */
export function memoHeadlessAddresses(snapshot: MeshSnapshot, make: () => ReadonlySet<string>): ReadonlySet<string> {
  return snapshot.memo ? snapshot.memo.get(HEADLESS_ADDRESSES, [snapshot.services, snapshot.endpoints], make) : make();
}
