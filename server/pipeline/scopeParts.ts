// The Sidecar-scope parts of the shared translation cache (sharedResources.ts): per scope (scopeSharing.ts), the
// outbound part of its first proxy's translation, which the scope's later proxies are served beside their own
// inbound resources (built per proxy, or shared/carried by inputs: inboundCarry.ts). Bounded by the parts' own
// byte bound; parts in use are pinned past it; the warm-up (impact/scopeWarmup.ts) builds parts ahead of clients.
// Entries, their users and their keys stay the cache's: this class holds the parts and their bookkeeping only.
import type { EncodedResource } from '../envoy/encode';
import { byteCompare } from '../lib/compare';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { inboundInputsKey, inboundLabelKeys, type ProxyInputs, proxyInputs } from '../translate/proxyInputs';
import type { ResourceTable } from '../translate/types';
import { createSizedCache, type SizedCache } from './cache';
import { type EncodeMemo, encodeTable, translateSafely } from './encodeTable';
import { encodedOf } from './generators';
import { InboundCarry } from './inboundCarry';
import type { ListLayers } from './layeredMap';
import { inboundResources, mergeScope, outboundLabelKeys, type ScopePart, scopeKey, splitScope } from './scopeSharing';
import { type OptionsText, partSize, versionOf } from './sharedEntry';
import type { ProxyResources } from './types';

export class ScopeParts {
  /** `version \0 options \0 scope key` → the outbound part of that scope (null: the scope is never shared). */
  private readonly scopes: SizedCache<ScopePart | null>;
  /**
   * Scope parts a connected proxy was served from, by scope key, with those proxies: found here when the
   * scopes' byte bound evicted them. Evicting a part in use frees nothing (its proxies' entries hold the same
   * objects) and makes the scope's next proxy translate in full: on a mesh whose scopes outgrow the bound
   * (5,000 services in 20 scopes) a connect wave round-robin over the namespaces evicted every part before
   * its next use and translated every pod in full. Released with their last proxy (release), never carried.
   */
  private readonly pinned = new Map<string, { part: ScopePart; users: Set<string> }>();
  private readonly labelKeys = new WeakMap<MeshSnapshot, Set<string>>();
  /** The label keys an inbound build can read, per snapshot, sorted (proxyInputs.ts inboundLabelKeys). */
  private readonly inboundKeys = new WeakMap<MeshSnapshot, readonly string[]>();
  /** The label keys each config object holds (scopeSharing.outboundLabelKeys): unchanged objects keep their identity across snapshots. */
  private readonly configLabelKeys = new WeakMap<object, readonly string[]>();
  private scopeShares = 0;
  private scopeBuilds = 0;
  /** Scopes the warm-up built (warmScope), and the largest part it built (bytes). */
  private warmed = 0;
  private warmedMax = 0;
  /** The scope parts warmScope built: kept when the last entry goes (idle), as the idle server had them. */
  private readonly warmedKeys = new Set<string>();
  /** Per-pod inbound resources by translation inputs, carried across versions a change cannot shape them in. */
  private readonly inbound = new InboundCarry();
  private inboundReused = 0;
  private inboundShared = 0;
  /** Merged LDS / CDS lists → the halves they were merged from (layeredMap.ts: the ADS server's per-pod maps as views). */
  private readonly layers = new WeakMap<readonly EncodedResource[], ListLayers>();
  /** The cache's options JSON (the same text as in its entry keys). */
  private readonly options: OptionsText;

  /** `maxBytes`: the parts' byte bound (estimated: sharedEntry.ts partSize). */
  constructor(maxBytes: number, options: OptionsText) {
    this.options = options;
    this.scopes = createSizedCache<ScopePart | null>(maxBytes, (p) => (p ? partSize(p) : 64));
  }

  /** `version \0 options \0 scope key` of `proxy` (scopeSharing.ts scopeKey; undefined: its outbound part is never shared). */
  scopeOf(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions, inputs: ProxyInputs): string | undefined {
    let labels = this.labelKeys.get(snapshot);
    if (!labels) this.labelKeys.set(snapshot, (labels = outboundLabelKeys(snapshot, this.configLabelKeys)));
    const sk = scopeKey(snapshot, proxy, options, labels, inputs);
    return sk === undefined ? undefined : `${snapshot.version}\u0000${this.options.of(options).json}\u0000${sk}`;
  }

