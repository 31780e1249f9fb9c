// Per-scope sharing of a sidecar's outbound resources (istiod's XdsCache shape: pilot/pkg/model/xds_cache.go,
// networking/core/route/route_cache.go, cluster_cache.go). istiod keys a cached outbound cluster by its name
// plus every input that shaped it (the DestinationRules, the Sidecar scope's visibility, mesh config, proxy
// version/locality/metadata…) and a route configuration by its name plus the proxy's SidecarScope and the
// configs that shaped it, so a connect wave of distinct pods of one namespace costs one outbound build per
// scope, not per pod; inbound is built per proxy.
//
// Here the unit of sharing is a proxy's whole outbound part (LDS outbound/virtualOutbound, every RDS route
// configuration, outbound CDS, EDS): two sidecars with equal `scopeKey` get the same outbound resources (the same
// encoded objects, so the same arrays for RDS and EDS), and each gets its own inbound ones
// (translate/inboundOnly.ts). The key is the translation-sharing key (translate/proxyInputs.ts) minus what only
// inbound reads (service targets, the pod, ingress bind addresses, the service account), with the labels
// narrowed to the keys an outbound selector can read: VirtualService `sourceLabels` (HTTP, TCP, TLS, delegates
// included), DestinationRule `workloadSelector`, Sidecar `workloadSelector`. Not shared, ever: a proxy any
// EnvoyFilter may concern (one in the root namespace or the proxy's: the EnvoyFilter stage patches per proxy),
// a scope whose translation reported any problem (errors may name the proxy), a proxy whose inbound build
// reports one, and a name both parts use. Checked by server/pipeline/sharing.property.test.ts: shared == built
// alone, over generated meshes.
import type { EncodedResource } from '../envoy/encode';
import { byteCompare } from '../lib/compare';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import type { RouteProvenance } from '../translate/types';
import { translateSidecarInbound } from '../translate/inboundOnly';
import type { ProxyInputs } from '../translate/proxyInputs';
import { serviceTargets } from '../translate/view/serviceTargets';
import { type EncodeMemo, encodeTable } from './encodeTable';
import { varyOrder } from './encodeTemplate';
import type { ProxyResources } from './types';

/** The outbound part of one scope's translation: every resource of it but the inbound ones. */
export interface ScopePart {
  listeners: EncodedResource[];
  routes: EncodedResource[];
  clusters: EncodedResource[];
  endpoints: EncodedResource[];
  provenance: readonly RouteProvenance[];
  /**
   * Merged LDS / CDS lists by the inbound resources merged in (`name@hash …`): pods whose inbound resources are
   * the same objects get the very same list, so the ADS server's per-list maps and prepared responses are shared too.
   */
  merged: Map<string, { inbound: readonly EncodedResource[]; list: EncodedResource[] }>;
  /** The names of `listeners` and `clusters` (a merged-in inbound name must be none of them). */
  names: { listeners: ReadonlySet<string>; clusters: ReadonlySet<string> };
}

/** Merged lists kept per scope part (each a few hundred references): beyond this, lists are not kept. */
const MAX_MERGED = 256;

/** Keys of the label maps an outbound selector reads, per snapshot (`sourceLabels` anywhere in a VirtualService). */
export function outboundLabelKeys(snapshot: MeshSnapshot, perConfig?: WeakMap<object, readonly string[]>): Set<string> {
  const keys = new Set<string>();
  const walk = (v: unknown, out: string[]): void => {
    if (Array.isArray(v)) for (const x of v) walk(x, out);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'sourceLabels' && x && typeof x === 'object') for (const l of Object.keys(x)) out.push(l);
        else walk(x, out);
      }
  };
  // `perConfig`: each VirtualService's keys, remembered by object (an unchanged config keeps its identity across
  // snapshots, so a change walks only the VirtualServices it replaced).
  for (const vs of snapshot.virtualServices) {
    let found = perConfig?.get(vs);
    if (!found) {
      const out: string[] = [];
      walk(vs.spec, out);
      found = out;
      perConfig?.set(vs, found);
    }
    for (const l of found) keys.add(l);
  }
  for (const dr of snapshot.destinationRules) for (const l of Object.keys(dr.spec.workloadSelector?.matchLabels ?? {})) keys.add(l);
  for (const sc of snapshot.sidecars) for (const l of Object.keys(sc.spec.workloadSelector?.labels ?? {})) keys.add(l);
  return keys;
}

/** Whether an EnvoyFilter may concern the proxy (select.ts: the root namespace's and the proxy's namespace's). */
function envoyFilterCandidate(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): boolean {
  return (snapshot.envoyFilters ?? []).some((f) => f.meta.namespace === options.rootNamespace || f.meta.namespace === proxy.namespace);
}

/**
 * The scope key of a sidecar from its translation inputs (equal keys ⇔ equal outbound resources), or
 * undefined when its outbound part is never shared (not a sidecar, or an EnvoyFilter may concern it).
 */
