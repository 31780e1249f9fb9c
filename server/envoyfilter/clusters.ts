// CLUSTER patches (pilot/pkg/networking/core/envoyfilter/cluster_patch.go ApplyClusterMerge,
// mergeTransportSocketCluster, InsertedClusters, ShouldKeepCluster). Contexts: gateway clusters GATEWAY, inbound
// clusters SIDECAR_INBOUND, the rest SIDECAR_OUTBOUND. Mutates the clusters it is given (copies).
import type { EnvoyFilterPatchContext } from '../model/istio';
import { messageOf } from './decode';
import { clusterMatch, contextMatch } from './match';
import { clone, type Json, mergeAnyWithAny, mergeMessage } from './merge';
import type { PatchWrapper } from './types';

const hit = (p: PatchWrapper, where: string) => {
  p.report.applied = true;
  p.report.targets.push(where);
};

export function clusterContext(c: Json, gateway: boolean): EnvoyFilterPatchContext {
  if (gateway) return 'GATEWAY';
  const name = String(c.name ?? '');
  return name.startsWith('inbound|') || name === 'InboundPassthroughCluster' ? 'SIDECAR_INBOUND' : 'SIDECAR_OUTBOUND';
}

/** ApplyClusterMerge on each cluster (REMOVE drops it), then InsertedClusters for each context present. */
export function patchClusters(
  clusters: Json[],
  patches: readonly PatchWrapper[],
  gateway: boolean,
  inboundHosts: readonly string[],
): Json[] {
  const out: Json[] = [];
  for (const c of clusters) {
    const ctx = clusterContext(c, gateway);
    const where = `cluster ${String(c.name)}`;
    let removed = false;
    for (const p of patches) {
      if (p.applyTo !== 'CLUSTER' || !contextMatch(ctx, p) || !clusterMatch(c, p, inboundHosts)) continue;
      if (p.operation === 'REMOVE') {
        hit(p, `${where} (removed)`);
        removed = true;
        break;
      }
      if ((p.operation !== 'MERGE' && p.operation !== 'MERGE_AND_REPLACE_LIST') || !p.value) continue;
      const before = JSON.stringify(c);
      if (!mergeTransportSocket(c, p.value)) mergeMessage(messageOf('CLUSTER')!, c, p.value, p.operation === 'MERGE_AND_REPLACE_LIST');
      if (JSON.stringify(c) !== before) hit(p, where);
    }
    if (!removed) out.push(c);
  }
  // InsertedClusters: istiod inserts for SIDECAR_OUTBOUND and SIDECAR_INBOUND (sidecars) or GATEWAY; ANY only once.
  const contexts: EnvoyFilterPatchContext[] = gateway ? ['GATEWAY'] : ['SIDECAR_OUTBOUND', 'SIDECAR_INBOUND'];
  for (const ctx of contexts) {
    for (const p of patches) {
      if (p.applyTo !== 'CLUSTER' || p.operation !== 'ADD' || !p.value) continue;
      if (p.context === 'ANY' && ctx !== 'SIDECAR_OUTBOUND' && ctx !== 'GATEWAY') continue;
      if (!contextMatch(ctx, p)) continue;
      out.push(clone(p.value));
      hit(p, `cluster ${String(p.value.name ?? '')} (added)`);
    }
  }
  return out;
}

/** mergeTransportSocketCluster: true when the patch's transport socket was handled (merged, set or skipped). */
function mergeTransportSocket(c: Json, value: Json): boolean {
  const pts = value.transportSocket as Json | undefined;
  if (!pts) return false;
  let ts: Json | undefined;
  const matches = Array.isArray(c.transportSocketMatches) ? (c.transportSocketMatches as Json[]) : [];
  if (matches.length > 0) {
    ts = matches.map((m) => m.transportSocket as Json | undefined).find((t) => t?.name === pts.name);
    if (!ts) return true;
  } else if (c.transportSocket && (c.transportSocket as Json).name === pts.name) {
    ts = c.transportSocket as Json;
  }
  if (!ts) {
    c.transportSocket = clone(pts);
    return true;
  }
  if (ts.typedConfig && pts.typedConfig) {
    const merged = mergeAnyWithAny(ts.typedConfig as Json, pts.typedConfig as Json);
    if (merged) ts.typedConfig = merged;
  }
  return true;
}
