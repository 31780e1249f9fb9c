// Translation sharing: proxies whose translation inputs are equal share one translation and one set of
// encoded bytes (istiod gets the same effect from its per-SidecarScope caches). The key is exactly the
// translator's explicit inputs — the snapshot version, the options and translate/proxyInputs.ts (extend
// THAT file when the translator reads something new about a proxy). The cache is bounded by an estimate of
// the memory it holds, and the push plane (impact/xdsPlane.ts) carries entries over to the next snapshot
// version when no proxy using them can be affected by the change, marking their endpoints stale when an
// endpoint-only change reaches them (then only the ClusterLoadAssignments of the moved services are rebuilt).
// Homes: this file (entries, their users, carrying and release), keyMemos.ts (keys per proxy and snapshot),
// scopeParts.ts (Sidecar-scope parts, inbound resources beside them), scopeEndpoints.ts (per-scope CLA refresh);
// sharedEntry.ts holds the key format, size estimates and input types they share.
import type { ListLayers } from './layeredMap';
import type { EncodedResource } from '../envoy/encode';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyInputs } from '../translate/proxyInputs';
import type { TranslateMemos } from '../translate/index';
import type { ResourceTable } from '../translate/types';
import { ZtunnelMemo } from '../translate/ztunnel/memo';
import { type BoundedCache, createSizedCache, type SizedCache } from './cache';
import { EncodeMemo, encodeTable, translateSafely } from './encodeTable';
import { encodedOf } from './generators';
import { KeyMemos } from './keyMemos';
import { ofHosts, ScopeEndpoints } from './scopeEndpoints';
import { ScopeParts } from './scopeParts';
import { type CacheAdvance, EntrySizes, OptionsText, type ReleaseGrace, versionOf, withVersion } from './sharedEntry';
import type { ProxyResources } from './types';

export { type CacheAdvance, type ReleaseGrace, resourcesSize, sharedResourceKey } from './sharedEntry';

/** How many versions' entries advance() carries without re-keying them (find() looks each up on a miss). */
const MAX_CARRIED_VERSIONS = 8;

/**
 * The cache's default byte bound (MESHSCOPE_TRANSLATION_CACHE_MB): the entries get it, the encode memo and the
 * Sidecar scopes' parts half each. Sized for issue 24's largest mesh (5,000 services in 20 namespaces, whose 20 parts
 * are ~7.6 MiB each by the estimate, sharedEntry.ts partSize): at 128 MiB the parts' 64 MiB held 8 of them, so the
 * warm-up stopped there and the first wave translated the other 12 (docs/perf/issue24-waves.md, session 17).
 */
export const DEFAULT_CACHE_BYTES = 320 * 1024 * 1024;

/**
 * The runtime's cache of translated + encoded resources (a BoundedCache, so config_dump, the API and ADS
 * share it): memory-bounded, keyed by inputs, with the proxies using each entry recorded for `advance`.
 */
export class SharedResourceCache implements BoundedCache<ProxyResources> {
  private readonly entries: SizedCache<ProxyResources>;
  /** key → registry proxies that were served it (only those can be vouched for by change impact). */
  private readonly users = new Map<string, Set<string>>();
  /** Keys whose translation named the proxy (errors): stored per proxy, never shared. */
  private readonly perProxy = new Set<string>();
  /** key → hostnames whose CLAs are stale (endpoint-only change since it was built). */
  private readonly stale = new Map<string, Set<string>>();
  /** Each options object's JSON (in every key and scope key). */
  private readonly options = new OptionsText();
  /** Each registry proxy's key per snapshot, and its translation inputs until its scope key is made. */
  private readonly keys = new KeyMemos(this.options);
  /** Encoded resources by content, shared by every translation in this cache (swept as entries go). */
  readonly memo: EncodeMemo;
  /** Translations reused across snapshots per object (the ztunnel view's Addresses: translate/ztunnel/memo.ts). */
  readonly memos: TranslateMemos = { ztunnel: new ZtunnelMemo() };
  private translations = 0;
  private shares = 0;

