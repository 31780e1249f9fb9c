// Which proxies a draft changes, and how. Candidates come from the change-impact logic the live path uses
// (pipeline/affected.ts: from the changed objects and the two snapshots, no translation); only those are
// translated, on both sides, and compared resource by resource (the resources ADS would send, as translated;
// evaluate() encodes the few it returns, for their Envoy JSON). A VirtualService-only draft translates only listeners and route
// configurations of a sidecar whose cluster set it does not change (translateParts.ts).
//
// Proxies of the same shape share a translation (DESIGN §5): when the draft only changes VirtualServices,
// a sidecar's route configurations depend on nothing of the pod but its namespace and — only when a
// sourceLabels match, a Sidecar or a DestinationRule workloadSelector exists — its labels (translate/view:
// buildProxyView, sidecarScope, destinationRules; routes/match.ts sourceLabels). One representative per
// shape is translated; when its difference is confined to route configurations the other members have the
// same difference, else each member is translated too. Under the ambient profile the shared ztunnel view is one
// more entry, `ztunnel` (./ztunnelDiff.ts). Pure apart from the caches the caller owns.
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { affectedProxies, parseStoreKey } from '../impact/affected';
import { diffProxy, type ProxyDelta } from './diffProxy';
import { type BaseParts, translateBoth } from './translateParts';
import type { BlastRadiusEntry, ProxyDiff } from './types';
import { ztunnelDelta } from './ztunnelDiff';

export interface BlastRadiusInput {
  base: MeshSnapshot;
  draft: MeshSnapshot;
  changed: readonly string[];
  options: TranslateOptions;
  /** The draft side's options (a draft of the mesh ConfigMap changes them); default `options`. */
  draftOptions?: TranslateOptions;
  /** Live-side translations kept across evaluations of the same live snapshot. */
  baseParts?: BaseParts;
  /** At most this many proxies are translated (per side); the remaining candidates are listed as unverified. */
  maxTranslate: number;
}

export interface BlastRadius {
  entries: BlastRadiusEntry[];
  diffs: Map<string, ProxyDiff>;
  candidates: number;
  translated: number;
}

function labelsMatter(snaps: readonly MeshSnapshot[]): boolean {
  for (const s of snaps) {
    if (s.sidecars.some((c) => Object.keys(c.spec.workloadSelector?.labels ?? {}).length > 0)) return true;
    if (s.destinationRules.some((d) => d.spec.workloadSelector !== undefined)) return true;
    for (const vs of s.virtualServices)
      for (const list of [vs.spec.http, vs.spec.tcp, vs.spec.tls])
        for (const r of list ?? [])
          for (const m of (r as { match?: { sourceLabels?: object }[] }).match ?? []) if (m.sourceLabels) return true;
  }
  return false;
}

/** The shape of a proxy for a VirtualService-only draft, or undefined when it must be translated on its own. */
function shapeOf(p: ProxyModel, withLabels: boolean): string | undefined {
  if (p.type !== 'sidecar') return undefined;
  return `${p.namespace}\u0000${withLabels ? JSON.stringify(Object.entries(p.labels).sort()) : ''}`;
}

export function blastRadius(input: BlastRadiusInput): BlastRadius {
  const { base, draft, options } = input;
  const affected = affectedProxies(base, draft, { changed: [...input.changed] }, options);
  const vsOnly = input.changed.length > 0 && input.changed.every((k) => parseStoreKey(k)?.kind === 'VirtualService');
  const withLabels = vsOnly && labelsMatter([base, draft]);
  let translated = 0;
  const translate = (id: string): ProxyDelta | undefined => {
    translated++;
    const both = translateBoth(base, draft, id, options, vsOnly, input.baseParts, input.draftOptions ?? options);
    return diffProxy(id, both.before, both.after);
  };
  const shared = new Map<string, ProxyDelta | undefined>();
  const entries: BlastRadiusEntry[] = [];
  const diffs = new Map<string, ProxyDiff>();
  for (const id of affected.proxies) {
    const p = draft.proxiesById.get(id) ?? base.proxiesById.get(id);
    if (!p) continue;
    const shape = vsOnly ? shapeOf(p, withLabels) : undefined;
    let delta: ProxyDelta | undefined;
    const rep = shape !== undefined ? shared.get(shape) : undefined;
    if (shape !== undefined && shared.has(shape) && (rep === undefined || (rep.types.length === 1 && rep.types[0] === 'routes')))
      delta = rep && { types: rep.types, diff: { ...rep.diff, proxy: id } };
    else if (translated >= input.maxTranslate) {
      entries.push({
        proxy: id,
        type: p.type,
        namespace: p.namespace,
        types: affected.types,
        summary: [`may change (not translated: over the limit of ${input.maxTranslate} proxies)`],
        unverified: true,
      });
      continue;
    } else {
      delta = translate(id);
      if (shape !== undefined && !shared.has(shape)) shared.set(shape, delta);
    }
    if (!delta) continue;
    entries.push({ proxy: id, type: p.type, namespace: p.namespace, types: delta.types, summary: delta.diff.summary });
    diffs.set(id, delta.diff);
  }
  // Under the ambient profile: what every ztunnel is sent (one shared view), after the proxies.
  const z = ztunnelDelta(base, draft, options, input.draftOptions ?? options);
  if (z) {
    entries.push(z.entry);
    diffs.set(z.entry.proxy, z.diff);
  }
  return { entries, diffs, candidates: affected.proxies.length, translated };
}