  /**
   * A sidecar's resources from its scope (scopeSharing.ts): the scope's outbound part beside its own inbound
   * resources; the scope's first proxy is translated in full and seeds the part. Undefined when the proxy's
   * outbound part is not shared (the caller translates it in full). `base`: the proxy's entry key; `shared`
   * comes with its `own` (inbound) resources, and `seeded` says this call translated the proxy in full.
   */
  fromScope(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    build: () => ResourceTable,
    memo: EncodeMemo,
    base: string,
    inputs: ProxyInputs,
  ): { shared: ProxyResources; own: readonly EncodedResource[]; seeded: boolean } | { full: ProxyResources } | undefined {
    const key = this.scopeOf(snapshot, proxy, options, inputs);
    if (key === undefined) return undefined;
    const part = this.scopes.get(key) ?? this.pinned.get(key)?.part;
    if (part === null) return undefined;
    if (part !== undefined) {
      const inbound = this.inboundOf(snapshot, proxy, options, base, inputs, memo);
      const r = inbound && mergeScope(part, inbound, proxy, snapshot.version);
      if (!r) return undefined;
      this.recordLayers(r, part, inbound);
      this.pin(key, part, proxy.id);
      this.scopeShares++;
      return { shared: r, own: [...inbound.listeners, ...inbound.clusters], seeded: false };
    }
    const { full, inbound, split } = this.seedScope(snapshot, proxy, options, build, memo, base, inputs, key);
    if (!split || !inbound) return { full };
    this.scopeBuilds++;
    // Served as its scope's later proxies are (the same bytes: splitScope checked), so it shares their lists.
    const r = mergeScope(split, inbound, proxy, snapshot.version);
    if (!r) return { full };
    this.recordLayers(r, split, inbound);
    this.pin(key, split, proxy.id);
    return { shared: r, own: [...inbound.listeners, ...inbound.clusters], seeded: true };
  }

  /** The halves a merged LDS / CDS list was made of (undefined: not a merged list). */
  layersOf(list: readonly EncodedResource[]): ListLayers | undefined {
    return this.layers.get(list);
  }

  private recordLayers(r: ProxyResources, part: ScopePart, inbound: ProxyResources): void {
    this.layers.set(r.listeners, { shared: part.listeners, own: inbound.listeners });
    this.layers.set(r.clusters, { shared: part.clusters, own: inbound.clusters });
  }

  /**
   * A scope's first build (fromScope on a first connect, warmScope ahead of it): `proxy` translated in full, its
   * inbound resources built alone split the outbound part off, stored under `key` (null: this scope is not shared).
   */
  private seedScope(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    build: () => ResourceTable,
    memo: EncodeMemo,
    base: string,
    inputs: ProxyInputs,
    key: string,
  ): { full: ProxyResources; inbound: ProxyResources | undefined; split: ScopePart | undefined } {
    const full = encodeTable(proxy, snapshot.version, translateSafely(proxy, build), memo);
    const inbound = full.errors.length === 0 ? this.inboundOf(snapshot, proxy, options, base, inputs, memo) : undefined;
    const split = inbound ? splitScope(full, inbound) : undefined;
    this.scopes.set(key, split ?? null);
    return { full, inbound, split };
  }

  /**
   * Builds the outbound part of `proxy`'s scope before any client of it asks (the xDS plane's warm-up,
   * impact/scopeWarmup.ts): the scope's first connecting proxy then builds only its inbound resources, as its
   * later ones do. No entry, user or pin is made, so nothing is held beyond the scopes' own byte bound, and a
   * part is never built when it would not fit in it (`'full'`). `'none'`: the proxy's outbound part is not shared.
   * `onPart` gets the resources of a part built (the ADS server wraps them in their wire forms). `perProxy`: the
   * cache's entry keys never shared (their translation names the proxy).
   */
  warmScope(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    build: () => ResourceTable,
    memo: EncodeMemo,
    perProxy: ReadonlySet<string>,
    onPart?: (resources: Iterable<EncodedResource>) => void,
  ): 'built' | 'kept' | 'none' | 'full' {
    if (!proxyKind(proxy).perProxy || snapshot.proxiesById.get(proxy.id) !== proxy) return 'none';
    // No key memo is kept (keyOf's): the warm-up sees every proxy of the mesh, most of which may never connect.
    const inputs = proxyInputs(snapshot, proxy, options);
    const key = this.scopeOf(snapshot, proxy, options, inputs);
    if (key === undefined) return 'none';
    if (this.scopes.has(key) || this.pinned.has(key)) return 'kept';
    const base = `${snapshot.version}\u0000${this.options.of(options).json}\u0000${JSON.stringify(inputs)}`;
    if (perProxy.has(base)) return 'none';
    // The largest part built so far stands for the next one's size: the bound is never filled past what it holds.
    if (this.scopes.total + this.warmedMax > this.scopes.max) return 'full';
    const { split } = this.seedScope(snapshot, proxy, options, build, memo, base, inputs, key);
    if (split) {
      this.warmedMax = Math.max(this.warmedMax, partSize(split));
      onPart?.(encodedOf(split));
    }
    this.warmedKeys.add(key);
    this.warmed++;
    return 'built';
  }

