// An endpoint-only change's refresh of a cached entry (sharedResources.ts marks its moved hosts stale): the
// ClusterLoadAssignments of the moved services' clusters are rebuilt once per scope, every other resource is kept.
import type { EncodedResource } from '../envoy/encode';
import { byteCompare } from '../lib/compare';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { translateEndpoints } from '../translate/endpointsOnly';
import { parseClusterName } from '../translate/names';
import { type EncodeMemo, encodeTable } from './encodeTable';
import { versionOf } from './sharedEntry';
import type { ProxyResources } from './types';

export class ScopeEndpoints {
  /** `version \0 options \0 scope key \0 cluster` → its ClusterLoadAssignment rebuilt by an endpoint refresh. */
  private readonly scopeClas = new Map<string, EncodedResource>();
  /** `version \0 options \0 scope key` → the last endpoint list refreshed for that scope (the same list for its proxies). */
  private readonly refreshed = new Map<string, { from: readonly EncodedResource[]; hosts: string; list: EncodedResource[] }>();
  private refreshes = 0;
  private clas = 0;

  /**
   * Rebuilds the CLAs of the clusters of `hosts` (an endpoint-only change), keeping every other resource.
   * `scope`: the proxy's scope key in the new snapshot (ScopeParts.scopeOf; undefined: not shared, rebuilt alone).
   */
  refresh(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    r: ProxyResources,
    hosts: ReadonlySet<string>,
    scope: string | undefined,
    memo?: EncodeMemo,
  ): ProxyResources | undefined {
    this.refreshes++;
    // EDS per cluster and scope (istiod's EDS cache): proxies of one scope (scopeSharing.ts, keyed on the new
    // snapshot) have the same ClusterLoadAssignments, so each moved cluster is rebuilt once per scope. A scope's
    // refreshed list (kept for the same list before and the same hosts) is taken before looking at any CLA name.
    const kept = scope === undefined ? undefined : this.refreshed.get(scope);
    // The same items (entries built at other times hold equal lists: the encoded CLAs are shared by content).
    if (kept && sameItems(kept.from, r.endpoints) && kept.hosts === [...hosts].sort().join(' '))
      return { ...r, version: snapshot.version, endpoints: kept.list };
    const names = r.endpoints.map((e) => e.name).filter((n) => ofHosts(n, hosts));
    if (names.length === 0) return { ...r, version: snapshot.version };
    const missing = scope === undefined ? names : names.filter((n) => !this.scopeClas.has(`${scope}\u0000${n}`));
    let fresh: EncodedResource[] = [];
    if (missing.length > 0) {
      this.clas += missing.length;
      try {
        const table = translateEndpoints(snapshot, proxy, options, missing);
        fresh = encodeTable(
          proxy,
          snapshot.version,
          { listeners: [], routes: [], clusters: [], endpoints: table, errors: [], provenance: [] },
          memo,
        ).endpoints;
      } catch {
        return undefined; // the caller translates the proxy in full (translateSafely reports the failure)
      }
    }
    const byName = new Map(r.endpoints.map((e) => [e.name, e]));
    if (scope !== undefined) {
      for (const e of fresh) this.scopeClas.set(`${scope}\u0000${e.name}`, e);
      for (const n of names) {
        const e = this.scopeClas.get(`${scope}\u0000${n}`);
        if (e) byName.set(n, e);
      }
    } else for (const e of fresh) byName.set(e.name, e);
    const endpoints = [...byName.values()].sort((a, b) => byteCompare(a.name, b.name));
    if (scope !== undefined) this.refreshed.set(scope, { from: r.endpoints, hosts: [...hosts].sort().join(' '), list: endpoints });
    return { ...r, version: snapshot.version, endpoints };
  }

  /** A new snapshot version: what was rebuilt for older ones goes. */
  advance(to: number): void {
    for (const key of [...this.scopeClas.keys()]) if (versionOf(key) !== to) this.scopeClas.delete(key);
    for (const key of [...this.refreshed.keys()]) if (versionOf(key) !== to) this.refreshed.delete(key);
  }

  clear(): void {
    this.scopeClas.clear();
    this.refreshed.clear();
  }

  /** Refreshes made, and the ClusterLoadAssignments they rebuilt. */
  stats(): { refreshes: number; clas: number } {
    return { refreshes: this.refreshes, clas: this.clas };
  }
}

/**
 * Whether cluster `name` is one of `hosts`' (parseClusterName's hostname): the text after the last `|` is looked up
 * first, so the names of other hosts (every CLA of a proxy, on each endpoint change) are not split.
 */
export function ofHosts(name: string, hosts: ReadonlySet<string>): boolean {
  const bar = name.lastIndexOf('|');
  if (bar >= 0 && !hosts.has(name.slice(bar + 1))) return false;
  return hosts.has(parseClusterName(name)?.hostname ?? '');
}

/** The same objects in the same order. */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
