// LISTENER, LISTENER_FILTER, FILTER_CHAIN, NETWORK_FILTER and HTTP_FILTER patches
// (pilot/pkg/networking/core/envoyfilter/listener_patch.go; contexts from listener_builder.go patchListeners:
// gateways GATEWAY, virtualInbound and inbound listeners SIDECAR_INBOUND, the rest SIDECAR_OUTBOUND). Mutates the
// listeners it is given (the caller passes copies); every change is recorded on the patch's report.
import type { EnvoyFilterPatchContext } from '../model/istio';
import {
  contextMatch,
  filterChainMatch,
  hasHttpFilterMatch,
  hasListenerFilterMatch,
  hasNetworkFilterMatch,
  httpFilterMatch,
  listenerFilterMatch,
  listenerMatch,
  networkFilterMatch,
} from './match';
import { clone, type Json, mergeAnyWithAny, mergeMessage } from './merge';
import { messageOf } from './decode';
import type { PatchWrapper } from './types';

const HCM = 'envoy.filters.network.http_connection_manager';
const HCM_TYPE = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';

const hit = (p: PatchWrapper, where: string) => {
  p.report.applied = true;
  p.report.targets.push(where);
};
const isMerge = (p: PatchWrapper) => p.operation === 'MERGE' || p.operation === 'MERGE_AND_REPLACE_LIST';
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** Inserts `v` relative to the first element `match` accepts; false when none does. */
function insertAt(list: Json[], match: (e: Json) => boolean, v: Json, after: boolean): boolean {
  const i = list.findIndex(match);
  if (i < 0) return false;
  list.splice(after ? i + 1 : i, 0, v);
  return true;
}

/** The listener's patch context. */
export function listenerContext(l: Json, gateway: boolean): EnvoyFilterPatchContext {
  if (gateway) return 'GATEWAY';
  return l.name === 'virtualInbound' || l.trafficDirection === 'INBOUND' ? 'SIDECAR_INBOUND' : 'SIDECAR_OUTBOUND';
}

/** patchListeners for one context group: patches, removals, then LISTENER ADDs (not for skipAdds). */
export function patchListeners(
  ctx: EnvoyFilterPatchContext,
  listeners: Json[],
  patches: readonly PatchWrapper[],
  skipAdds: boolean,
): Json[] {
  const kept: Json[] = [];
  for (const l of listeners) if (!patchListener(ctx, l, patches)) kept.push(l);
  if (!skipAdds) {
    for (const p of patches) {
      if (p.applyTo !== 'LISTENER' || p.operation !== 'ADD') continue;
      if (p.context === 'ANY' && ctx !== 'SIDECAR_OUTBOUND' && ctx !== 'GATEWAY') continue;
      if (!contextMatch(ctx, p) || !p.value) continue;
      kept.push(clone(p.value));
      hit(p, `listener ${String(p.value.name ?? '')} (added)`);
    }
  }
  return kept;
}

/** patchListener: true when a REMOVE took the listener out. */
function patchListener(ctx: EnvoyFilterPatchContext, l: Json, patches: readonly PatchWrapper[]): boolean {
  const where = `listener ${String(l.name)}`;
  for (const p of patches) {
    if (p.applyTo !== 'LISTENER' || !contextMatch(ctx, p) || !listenerMatch(l, p)) continue;
    if (p.operation === 'REMOVE') {
      hit(p, `${where} (removed)`);
      return true;
    }
    if (isMerge(p) && p.value) {
      const before = JSON.stringify(l);
      mergeMessage(messageOf('LISTENER')!, l, p.value, p.operation === 'MERGE_AND_REPLACE_LIST');
      if (JSON.stringify(l) !== before) hit(p, where);
    }
  }
  patchListenerFilters(ctx, l, patches, where);
  patchFilterChains(ctx, l, patches, where);
  return false;
}