export function scopeKey(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions,
  labelKeys: ReadonlySet<string>,
  /** The proxy's translation inputs (proxyInputs), made once per proxy and snapshot by the caller. */
  i: ProxyInputs,
): string | undefined {
  if (proxyKind(proxy).translator !== 'sidecar' || envoyFilterCandidate(snapshot, proxy, options)) return undefined;
  return JSON.stringify({
    type: i.type,
    namespace: i.namespace,
    labels: i.labels.filter(([k]) => labelKeys.has(k)),
    metadata: i.metadata,
    locality: i.locality,
    ipFamilies: i.ipFamilies,
    selfIp: i.selfIp,
    sidecar: i.sidecar,
  });
}

const names = (l: readonly { name: string }[]): Set<string> => new Set(l.map((r) => r.name));

/**
 * Splits a scope's first full translation into its outbound part, given the same proxy's inbound resources
 * built alone. Undefined (never shared) when the translation reported a problem or carries an EnvoyFilter
 * report, when a name repeats, or when the inbound resources built alone are not exactly those of the full
 * translation (same names, same bytes).
 */
export function splitScope(full: ProxyResources, inbound: ProxyResources): ScopePart | undefined {
  if (full.errors.length > 0 || inbound.errors.length > 0 || full.envoyFilters) return undefined;
  if (inbound.routes.length > 0 || inbound.endpoints.length > 0) return undefined;
  const part: Partial<ScopePart> = { routes: full.routes, endpoints: full.endpoints, provenance: full.provenance, merged: new Map() };
  for (const list of ['listeners', 'clusters'] as const) {
    const all = full[list];
    if (names(all).size !== all.length) return undefined;
    const own = new Map(all.map((r) => [r.name, r]));
    for (const r of inbound[list]) if (own.get(r.name)?.hash !== r.hash) return undefined;
    const inNames = names(inbound[list]);
    part[list] = all.filter((r) => !inNames.has(r.name));
  }
  part.names = { listeners: names(part.listeners!), clusters: names(part.clusters!) };
  return part as ScopePart;
}

/** A proxy's inbound resources, encoded; undefined when they cannot be shared beside a scope's (a problem, a throw). */
export function inboundResources(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions,
  memo: EncodeMemo,
): ProxyResources | undefined {
  const inbound = translateSidecarInbound(snapshot, proxy, options);
  if (!inbound || inbound.errors.length > 0) return undefined;
  // What differs between the inbound resources of pods of different Services of one shape (encodeTemplate.ts).
  const vary = varyOrder(serviceTargets(snapshot, proxy).flatMap((t) => [t.service.hostname, t.service.name, t.service.namespace]));
  const r = encodeTable(
    proxy,
    snapshot.version,
    { listeners: inbound.listeners, routes: [], clusters: inbound.clusters, endpoints: [], errors: [], provenance: [] },
    memo,
    vary,
  );
  return r.errors.length > 0 ? undefined : r;
}

const byName = (a: EncodedResource, b: EncodedResource) => byteCompare(a.name, b.name);

/**
 * `[...a, ...b].sort(byName)` for names that are all distinct: the scope part's list is already in name order (the
 * translator's), so the proxy's few inbound resources are sorted and merged into it (one walk instead of a sort of
 * ~150 names per proxy); an `a` out of order is sorted whole.
 */
function mergeByName(a: readonly EncodedResource[], b: readonly EncodedResource[]): EncodedResource[] {
  for (let i = 1; i < a.length; i++) if (byteCompare(a[i - 1]!.name, a[i]!.name) > 0) return [...a, ...b].sort(byName);
  const bs = [...b].sort(byName);
  const out: EncodedResource[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < bs.length) out.push(byteCompare(a[i]!.name, bs[j]!.name) <= 0 ? a[i++]! : bs[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < bs.length) out.push(bs[j++]!);
  return out;
}

/** A scope's outbound part + a proxy's inbound resources: what its full translation encodes (names sorted as the translator sorts). */
export function mergeScope(part: ScopePart, inbound: ProxyResources, proxy: ProxyModel, version: number): ProxyResources | undefined {
  const merged = (list: 'listeners' | 'clusters'): EncodedResource[] | undefined => {
    const own = inbound[list];
    const key = `${list}\u0000${own.map((r) => `${r.name}@${r.hash}`).join('\u0000')}`;
    const kept = part.merged.get(key);
    if (kept && kept.inbound.length === own.length && kept.inbound.every((r, i) => r === own[i])) return kept.list;
    const out = part.names[list];
    for (const r of own) if (out.has(r.name)) return undefined;
    if (names(own).size !== own.length) return undefined;
    const l = mergeByName(part[list], own);
    if (!kept && part.merged.size < MAX_MERGED) part.merged.set(key, { inbound: own, list: l });
    return l;
  };
  const listeners = merged('listeners');
  const clusters = merged('clusters');
  if (!listeners || !clusters) return undefined;
  return {
    proxy,
    version,
    listeners,
    routes: part.routes,
    clusters,
    endpoints: part.endpoints,
    errors: [],
    provenance: part.provenance,
  };
}