  /** Each entry's estimated size, computed when it is first stored (an entry's content never changes). */
  private readonly sizes = new EntrySizes();
  /** The Sidecar-scope parts (scopeParts.ts) and the per-scope endpoint refresh (scopeEndpoints.ts). */
  private readonly parts: ScopeParts;
  private readonly endpoints = new ScopeEndpoints();
  /** Entries whose last user left (key → when), kept for `grace.graceMs` so a reconnecting wave finds them. */
  private readonly released = new Map<string, number>();
  private readonly grace: ReleaseGrace;
  /** The version the last `advance` went to. */
  private at: number | undefined;
  /**
   * Versions whose entries `advance` carried to `at` as they are, without re-keying them (their keys still
   * say the old version): `find` moves one to its `at` key on first use. A change re-keyed every carried
   * entry (1,000 proxies' entries on every pod IP change) though it pushes to 50.
   */
  private readonly carried = new Set<number>();

  constructor(maxBytes = DEFAULT_CACHE_BYTES, grace: Partial<ReleaseGrace> = {}) {
    this.grace = { graceMs: grace.graceMs ?? 0, now: grace.now ?? Date.now };
    this.entries = createSizedCache<ProxyResources>(maxBytes, (r) => this.sizes.sizeOf(r));
    this.parts = new ScopeParts(Math.max(1024 * 1024, Math.floor(maxBytes / 2)), this.options);
    this.memo = new EncodeMemo(Math.max(1024 * 1024, Math.floor(maxBytes / 2)));
  }

  /** An entry by key (undefined while its endpoints are stale: `resources` refreshes them). */
  get(key: string): ProxyResources | undefined {
    const r = this.find(key);
    return this.stale.has(key) ? undefined : r;
  }
  set(key: string, value: ProxyResources): void {
    this.entries.set(key, value);
  }
  get size(): number {
    return this.entries.size;
  }
  clear(): void {
    this.entries.clear();
    this.users.clear();
    this.perProxy.clear();
    this.stale.clear();
    this.keys.clear();
    this.parts.clear();
    this.endpoints.clear();
    this.released.clear();
    this.carried.clear();
    this.memo.retainOnly(new Set());
  }
  stats() {
    const parts = this.parts.stats();
    const endpoints = this.endpoints.stats();
    return {
      entries: this.entries.size,
      bytes: this.entries.total,
      maxBytes: this.entries.max,
      translations: this.translations,
      endpointRefreshes: endpoints.refreshes,
      /** ClusterLoadAssignments rebuilt by those refreshes (the moved services' clusters only). */
      clasRecomputed: endpoints.clas,
      shared: this.shares,
      /** Proxies served a scope's outbound part beside their own inbound resources (scopeSharing.ts), and scopes seeded. */
      scopeShared: parts.scopeShared,
      scopes: parts.scopes,
      /** Scope parts built ahead of their clients (warmScope): translations no client waited for. */
      scopesWarmed: parts.scopesWarmed,
      /** Inbound builds skipped: the proxy's inbound resources carried from an earlier version (inboundCarry.ts). */
      inboundReused: parts.inboundReused,
      /** Inbound builds skipped: another pod's of this version with equal inbound inputs (a Service's other pod). */
      inboundShared: parts.inboundShared,
      /** Entries no connected proxy uses, kept for the release grace (a reconnect finds them). */
      released: this.released.size,
      /** Scope parts kept for their connected proxies beyond the scopes' byte bound (`pinned`). */
      pinnedScopes: parts.pinnedScopes,
      /** Keys with recorded users (bookkeeping: the entries', and those of evicted entries still used, until the next advance). */
      tracked: this.users.size,
      /** Encoded resources kept by content (the memo shared by the entries). */
      memoEntries: this.memo.size,
      /** Proxy → key memos of the current snapshot. */
      keyMemos: this.keys.size,
    };
  }

  /** The key of `proxy` in `snapshot` (memoised per snapshot: keyMemos.ts). */
  keyOf(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): string {
    return this.keys.keyOf(snapshot, proxy, options);
  }