function patchListenerFilters(ctx: EnvoyFilterPatchContext, l: Json, patches: readonly PatchWrapper[], where: string): void {
  for (const p of patches) {
    if (p.applyTo !== 'LISTENER_FILTER' || !contextMatch(ctx, p) || !listenerMatch(l, p)) continue;
    const list = arr(l.listenerFilters);
    const v = () => clone(p.value ?? {});
    const at = `${where} / listener_filters`;
    let done = false;
    switch (p.operation) {
      case 'ADD':
        list.push(v());
        done = true;
        break;
      case 'INSERT_FIRST':
        list.unshift(v());
        done = true;
        break;
      case 'INSERT_AFTER':
      case 'INSERT_BEFORE':
        if (!hasListenerFilterMatch(p)) {
          if (p.operation === 'INSERT_AFTER') list.push(v());
          else list.unshift(v());
          done = true;
        } else done = insertAt(list, (e) => listenerFilterMatch(e, p), v(), p.operation === 'INSERT_AFTER');
        break;
      case 'REPLACE': {
        if (!hasListenerFilterMatch(p)) break;
        const i = list.findIndex((e) => listenerFilterMatch(e, p));
        if (i >= 0) {
          list[i] = v();
          done = true;
        }
        break;
      }
      case 'REMOVE': {
        if (!hasListenerFilterMatch(p)) break;
        const n = list.length;
        const rest = list.filter((e) => !listenerFilterMatch(e, p));
        list.splice(0, list.length, ...rest);
        done = rest.length !== n;
        break;
      }
      case 'MERGE':
        if (!hasListenerFilterMatch(p)) break;
        for (const f of list) if (listenerFilterMatch(f, p) && mergeTyped(f, p)) done = true;
        break;
      default:
        break;
    }
    if (list.length) l.listenerFilters = list;
    else delete l.listenerFilters;
    if (done) hit(p, at);
  }
}

/** The MERGE of a filter (network, HTTP or listener filter): name taken from the patch, typed configs merged. */
function mergeTyped(f: Json, p: PatchWrapper): boolean {
  if (f.typedConfig === undefined) return false;
  const before = JSON.stringify(f);
  const user = p.value ?? {};
  if (typeof user.name === 'string' && user.name !== '') f.name = user.name;
  if (user.typedConfig && typeof user.typedConfig === 'object') {
    const merged = mergeAnyWithAny(f.typedConfig as Json, user.typedConfig as Json);
    if (merged) f.typedConfig = merged;
  }
  return JSON.stringify(f) !== before;
}

function patchFilterChains(ctx: EnvoyFilterPatchContext, l: Json, patches: readonly PatchWrapper[], where: string): void {
  const chains = arr(l.filterChains);
  chains.forEach((fc, i) => {
    if (fc.filters !== undefined) patchFilterChain(ctx, l, fc, patches, `${where} / chain ${String(fc.name ?? i)}`);
  });
  const def = l.defaultFilterChain as Json | undefined;
  if (def?.filters !== undefined) {
    patchFilterChain(ctx, l, def, patches, `${where} / default chain ${String(def.name ?? '')}`);
    if (def.filters === null) delete l.defaultFilterChain;
  }
  for (const p of patches) {
    if (p.applyTo !== 'FILTER_CHAIN' || p.operation !== 'ADD') continue;
    if (!contextMatch(ctx, p) || !listenerMatch(l, p)) continue;
    chains.push(clone(p.value ?? {}));
    hit(p, `${where} / chain ${String(p.value?.name ?? chains.length - 1)} (added)`);
  }
  const kept = chains.filter((fc) => fc.filters !== null);
  if (kept.length || l.filterChains !== undefined) l.filterChains = kept;
}

function patchFilterChain(ctx: EnvoyFilterPatchContext, l: Json, fc: Json, patches: readonly PatchWrapper[], where: string): void {
  for (const p of patches) {
    if (p.applyTo !== 'FILTER_CHAIN' || !contextMatch(ctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p)) continue;
    if (p.operation === 'REMOVE') {
      fc.filters = null;
      hit(p, `${where} (removed)`);
      return;
    }
    if (!isMerge(p) || !p.value) continue;
    const before = JSON.stringify(fc);
    // mergeTransportSocketListener: same-named transport sockets have their typed configs merged.
    const pts = p.value.transportSocket as Json | undefined;
    const fts = fc.transportSocket as Json | undefined;
    if (pts && fts && pts.name === fts.name && fts.typedConfig && pts.typedConfig) {
      const merged = mergeAnyWithAny(fts.typedConfig as Json, pts.typedConfig as Json);
      if (merged) fts.typedConfig = merged;
    } else {
      mergeMessage(messageOf('FILTER_CHAIN')!, fc, p.value, p.operation === 'MERGE_AND_REPLACE_LIST');
    }
    if (JSON.stringify(fc) !== before) hit(p, where);
  }
  patchNetworkFilters(ctx, l, fc, patches, where);
}

