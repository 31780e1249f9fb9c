// What the sandbox translates of a proxy: everything (translateProxy), or — for a draft that changes only
// VirtualServices, on a sidecar whose cluster set the draft does not change — only its listeners and route
// configurations. A VirtualService reaches CDS/EDS only through the services a proxy needs clusters for
// (translate/view/clusterServices.ts servicesForClusters: imported services + destinations of imported
// VirtualServices); when that set is the same on both sides, clusters and endpoints are the same too, and
// translating them (most of a big mesh's translation time) is skipped. The sidecar branch below follows
// translateProxy's step for step (translateParts.test.ts checks they agree).
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import type { BoundedCache } from '../pipeline/cache';
import { buildProxyTable } from '../pipeline/stages';
import { collectRouteProvenance, createRouteSourceSink } from '../translate/routeSources';
import type { ListenerJson, RouteConfigurationJson, RouteProvenance } from '../translate/types';
import { buildProxyView, servicesForClusters } from '../translate/view';
import type { ProxyView } from '../translate/view/types';
import { buildSidecarListeners } from '../translate/xds/listeners';
import { buildSidecarRouteConfigs, buildSniffedRouteConfig } from '../translate/xds/routes';

export interface Parts {
  listeners: readonly unknown[];
  routes: readonly unknown[];
  clusters: readonly unknown[];
  endpoints: readonly unknown[];
  provenance: readonly RouteProvenance[];
}

const byName = <T extends { name?: string }>(a: T, b: T) =>
  (a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : 0;

/** A sidecar's listeners and route configurations, exactly as translateProxy builds them (with provenance). */
export function sidecarListenersAndRoutes(view: ProxyView): Parts {
  const sink = createRouteSourceSink();
  const lds = buildSidecarListeners(view);
  const routes: RouteConfigurationJson[] = [...buildSidecarRouteConfigs(view, lds.httpRoutePorts, sink).routes];
  for (const s of lds.sniffedRoutes) {
    const service = view.service(s.hostname);
    if (service) routes.push(buildSniffedRouteConfig(view, service, s.port, sink).route);
  }
  const listeners: ListenerJson[] = [...lds.listeners].sort(byName);
  routes.sort(byName);
  return { listeners, routes, clusters: [], endpoints: [], provenance: collectRouteProvenance(routes, sink) };
}

const clusterHosts = (view: ProxyView) =>
  servicesForClusters(view)
    .map((s) => `${s.namespace}/${s.hostname}`)
    .sort()
    .join('\n');

/** What one side of a proxy gives: its cluster-service set, and its listeners + routes or its whole table. */
interface SideParts {
  hosts?: string;
  lr?: Parts;
  full?: Parts;
}

/**
 * Translations of the live side, reused across evaluations of the same live snapshot (the caller owns it and
 * keys nothing else into it; entries of an older snapshot version can never hit).
 */
export type BaseParts = BoundedCache<SideParts>;

function side(snap: MeshSnapshot, p: ProxyModel, options: TranslateOptions, cache: BaseParts | undefined): SideParts {
  const key = `${snap.version}\u0000${p.id}\u0000${JSON.stringify(options)}`;
  const hit = cache?.get(key);
  if (hit) return hit;
  const fresh: SideParts = {};
  cache?.set(key, fresh);
  return fresh;
}

/**
 * Both sides of one proxy. `vsOnly`: every changed object is a VirtualService. Undefined on a side where
 * the proxy does not exist. `baseCache` keeps live-side work for the next evaluation.
 */
export function translateBoth(
  base: MeshSnapshot,
  draft: MeshSnapshot,
  id: string,
  options: TranslateOptions,
  vsOnly: boolean,
  baseCache?: BaseParts,
  /** The draft side's options when the draft changes the mesh config (else `options`). */
  draftOptions: TranslateOptions = options,
): { before?: Parts; after?: Parts } {
  const pb: ProxyModel | undefined = base.proxiesById.get(id);
  const pd: ProxyModel | undefined = draft.proxiesById.get(id);
  const live = pb ? side(base, pb, options, baseCache) : undefined;
  if (vsOnly && pb && pd && live && pb.type === 'sidecar' && pd.type === 'sidecar') {
    let vb: ProxyView | undefined;
    const viewB = () => (vb ??= buildProxyView(base, pb, options));
    live.hosts ??= clusterHosts(viewB());
    const vd = buildProxyView(draft, pd, draftOptions);
    if (live.hosts === clusterHosts(vd)) {
      live.lr ??= sidecarListenersAndRoutes(viewB());
      return { before: live.lr, after: sidecarListenersAndRoutes(vd) };
    }
  }
  if (live && pb) live.full ??= buildProxyTable(base, pb, options);
  return {
    ...(live?.full ? { before: live.full } : {}),
    ...(pd ? { after: buildProxyTable(draft, pd, draftOptions) } : {}),
  };
}
