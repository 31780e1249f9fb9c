// Which EnvoyFilters apply nowhere — on no proxy of the mesh — and why (the overview's list, issue #22 §2).
// istiod has no such view: its `pilot_envoy_filter_status` gauge is mesh-wide and behind a feature flag. Here the
// selection (select.ts candidateFilters) runs on every Envoy proxy, and the proxies a filter selects are
// translated through the pipeline (the caller's `reports`, normally the runtime's shared resource cache) until one
// of its patches changed one of them. Translation stops early: a filter found applied on one proxy needs no more,
// and at most `limit` proxies are translated (then the answer says it is partial, never "applies nowhere" on a guess).
import type { IstioConfig, MeshSnapshot, ProxyModel } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { candidateFilters } from './select';
import type { EnvoyFilterPatchReport } from './types';

export interface EnvoyFilterReach {
  namespace: string;
  name: string;
  /** Envoy proxies the filter selects (its namespace or the root namespace; workloadSelector / targetRefs). */
  selected: number;
  /** Proxies seen with a config one of its patches changed (counting stops at the first: 0 or 1). */
  applied: number;
  /** Why it applies nowhere (applied 0): the selection's reasons, else each patch's, with how many proxies. */
  why: string[];
  /** Some selected proxies were not translated (the budget): `applied: 0` is then not proven. */
  partial?: boolean;
}

export interface ReachOptions {
  rootNamespace: string;
  /** Most proxies translated for one answer. */
  limit?: number;
}

export const REACH_TRANSLATE_LIMIT = 300;

const key = (ef: { namespace: string; name: string }) => `${ef.namespace}/${ef.name}`;
const proxies = (n: number) => `${n} prox${n === 1 ? 'y' : 'ies'}`;

/** `reason (N proxies)` lines, most frequent first, at most `max`. */
function tally(counts: ReadonlyMap<string, number>, max = 3): string[] {
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const out = sorted.slice(0, max).map(([r, n]) => `${r} (${proxies(n)})`);
  if (sorted.length > max) out.push(`… ${sorted.length - max} other reasons`);
  return out;
}

/**
 * Every EnvoyFilter of `snapshot` with how far it reaches; `reports(proxy)` is the proxy's EnvoyFilter stage report
 * (translating it). Order: the snapshot's.
 */
export function envoyFilterReach(
  snapshot: MeshSnapshot,
  reports: (proxy: ProxyModel) => readonly EnvoyFilterPatchReport[] | undefined,
  opts: ReachOptions,
): EnvoyFilterReach[] {
  const filters = snapshot.envoyFilters ?? [];
  if (filters.length === 0) return [];
  const limit = opts.limit ?? REACH_TRANSLATE_LIMIT;
  const selectedOn = new Map<string, ProxyModel[]>();
  const rejections = new Map<string, Map<string, number>>();
  const inScope = new Map<string, number>();
  for (const ef of filters) {
    selectedOn.set(key(ef.meta), []);
    rejections.set(key(ef.meta), new Map());
    inScope.set(key(ef.meta), 0);
  }
  for (const proxy of snapshot.proxies) {
    if (!proxyKind(proxy).envoy) continue;
    const { selected, rejected } = candidateFilters(snapshot, proxy, opts.rootNamespace);
    for (const ef of selected) {
      selectedOn.get(key(ef.meta))?.push(proxy);
      inScope.set(key(ef.meta), (inScope.get(key(ef.meta)) ?? 0) + 1);
    }
    for (const { ef, reason } of rejected) {
      const m = rejections.get(key(ef.meta));
      m?.set(reason, (m.get(reason) ?? 0) + 1);
      inScope.set(key(ef.meta), (inScope.get(key(ef.meta)) ?? 0) + 1);
    }
  }

  // Translate the selected proxies until each filter is seen applied (or the budget is spent).
  const applied = new Set<string>();
  const patchReasons = new Map<string, Map<number, Map<string, number>>>();
  const translated = new Set<string>();
  const untranslated = new Set<string>();
  for (const ef of filters) {
    const k = key(ef.meta);
    for (const proxy of selectedOn.get(k) ?? []) {
      if (applied.has(k)) break;
      if (!translated.has(proxy.id)) {
        if (translated.size >= limit) {
          untranslated.add(k);
          break;
        }
        translated.add(proxy.id);
        for (const r of reports(proxy) ?? []) {
          const rk = key(r);
          if (r.applied) applied.add(rk);
          else if (r.reason) {
            const byPatch = patchReasons.get(rk) ?? new Map<number, Map<string, number>>();
            patchReasons.set(rk, byPatch);
            const m = byPatch.get(r.patch) ?? new Map<string, number>();
            byPatch.set(r.patch, m);
            m.set(r.reason, (m.get(r.reason) ?? 0) + 1);
          }
        }
      }
    }
  }

  return filters.map((ef) =>
    reachOf(ef, opts.rootNamespace, {
      selected: selectedOn.get(key(ef.meta))?.length ?? 0,
      applied: applied.has(key(ef.meta)),
      inScope: inScope.get(key(ef.meta)) ?? 0,
      rejections: rejections.get(key(ef.meta)) ?? new Map(),
      patchReasons: patchReasons.get(key(ef.meta)) ?? new Map(),
      partial: untranslated.has(key(ef.meta)),
    }),
  );
}

function reachOf(
  ef: IstioConfig<'EnvoyFilter'>,
  rootNamespace: string,
  s: {
    selected: number;
    applied: boolean;
    inScope: number;
    rejections: ReadonlyMap<string, number>;
    patchReasons: ReadonlyMap<number, ReadonlyMap<string, number>>;
    partial: boolean;
  },
): EnvoyFilterReach {
  const base = { namespace: ef.meta.namespace, name: ef.meta.name, selected: s.selected, applied: s.applied ? 1 : 0 };
  if (s.applied) return { ...base, why: [] };
  const why: string[] = [];
  if ((ef.spec.configPatches ?? []).length === 0) why.push('no configPatches');
  if (s.inScope === 0) {
    why.push(
      ef.meta.namespace === rootNamespace
        ? 'no Envoy proxy in the mesh (root namespace: applies to every namespace)'
        : `no Envoy proxy in namespace ${ef.meta.namespace} (an EnvoyFilter outside the root namespace ${rootNamespace} applies to its own namespace only)`,
    );
  } else if (s.selected === 0) {
    why.push(...tally(s.rejections).map((r) => `selects no proxy: ${r}`));
  } else {
    for (const [i, reasons] of [...s.patchReasons].sort((a, b) => a[0] - b[0])) {
      const cp = ef.spec.configPatches?.[i];
      const what = `configPatches[${i}] ${cp?.applyTo ?? ''} ${cp?.patch?.operation ?? ''}`.trim();
      why.push(...tally(reasons).map((r) => `${what}: ${r}`));
    }
    if (why.length === 0) why.push(`selects ${proxies(s.selected)}, but no patch changed their config`);
  }
  return { ...base, why, ...(s.partial ? { partial: true } : {}) };
}