  /**
   * The resources of `proxy`: a shared entry (endpoints refreshed if stale), else `build()` encoded and kept.
   * The result's `proxy` is always the caller's.
   */
  resources(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    build: () => ResourceTable,
    memo: EncodeMemo = this.memo,
  ): ProxyResources {
    const base = this.keyOf(snapshot, proxy, options);
    const key = this.perProxy.has(base) ? `${base}\u0000${proxy.id}` : base;
    const registry = !base.startsWith('node\u0000');
    let r = this.find(key);
    if (r) {
      const hosts = this.stale.get(key);
      if (hosts) {
        this.stale.delete(key);
        const own = this.sizes.ownOf(r);
        // An endpoint-only change: scopeEndpoints.ts rebuilds the moved CLAs once per scope (keyed on the new snapshot).
        const inputs = this.keys.inputsOf(base) ?? proxyInputs(snapshot, proxy, options);
        r = this.endpoints.refresh(snapshot, proxy, options, r, hosts, this.parts.scopeOf(snapshot, proxy, options, inputs), memo);
        if (r && own) this.sizes.setOwn(r, own); // still a scope's references beside its own resources
        if (r) this.entries.set(key, r);
        else this.entries.delete(key);
      }
    }
    if (r) {
      this.keys.dropInputs(base);
      this.released.delete(key);
      if (r.proxy !== proxy) this.shares++;
    } else {
      // A sidecar of a scope already built: its own inbound resources beside the scope's outbound part.
      let scoped: ReturnType<ScopeParts['fromScope']>;
      if (registry && key === base) {
        const inputs = this.keys.inputsOf(base) ?? proxyInputs(snapshot, proxy, options);
        this.keys.dropInputs(base);
        scoped = this.parts.fromScope(snapshot, proxy, options, build, memo, base, inputs);
      }
      this.keys.dropInputs(base);
      if (scoped && 'shared' in scoped) {
        if (scoped.seeded) this.translations++;
        this.sizes.setOwn(scoped.shared, scoped.own);
        this.entries.set(key, scoped.shared);
        this.addUser(key, proxy.id);
        return scoped.shared;
      }
      this.translations++;
      r = scoped?.full ?? encodeTable(proxy, snapshot.version, translateSafely(proxy, build), memo);
      if (key === base && namesProxy(r, proxy)) {
        // The output locates errors with this proxy's id: another proxy's output would say its own.
        this.perProxy.add(base);
        const own = `${base}\u0000${proxy.id}`;
        this.entries.set(own, r);
        if (registry) this.addUser(own, proxy.id);
        return r;
      }
      this.entries.set(key, r);
    }
    if (registry) this.addUser(key, proxy.id);
    return r.proxy === proxy ? r : { ...r, proxy };
  }

  /** Builds the outbound part of `proxy`'s scope before any client of it asks (the warm-up): ScopeParts.warmScope. */
  warmScope(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    build: () => ResourceTable,
    onPart?: (resources: Iterable<EncodedResource>) => void,
  ): 'built' | 'kept' | 'none' | 'full' {
    return this.parts.warmScope(snapshot, proxy, options, build, this.memo, this.perProxy, onPart);
  }

  /** The halves a merged LDS / CDS list of this cache was made of (a scope's shared list, a proxy's own): layeredMap.ts. */
  layersOf(list: readonly EncodedResource[]): ListLayers | undefined {
    return this.parts.layersOf(list);
  }

  /** An entry without translating (the proxy list's counts). */
  peek(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): ProxyResources | undefined {
    const base = this.keyOf(snapshot, proxy, options);
    const key = this.perProxy.has(base) ? `${base}\u0000${proxy.id}` : base;
    const r = this.find(key);
    return this.stale.has(key) ? undefined : r;
  }

