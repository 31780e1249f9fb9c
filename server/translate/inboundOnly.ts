// A sidecar's per-pod resources alone: what buildSidecarListeners' inbound step and buildClusters' inbound
// step produce (the virtualInbound listener and captureMode NONE ingress listeners; the inbound clusters and
// InboundPassthroughCluster), built exactly as the full translation builds them. The pipeline's per-scope
// sharing (server/pipeline/scopeSharing.ts) pairs this with the outbound resources of another proxy of the
// same scope, as istiod builds outbound config once per SidecarScope and inbound per proxy. Pure.
import type { LoadError, MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import type { ClusterJson, ListenerJson } from './types';
import { buildProxyView } from './view';
import { buildInboundClusters } from './xds/clusters/inbound';
import { inboundPassthroughCluster } from './xds/clusters/special';
import type { BuildCtx } from './xds/listeners/context';
import { buildInboundListeners } from './xds/listeners/inbound';

export interface InboundResources {
  /** In build order (the full translation sorts its listeners by name). */
  listeners: ListenerJson[];
  /** In build order, the first of a name kept (as buildClusters keeps it). */
  clusters: ClusterJson[];
  /** Problems met building them: a caller shares nothing when there are any (the scope's own are the outbound part's). */
  errors: LoadError[];
}

/** The inbound resources of a sidecar; undefined when a builder threw (the full translation reports that). */
export function translateSidecarInbound(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions,
): InboundResources | undefined {
  const view = buildProxyView(snapshot, proxy, options, 'inbound');
  const ctx: BuildCtx = { view, errors: [] };
  let listeners: ListenerJson[];
  try {
    listeners = buildInboundListeners(ctx);
  } catch {
    return undefined;
  }
  const errors: LoadError[] = [...view.errors, ...ctx.errors];
  const all = [...buildInboundClusters(view, errors), inboundPassthroughCluster(options.connectTimeout, proxy)];
  const seen = new Set<string>();
  const clusters = all.filter((c) => {
    const name = c.name ?? '';
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
  return { listeners, clusters, errors };
}