  /**
   * A sidecar's inbound resources: another pod's of this snapshot whose inbound inputs are equal (a Service's v1 and
   * v2 pods: proxyInputs.ts inboundInputsKey), or carried from an earlier version when those inputs and every config
   * they read are unchanged.
   */
  private inboundOf(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    base: string,
    inputs: ProxyInputs,
    memo: EncodeMemo,
  ): ProxyResources | undefined {
    const user = base.slice(base.indexOf('\u0000') + 1);
    let keys = this.inboundKeys.get(snapshot);
    if (!keys) this.inboundKeys.set(snapshot, (keys = [...inboundLabelKeys(snapshot)].sort(byteCompare)));
    const inputsKey = `${this.options.of(options).json}\u0000${inboundInputsKey(inputs, keys)}`;
    const kept = this.inbound.get(inputsKey, user);
    if (kept) {
      if (kept.version === snapshot.version) this.inboundShared++;
      else this.inboundReused++;
      return kept;
    }
    const built = inboundResources(snapshot, proxy, options, memo);
    if (built) this.inbound.set(inputsKey, built, user);
    return built;
  }

  private pin(scope: string, part: ScopePart, id: string): void {
    const p = this.pinned.get(scope);
    if (p?.part === part) p.users.add(id);
    else this.pinned.set(scope, { part, users: new Set([id]) });
  }

  /** Proxies no client is connected as any more: a pinned part goes with its last proxy. */
  release(gone: ReadonlySet<string>): void {
    for (const [key, p] of [...this.pinned]) {
      for (const id of gone) p.users.delete(id);
      if (p.users.size === 0) this.pinned.delete(key);
    }
  }

  /** The inbound resources carried for `user` (an entry key without its version) go with its entry. */
  releaseInbound(user: string): void {
    this.inbound.delete(user);
  }

  /** The cache holds no entry any more (afterDrop). */
  idle(): void {
    // Back to the idle server: the warm-up's parts stay (bounded by the scopes' bound; the next version drops them).
    for (const [key] of [...this.scopes.entries()]) if (!this.warmedKeys.has(key)) this.scopes.delete(key);
    this.pinned.clear();
    this.inbound.clear();
  }

  /** A new snapshot version `to` (`changed`, `endpointsOnly`: the change, for the inbound carry). */
  advance(to: number, changed: readonly string[] | undefined, endpointsOnly: boolean): void {
    this.inbound.advance(changed, endpointsOnly);
    // A scope part is never carried: the first affected proxy of a scope builds it again (unaffected entries are carried).
    for (const [key] of [...this.scopes.entries()]) if (versionOf(key) !== to) this.scopes.delete(key);
    for (const key of [...this.warmedKeys]) if (versionOf(key) !== to) this.warmedKeys.delete(key);
    for (const key of [...this.pinned.keys()]) if (versionOf(key) !== to) this.pinned.delete(key);
  }

  clear(): void {
    this.scopes.clear();
    this.warmedKeys.clear();
    this.pinned.clear();
    this.inbound.clear();
  }

  /** Adds to `live` the encoded resources the parts hold (the cache's memo sweep keeps them). */
  addEncoded(live: Set<EncodedResource>): void {
    for (const [, p] of this.scopes.entries()) if (p) for (const e of encodedOf(p)) live.add(e);
    for (const { part } of this.pinned.values()) for (const e of encodedOf(part)) live.add(e);
  }

  stats() {
    return {
      scopeShared: this.scopeShares,
      scopes: this.scopeBuilds,
      scopesWarmed: this.warmed,
      inboundReused: this.inboundReused,
      inboundShared: this.inboundShared,
      pinnedScopes: this.pinned.size,
    };
  }
}