  /**
   * A new snapshot version replaced `from` (the push plane calls this on every store change): entries of
   * `from` none of whose proxies the change may affect are carried over to `to` as they are; affected ones
   * are dropped, or, for an endpoint-only change, carried with their moved services' CLAs marked stale.
   * Entries nobody in the registry used (node-made proxies, gRPC) and older versions are dropped.
   * Returns the affected proxies it can vouch for as unchanged (an endpoint-only change of services they
   * have no CLA for): they need no push.
   */
  advance(from: number, to: number, change: CacheAdvance): Set<string> {
    const unchanged = new Set<string>();
    const hosts = change.endpointHosts;
    const hasMoved = (r: ProxyResources) => !!hosts && r.endpoints.some((e) => ofHosts(e.name, hosts));
    // The versions whose entries stand for `from`'s: `from` and, when `from` is where the last advance went, those it
    // carried lazily. Carried entries keep their keys (find() re-keys them on first use); affected ones are dropped
    // or marked stale where they are.
    const live = new Set<number>([from]);
    if (this.at === from) for (const v of this.carried) live.add(v);
    for (const [key, value] of [...this.entries.entries()]) {
      const v = versionOf(key);
      if (v === to) continue;
      const users = this.users.get(key);
      if (!live.has(v) || !users || users.size === 0) {
        this.drop(key);
        continue;
      }
      let hit = change.all;
      if (!hit) for (const id of users) if (change.proxies.has(id)) hit = true;
      const wasStale = this.stale.get(key);
      if (hit && hosts && !hasMoved(value) && !wasStale) {
        // An endpoint-only change of services this proxy has no CLA for: nothing of it changes.
        hit = false;
        for (const id of users) unchanged.add(id);
      }
      if (hit && !hosts) this.drop(key);
      else if (hit) this.stale.set(key, new Set([...(wasStale ?? []), ...hosts!]));
    }
    this.carried.clear();
    for (const v of live) this.carried.add(v);
    this.at = to;
    this.parts.advance(to, change.changed, !!hosts);
    this.released.clear(); // entries nobody used were dropped above
    this.keys.advance(to);
    this.endpoints.advance(to);
    for (const key of [...this.perProxy]) {
      this.perProxy.delete(key);
      if (live.has(versionOf(key))) this.perProxy.add(withVersion(key, to));
    }
    // Entries the byte bound evicted leave their bookkeeping behind: drop it with them.
    for (const key of [...this.users.keys()]) if (!this.entries.has(key)) this.users.delete(key);
    for (const key of [...this.stale.keys()]) if (!this.entries.has(key)) this.stale.delete(key);
    // Bounded lookups: after a few changes nobody looked at, the carried entries are re-keyed at once.
    if (this.carried.size > MAX_CARRIED_VERSIONS) {
      for (const [key] of [...this.entries.entries()]) if (this.carried.has(versionOf(key))) this.move(key, withVersion(key, to));
      this.carried.clear();
    }
    return unchanged;
  }

  /** The entry at `key`, or, at the version of the last advance, the one carried there as it was (moved to `key` now). */
  private find(key: string): ProxyResources | undefined {
    const r = this.entries.get(key);
    if (r || this.carried.size === 0 || versionOf(key) !== this.at) return r;
    for (const v of this.carried) {
      const old = withVersion(key, v);
      if (this.entries.has(old)) return this.move(old, key);
    }
    return undefined;
  }

  /** Re-keys an entry with its users, stale hosts and release time. */
  private move(from: string, to: string): ProxyResources | undefined {
    const r = this.entries.get(from);
    if (!r) return undefined;
    const users = this.users.get(from);
    const stale = this.stale.get(from);
    const released = this.released.get(from);
    this.drop(from);
    this.released.delete(from);
    this.entries.set(to, r);
    if (users) this.users.set(to, users);
    if (stale) this.stale.set(to, stale);
    if (released !== undefined) this.released.set(to, released);
    return r;
  }