/**
 * ADD, INSERT_FIRST, INSERT_BEFORE/AFTER, REPLACE and REMOVE of one patch on a filter list (network or HTTP
 * filters: istiod's doNetworkFilterListOperation / doHTTPFilterListOperation share these rules): a relative
 * insert without a filter match becomes an append (AFTER) or a prepend (BEFORE); REPLACE and REMOVE need one.
 * True when the list changed.
 */
function applyListOperation(list: Json[], p: PatchWrapper, hasMatch: boolean, matches: (e: Json) => boolean): boolean {
  const v = () => clone(p.value ?? {});
  switch (p.operation) {
    case 'ADD':
      list.push(v());
      return true;
    case 'INSERT_FIRST':
      list.unshift(v());
      return true;
    case 'INSERT_AFTER':
    case 'INSERT_BEFORE':
      if (!hasMatch) {
        if (p.operation === 'INSERT_AFTER') list.push(v());
        else list.unshift(v());
        return true;
      }
      return insertAt(list, matches, v(), p.operation === 'INSERT_AFTER');
    case 'REPLACE': {
      if (!hasMatch) return false;
      const i = list.findIndex(matches);
      if (i < 0) return false;
      list[i] = v();
      return true;
    }
    case 'REMOVE': {
      if (!hasMatch) return false;
      const rest = list.filter((e) => !matches(e));
      const changed = rest.length !== list.length;
      list.splice(0, list.length, ...rest);
      return changed;
    }
    default:
      return false;
  }
}

function patchNetworkFilters(ctx: EnvoyFilterPatchContext, l: Json, fc: Json, patches: readonly PatchWrapper[], where: string): void {
  const list = arr(fc.filters);
  for (const p of patches) {
    if (p.applyTo !== 'NETWORK_FILTER' || !contextMatch(ctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p)) continue;
    const done = applyListOperation(list, p, hasNetworkFilterMatch(p), (e) => networkFilterMatch(e, p));
    if (done) hit(p, `${where} / filters`);
  }
  fc.filters = list;
  list.forEach((f, i) => {
    patchNetworkFilter(ctx, l, fc, f, patches, `${where} / filters[${i}] ${String(f.name)}`);
  });
}

function patchNetworkFilter(
  ctx: EnvoyFilterPatchContext,
  l: Json,
  fc: Json,
  f: Json,
  patches: readonly PatchWrapper[],
  where: string,
): void {
  for (const p of patches) {
    if (p.applyTo !== 'NETWORK_FILTER' || p.operation !== 'MERGE') continue;
    if (!contextMatch(ctx, p) || !listenerMatch(l, p) || !filterChainMatch(l, fc, p) || !networkFilterMatch(f, p)) continue;
    if (mergeTyped(f, p)) hit(p, where);
  }
  if (f.name === HCM) patchHttpFilters(ctx, l, fc, f, patches, where);
}

function patchHttpFilters(ctx: EnvoyFilterPatchContext, l: Json, fc: Json, f: Json, patches: readonly PatchWrapper[], where: string): void {
  const hcm = f.typedConfig as Json | undefined;
  if (!hcm || hcm['@type'] !== HCM_TYPE) return;
  const list = arr(hcm.httpFilters);
  for (const p of patches) {
    if (
      p.applyTo !== 'HTTP_FILTER' ||
      !contextMatch(ctx, p) ||
      !listenerMatch(l, p) ||
      !filterChainMatch(l, fc, p) ||
      !networkFilterMatch(f, p)
    )
      continue;
    const done = applyListOperation(list, p, hasHttpFilterMatch(p), (e) => httpFilterMatch(e, p));
    if (done) hit(p, `${where} / http_filters`);
  }
  list.forEach((hf, i) => {
    for (const p of patches) {
      if (p.applyTo !== 'HTTP_FILTER' || p.operation !== 'MERGE') continue;
      if (
        !contextMatch(ctx, p) ||
        !listenerMatch(l, p) ||
        !filterChainMatch(l, fc, p) ||
        !networkFilterMatch(f, p) ||
        !httpFilterMatch(hf, p)
      )
        continue;
      if (mergeTyped(hf, p)) hit(p, `${where} / http_filters[${i}] ${String(hf.name)}`);
    }
  });
  if (list.length || hcm.httpFilters !== undefined) hcm.httpFilters = list;
}
