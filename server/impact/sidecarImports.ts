// Narrows change impact by Sidecar egress imports, as istiod's SidecarScope.DependsOnConfig does in
// ProxyNeedsPush (pilot/pkg/model/sidecar.go: a config change reaches a sidecar only if its scope selected
// the config): a VirtualService edit cannot change a sidecar whose Sidecar imports none of the edited
// VirtualService's hosts (from its namespace), before or after the edit. affected.ts scopes by namespace
// and exportTo only; this runs after it, for changes made of VirtualServices alone. Conservative: a proxy is
// kept whenever anything is unclear (not a sidecar, no Sidecar or no egress, a delegate VirtualService).
import { resolveShortname } from '../model/host';
import type { IstioConfig, MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { importedHosts, selectVirtualServices } from '../translate/view/sidecarScope';
import { parseStoreKey } from './affected';
import { ScopeMemo } from './scopeMemo';

type Vs = IstioConfig<'VirtualService'>;

/** The VirtualServices named by `changed` in a snapshot (undefined: a change that is not only VirtualServices). */
function changedVirtualServices(snap: MeshSnapshot, changed: readonly string[]): Vs[] | undefined {
  const out: Vs[] = [];
  for (const key of changed) {
    const k = parseStoreKey(key);
    if (k?.kind !== 'VirtualService') return undefined;
    const vs = snap.virtualServices.find((v) => v.meta.namespace === k.namespace && v.meta.name === k.name);
    if (vs) out.push(vs);
  }
  return out;
}

/** Whether `sc`, the Sidecar in force for a sidecar of `namespace`, may select any of `vss` (`resolved`: their hosts made FQDN too). */
function mayImport(
  sc: IstioConfig<'Sidecar'> | undefined,
  namespace: string,
  vss: readonly Vs[],
  resolved: readonly Vs[],
  options: TranslateOptions,
): boolean {
  if (!sc || (sc.spec.egress ?? []).length === 0) return true;
  if (vss.some((v) => (v.spec.hosts ?? []).length === 0)) return true;
  return selectVirtualServices([...vss, ...resolved], importedHosts(sc, namespace, options)).length > 0;
}

/**
 * `affected` minus the sidecars that neither snapshot's Sidecar lets see any VirtualService of `changed`;
 * `affected` itself when the change is not VirtualServices only. The answer depends on a proxy's kind, namespace and
 * Sidecar in force only, so it is decided once per scope (scopeMemo.ts), not once per proxy.
 */
export function narrowBySidecarImports(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  changed: readonly string[],
  affected: readonly string[],
  options: TranslateOptions,
): string[] {
  const before = changedVirtualServices(prev, changed);
  const after = changedVirtualServices(next, changed);
  if (!before || !after) return [...affected];
  const vss = [...before, ...after];
  const resolved = vss.map((v) => ({
    ...v,
    spec: { ...v.spec, hosts: (v.spec.hosts ?? []).map((h) => resolveShortname(h, v.meta.namespace, options.domainSuffix)) },
  }));
  const decide = (sc: IstioConfig<'Sidecar'> | undefined, p: ProxyModel) =>
    p.type !== 'sidecar' || mayImport(sc, p.namespace, vss, resolved, options);
  const memos = [new ScopeMemo(prev, options.rootNamespace, decide), new ScopeMemo(next, options.rootNamespace, decide)] as const;
  return affected.filter((id) => {
    const a = prev.proxiesById.get(id);
    const b = next.proxiesById.get(id);
    return !a || !b || memos[0].get(a) || memos[1].get(b);
  });
}