  /**
   * Registry proxies no client is connected as any more: they stop being users of the entries they were
   * served; an entry left with no user is dropped, with the key memos of those proxies and the encoded
   * resources only dropped entries held. Entries no registry proxy uses (clients made from their node,
   * gRPC clients' by-name translations: rebuilt on their next request) go too. Returns how many entries were dropped.
   */
  release(proxies: Iterable<string>): number {
    const gone = new Set(proxies);
    const now = this.grace.now();
    let dropped = 0;
    for (const [key] of [...this.entries.entries()]) {
      const users = this.users.get(key);
      // The smaller side is walked: a wave of 1,000 leaving proxies against 1,000 one-user entries is O(entries).
      if (users && users.size > 0)
        if (gone.size <= users.size) for (const id of gone) users.delete(id);
        else for (const id of users) if (gone.has(id)) users.delete(id);
      if (users && users.size === 0 && this.grace.graceMs > 0 && !key.startsWith('node\u0000')) {
        // The release grace: kept (with its scope part and encoded bytes) until expireReleased, unless used again.
        this.users.delete(key);
        this.released.set(key, now);
      } else if ((!users || users.size === 0) && !this.released.has(key)) {
        this.dropReleased(key);
        dropped++;
      }
    }
    this.parts.release(gone);
    // A leaving proxy's key memos go with it, or, with a release grace, when the grace runs out (a reconnect wave's
    // generates find them: no proxyInputs and JSON of the inputs again per proxy).
    this.keys.release(gone, now, this.grace.graceMs);
    // Entries the byte bound evicted while their proxies were connected keep their users here (the next snapshot's
    // advance drops them): the leaving proxies leave those too, and a key nobody uses any more goes with its stale
    // hosts (on a static mesh with clients coming and going they would otherwise pile up). A key some connected proxy
    // still uses keeps it: the entry rebuilt for it is that proxy's as before.
    for (const [key, users] of [...this.users]) {
      if (this.entries.has(key)) continue;
      if (gone.size <= users.size) for (const id of gone) users.delete(id);
      else for (const id of users) if (gone.has(id)) users.delete(id);
      if (users.size === 0) {
        this.users.delete(key);
        this.stale.delete(key);
      }
    }
    this.afterDrop(dropped);
    return dropped;
  }

  /**
   * Drops the released entries whose grace has run out (the ADS plane calls this when the grace of a release
   * ends). Returns how many it dropped; when none is left, the cache is back at its idle sizes.
   */
  expireReleased(): number {
    const now = this.grace.now();
    let dropped = 0;
    for (const [key, at] of [...this.released]) {
      if (now - at < this.grace.graceMs) continue;
      this.released.delete(key);
      this.dropReleased(key);
      dropped++;
    }
    this.keys.expire(now, this.grace.graceMs);
    this.afterDrop(dropped);
    return dropped;
  }

  /** Milliseconds until the oldest released entry's grace runs out (undefined: none is held). */
  nextExpiryIn(): number | undefined {
    let oldest: number | undefined;
    for (const at of this.released.values()) if (oldest === undefined || at < oldest) oldest = at;
    const memo = this.keys.oldestRelease();
    if (memo !== undefined && (oldest === undefined || memo < oldest)) oldest = memo;
    return oldest === undefined ? undefined : Math.max(0, oldest + this.grace.graceMs - this.grace.now());
  }

  /** After entries were dropped: nothing left → the scope parts and carried inbound resources go too; the memo is swept. */
  private afterDrop(dropped: number): void {
    for (const key of [...this.released.keys()]) if (!this.entries.has(key)) this.released.delete(key);
    if (this.entries.size === 0) {
      this.parts.idle();
      this.keys.idle();
      this.endpoints.clear();
    }
    if (dropped > 0) this.sweepMemo();
  }

  /** Keeps in the memo only the encoded resources some entry still holds. */
  private sweepMemo(): void {
    const live = new Set<EncodedResource>();
    for (const [, r] of this.entries.entries()) for (const e of encodedOf(r)) live.add(e);
    this.parts.addEncoded(live);
    this.memo.retainOnly(live);
  }

  /** An entry no connected proxy uses any more: dropped with the inbound resources carried for its inputs. */
  private dropReleased(key: string): void {
    this.drop(key);
    this.parts.releaseInbound(key.slice(key.indexOf('\u0000') + 1));
  }

  private drop(key: string): void {
    this.entries.delete(key);
    this.users.delete(key);
    this.stale.delete(key);
  }

  private addUser(key: string, id: string): void {
    let u = this.users.get(key);
    if (!u) this.users.set(key, (u = new Set()));
    u.add(id);
  }
}

/** Whether a translation's errors or provenance mention the proxy's id (then it is not shared). */
function namesProxy(r: ProxyResources, proxy: ProxyModel): boolean {
  if (r.errors.length === 0) return false;
  return JSON.stringify(r.errors).includes(proxy.id);
}

export const isSharedCache = (c: BoundedCache<ProxyResources> | undefined): c is SharedResourceCache => c instanceof SharedResourceCache;
