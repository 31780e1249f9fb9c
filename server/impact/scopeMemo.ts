// What a proxy's Sidecar scope decides for one change, computed once per scope instead of once per proxy. The
// narrowing rules (sidecarImports.ts, endpointScope.ts) ask, for every proxy of the mesh on each change, a question
// whose answer depends only on the proxy's kind, its namespace and the Sidecar in force for it (istiod computes a
// SidecarScope once per Sidecar and namespace too: PushContext.getSidecarScope / sidecarIndex). The Sidecar in force
// depends on the proxy's labels only when its namespace has a Sidecar with a workloadSelector; otherwise it is the
// namespace's (or the root namespace's) default, the same for every sidecar of the namespace.
import type { IstioConfig, MeshSnapshot, ProxyModel } from '../model/mesh';
import { chooseSidecar } from '../translate/view/sidecarScope';

type Sidecar = IstioConfig<'Sidecar'>;

const selects = (s: Sidecar): boolean => Object.keys(s.spec.workloadSelector?.labels ?? {}).length > 0;

/** chooseSidecar, remembered per namespace where no Sidecar of it selects by labels. Per snapshot and call. */
export class SidecarChooser {
  private readonly byNamespace = new Map<string, Sidecar | undefined>();
  private readonly selecting = new Set<string>();

  constructor(
    private readonly snap: MeshSnapshot,
    private readonly rootNamespace: string,
  ) {
    for (const s of snap.sidecars) if (selects(s)) this.selecting.add(s.meta.namespace);
  }

  /** The Sidecar in force for `proxy` (undefined: none, or not a sidecar): chooseSidecar's answer. */
  of(proxy: ProxyModel): Sidecar | undefined {
    if (proxy.type !== 'sidecar') return undefined;
    if (this.selecting.has(proxy.namespace)) return chooseSidecar(this.snap.sidecars, proxy, this.rootNamespace);
    if (this.byNamespace.has(proxy.namespace)) return this.byNamespace.get(proxy.namespace);
    const sc = chooseSidecar(this.snap.sidecars, proxy, this.rootNamespace);
    this.byNamespace.set(proxy.namespace, sc);
    return sc;
  }
}

/**
 * `decide(sidecar in force, proxy)` for proxies of `snap`, computed once per (kind, namespace, Sidecar in force):
 * `decide` must read nothing else of the proxy.
 */
export class ScopeMemo<T> {
  private readonly chooser: SidecarChooser;
  private readonly memo = new Map<Sidecar | undefined, Map<string, T>>();

  constructor(
    snap: MeshSnapshot,
    rootNamespace: string,
    private readonly decide: (sidecar: Sidecar | undefined, proxy: ProxyModel) => T,
  ) {
    this.chooser = new SidecarChooser(snap, rootNamespace);
  }

  get(proxy: ProxyModel): T {
    const sc = this.chooser.of(proxy);
    let byNs = this.memo.get(sc);
    if (!byNs) this.memo.set(sc, (byNs = new Map()));
    const key = `${proxy.type}\u0000${proxy.namespace}`;
    if (byNs.has(key)) return byNs.get(key) as T;
    const v = this.decide(sc, proxy);
    byNs.set(key, v);
    return v;
  }
}

/** The proxies of one scope: a kind, a namespace and the Sidecar in force for them (`proxy`: any one of them). */
export interface ScopeGroup {
  readonly sidecar: Sidecar | undefined;
  readonly proxy: ProxyModel;
  readonly ids: readonly string[];
}

const GROUPS = Symbol('proxies by Sidecar scope');

function buildGroups(snap: MeshSnapshot, rootNamespace: string): ScopeGroup[] {
  const chooser = new SidecarChooser(snap, rootNamespace);
  const bySidecar = new Map<Sidecar | undefined, Map<string, { sidecar: Sidecar | undefined; proxy: ProxyModel; ids: string[] }>>();
  const out: ScopeGroup[] = [];
  for (const p of snap.proxies) {
    const sc = chooser.of(p);
    let byKind = bySidecar.get(sc);
    if (!byKind) bySidecar.set(sc, (byKind = new Map()));
    const key = `${p.type}\u0000${p.namespace}`;
    const g = byKind.get(key);
    if (g) g.ids.push(p.id);
    else {
      const fresh = { sidecar: sc, proxy: p, ids: [p.id] };
      byKind.set(key, fresh);
      out.push(fresh);
    }
  }
  return out;
}

/**
 * Whether `seed`'s groups are `snap`'s: the same Sidecars, and proxies that differ only in what no group reads (a pod's
 * IP or readiness: same id, kind and namespace at the same place, and the same labels where a Sidecar selects by them).
 */
function sameGroups(seed: MeshSnapshot, snap: MeshSnapshot): boolean {
  if (seed.sidecars !== snap.sidecars || seed.proxies.length !== snap.proxies.length) return false;
  let selecting: Set<string> | undefined;
  for (let i = 0; i < snap.proxies.length; i++) {
    const a = seed.proxies[i]!;
    const b = snap.proxies[i]!;
    if (a === b) continue;
    if (a.id !== b.id || a.type !== b.type || a.namespace !== b.namespace) return false;
    selecting ??= new Set(snap.sidecars.filter(selects).map((s) => s.meta.namespace));
    if (selecting.has(b.namespace) && JSON.stringify(a.labels) !== JSON.stringify(b.labels)) return false;
  }
  return true;
}

/**
 * `snap`'s proxies grouped by (kind, namespace, Sidecar in force), kept in its memo: a question whose answer depends on
 * those three only (ScopeMemo's `decide`) is asked once per group and expanded to the group's ids only where it holds.
 * Taken over from `seed` (the previous snapshot) when its proxies moved only in place (sameGroups: a pod's IP).
 */
export function scopeGroups(snap: MeshSnapshot, rootNamespace: string, seed?: MeshSnapshot): readonly ScopeGroup[] {
  const holder = (x: MeshSnapshot) =>
    x.memo?.get(GROUPS, [x.proxies, x.sidecars, rootNamespace], (): { groups?: readonly ScopeGroup[] } => ({}));
  const h = holder(snap);
  if (h?.groups) return h.groups;
  const had = seed ? holder(seed)?.groups : undefined;
  const groups = had && sameGroups(seed!, snap) ? had : buildGroups(snap, rootNamespace);
  if (h) h.groups = groups;
  return groups;
}

/**
 * Hands `prev`'s scope groups to `next` when `prev` has them and they hold for `next` (sameGroups): the push plane calls
 * this on every store change (it only carries, never groups), so the first pod move after other changes (VirtualService
 * edits) does not group every proxy of the previous snapshot again.
 */
export function keepScopeGroups(prev: MeshSnapshot, next: MeshSnapshot, rootNamespace: string): void {
  const had = prev.memo?.peek<{ groups?: readonly ScopeGroup[] }>(GROUPS, [prev.proxies, prev.sidecars, rootNamespace])?.groups;
  if (had && sameGroups(prev, next)) scopeGroups(next, rootNamespace, prev);
}
