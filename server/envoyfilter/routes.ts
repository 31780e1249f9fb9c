// ROUTE_CONFIGURATION, VIRTUAL_HOST and HTTP_ROUTE patches (pilot/pkg/networking/core/envoyfilter/rc_patch.go
// ApplyRouteConfigurationPatches, patchVirtualHosts, patchVirtualHost, patchHTTPRoutes, patchHTTPRoute). Contexts:
// gateway route configs GATEWAY, RDS route configs of sidecars SIDECAR_OUTBOUND, the inline route configs of
// inbound HCMs SIDECAR_INBOUND. Mutates the route config it is given (a copy; its virtual hosts may be shared: the ones
// a patch changes are copied here).
import type { EnvoyFilterPatchContext } from '../model/istio';
import { messageOf } from './decode';
import { contextMatch, hasRouteMatch, routeConfigurationMatch, routeMatch, virtualHostMatch } from './match';
import { clone, type Json, mergeMessage } from './merge';
import type { PatchWrapper } from './types';

const hit = (p: PatchWrapper, where: string) => {
  p.report.applied = true;
  p.report.targets.push(where);
};
const isMerge = (p: PatchWrapper) => p.operation === 'MERGE' || p.operation === 'MERGE_AND_REPLACE_LIST';
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

export function patchRouteConfiguration(
  ctx: EnvoyFilterPatchContext,
  rc: Json,
  patches: readonly PatchWrapper[],
  portMap: ReadonlyMap<number, ReadonlySet<number>>,
  where: string,
): void {
  const rcMatch = (p: PatchWrapper) => contextMatch(ctx, p) && routeConfigurationMatch(ctx, rc, p, portMap);
  for (const p of patches) {
    if (p.applyTo !== 'ROUTE_CONFIGURATION' || !isMerge(p) || !p.value || !rcMatch(p)) continue;
    const before = JSON.stringify(rc);
    mergeMessage(messageOf('ROUTE_CONFIGURATION')!, rc, p.value, p.operation === 'MERGE_AND_REPLACE_LIST');
    if (JSON.stringify(rc) !== before) hit(p, where);
  }
  const vhosts = arr(rc.virtualHosts);
  const removed = new Set<Json>();
  // Patches that can change a virtual host of this route config; a virtual host none of them matches is left as it
  // is (and shared: the caller's copy of `rc` may share its virtual hosts with the translator's, so one that changes
  // is copied first).
  const vhPatches = patches.filter((p) => (p.applyTo === 'VIRTUAL_HOST' || p.applyTo === 'HTTP_ROUTE') && rcMatch(p));
  vhosts.forEach((_, i) => {
    if (!vhPatches.some((p) => virtualHostMatch(vhosts[i], p))) return;
    vhosts[i] = clone(vhosts[i] as Json);
    const vhWhere = () => `${where} / vhost ${String(vhosts[i]?.name)}`;
    for (const p of patches) {
      if (p.applyTo !== 'VIRTUAL_HOST' || !rcMatch(p) || !virtualHostMatch(vhosts[i], p)) continue;
      if (p.operation === 'REMOVE') {
        hit(p, `${vhWhere()} (removed)`);
        removed.add(vhosts[i] as Json);
        return;
      }
      if (isMerge(p) && p.value) {
        const before = JSON.stringify(vhosts[i]);
        mergeMessage(messageOf('VIRTUAL_HOST')!, vhosts[i] as Json, p.value, p.operation === 'MERGE_AND_REPLACE_LIST');
        if (JSON.stringify(vhosts[i]) !== before) hit(p, vhWhere());
      } else if (p.operation === 'REPLACE' && p.value) {
        vhosts[i] = clone(p.value);
        hit(p, `${vhWhere()} (replaced)`);
      }
    }
    patchRoutes(ctx, rc, vhosts[i] as Json, patches, portMap, vhWhere());
  });
  for (const p of patches) {
    if (p.applyTo !== 'VIRTUAL_HOST' || p.operation !== 'ADD' || !p.value || !rcMatch(p)) continue;
    vhosts.push(clone(p.value));
    hit(p, `${where} / vhost ${String(p.value.name ?? '')} (added)`);
  }
  const kept = vhosts.filter((v) => !removed.has(v));
  if (kept.length || rc.virtualHosts !== undefined) rc.virtualHosts = kept;
}

function patchRoutes(
  ctx: EnvoyFilterPatchContext,
  rc: Json,
  vh: Json,
  patches: readonly PatchWrapper[],
  portMap: ReadonlyMap<number, ReadonlySet<number>>,
  where: string,
): void {
  const base = (p: PatchWrapper) =>
    p.applyTo === 'HTTP_ROUTE' && contextMatch(ctx, p) && routeConfigurationMatch(ctx, rc, p, portMap) && virtualHostMatch(vh, p);
  const routes: Array<Json | null> = arr(vh.routes);
  routes.forEach((_, i) => {
    for (const p of patches) {
      const r = routes[i];
      if (!r || !base(p) || !routeMatch(r, p)) continue;
      const at = `${where} / routes[${i}]${r.name ? ` ${String(r.name)}` : ''}`;
      if (p.operation === 'REMOVE') {
        routes[i] = null;
        hit(p, `${at} (removed)`);
        return;
      }
      if (isMerge(p) && p.value) {
        const before = JSON.stringify(r);
        mergeMessage(messageOf('HTTP_ROUTE')!, r, p.value, p.operation === 'MERGE_AND_REPLACE_LIST');
        if (JSON.stringify(r) !== before) hit(p, at);
      }
    }
  });
  const list = routes as Json[];
  for (const p of patches) {
    if (!base(p) || !p.value) continue;
    const v = () => clone(p.value as Json);
    let done = false;
    switch (p.operation) {
      case 'ADD':
        list.push(v());
        done = true;
        break;
      case 'INSERT_AFTER':
      case 'INSERT_BEFORE': {
        if (!hasRouteMatch(p)) {
          if (p.operation === 'INSERT_AFTER') list.push(v());
          else list.unshift(v());
          done = true;
          break;
        }
        const i = list.findIndex((r) => r !== null && routeMatch(r, p));
        if (i >= 0) {
          list.splice(p.operation === 'INSERT_AFTER' ? i + 1 : i, 0, v());
          done = true;
        }
        break;
      }
      case 'INSERT_FIRST':
        if (!hasRouteMatch(p) || list.some((r) => r !== null && routeMatch(r, p))) {
          list.unshift(v());
          done = true;
        }
        break;
      default:
        break;
    }
    if (done) hit(p, `${where} / routes (${p.operation.toLowerCase()})`);
  }
  const kept = list.filter((r) => r !== null);
  if (kept.length || vh.routes !== undefined) vh.routes = kept;
}
