// Translation sharing: proxies whose translation inputs are equal share one translation and one set of
// encoded bytes (istiod gets the same effect from its per-SidecarScope caches). The key is exactly the
// translator's explicit inputs — the snapshot version, the options and translate/proxyInputs.ts (extend
// THAT file when the translator reads something new about a proxy). The cache is bounded by an estimate of
// the memory it holds, and the push plane (impact/xdsPlane.ts) carries entries over to the next snapshot
// version when no proxy using them can be affected by the change, marking their endpoints stale when an
// endpoint-only change reaches them (then only the ClusterLoadAssignments of the moved services are rebuilt).
import type { EncodedResource } from '../envoy/encode';
import { byteCompare } from '../lib/compare';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { translateEndpoints } from '../translate/endpointsOnly';
import { parseClusterName } from '../translate/names';
import { inboundInputsKey, inboundLabelKeys, type ProxyInputs, proxyInputs, proxyInputsKey } from '../translate/proxyInputs';
import type { TranslateMemos } from '../translate/index';
import type { ResourceTable } from '../translate/types';
import { ZtunnelMemo } from '../translate/ztunnel/memo';
import { type BoundedCache, createSizedCache, type SizedCache } from './cache';
import { EncodeMemo, encodeTable, translateSafely } from './encodeTable';
import { encodedOf, GENERATORS } from './generators';
import { InboundCarry } from './inboundCarry';
import { inboundResources, mergeScope, outboundLabelKeys, type ScopePart, scopeKey, splitScope } from './scopeSharing';
import type { ProxyResources } from './types';

/** Estimated bytes an entry holds: its encoded bytes and their JSON (about 4× the bytes), plus a little. */
export function resourcesSize(r: ProxyResources): number {
  let n = 1024;
  // Plain loops, not encodedOf's generator: sized on every set, e.g. ztunnel's 12,000 Addresses per push.
  for (const g of GENERATORS) {
    const list = r[g.list];
    if (list) for (let i = 0; i < list.length; i++) n += 5 * list[i]!.bytes.length + 200;
  }
  return n;
}

/** An entry made of a scope's outbound part and its own inbound resources: the references, and its own resources' bytes. */
function scopedSize(r: ProxyResources, own: readonly EncodedResource[]): number {
  let n = 1024;
  // 16 per reference, counted per list (iterating encodedOf's generator took ~0.3 ms per 5x sidecar on every refresh).
  for (const g of GENERATORS) n += 16 * (r[g.list]?.length ?? 0);
  for (const e of own) n += 5 * e.bytes.length + 200;
  return n;
}

const partSize = (p: ScopePart): number => resourcesSize({ ...p, proxy: undefined as never, version: 0, errors: [] });

/** `version \0 options \0 inputs`: a hit is valid by construction. */
export function sharedResourceKey(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): string {
  return `${snapshot.version}\u0000${JSON.stringify(options)}\u0000${proxyInputsKey(snapshot, proxy, options)}`;
}

const versionOf = (key: string): number => Number(key.slice(0, key.indexOf('\u0000')));
/** How many versions' entries advance() carries without re-keying them (find() looks each up on a miss). */
const MAX_CARRIED_VERSIONS = 8;
const withVersion = (key: string, version: number): string => `${version}${key.slice(key.indexOf('\u0000'))}`;

/** What a change did to the snapshot, for SharedResourceCache.advance. */
export interface CacheAdvance {
  /** Every proxy may be affected. */
  all: boolean;
  /** Proxies that may be affected (ids of either snapshot). */
  proxies: ReadonlySet<string>;
  /** An endpoint-only change: the hostnames whose endpoints moved (affected entries keep all but those CLAs). */
  endpointHosts?: ReadonlySet<string>;
  /** The store keys that changed (inboundCarry.ts: a change of VirtualServices only keeps the carried inbound resources). */
  changed?: readonly string[];
}

/** How long entries whose last user left stay for a reconnect (ms; 0: dropped at once), and the clock that says when. */
export interface ReleaseGrace {
  graceMs: number;
  now: () => number;
}

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
  private readonly keys = new WeakMap<MeshSnapshot, Map<string, string>>();
  /** The key memo of the latest snapshot keys were made for (release() forgets a proxy's keys there). */
  private lastKeys: Map<string, string> | undefined;
  /** Each options object's JSON (in every key) and a short tag of its own for the key memo (keyOf runs per generate). */
  private readonly optionsText = new WeakMap<TranslateOptions, { json: string; tag: string }>();
  /** Key memos of `lastKeys` whose proxy left (memo key → when): kept for the release grace, as its entries are. */
  private readonly releasedMemos = new Map<string, number>();
  private optionsTags = 0;
  /** Encoded resources by content, shared by every translation in this cache (swept as entries go). */
  readonly memo: EncodeMemo;
  /** Translations reused across snapshots per object (the ztunnel view's Addresses: translate/ztunnel/memo.ts). */
  readonly memos: TranslateMemos = { ztunnel: new ZtunnelMemo() };
  private translations = 0;
  private refreshes = 0;
  private clas = 0;
  private shares = 0;

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
  /** Entries made from a scope part → their own (inbound) resources: what they hold alone. */
  private readonly own = new WeakMap<ProxyResources, readonly EncodedResource[]>();
  /** Each entry's estimated size, computed when it is first stored (an entry's content never changes). */
  private readonly sizes = new WeakMap<ProxyResources, number>();
  private readonly labelKeys = new WeakMap<MeshSnapshot, Set<string>>();
  /** The label keys an inbound build can read, per snapshot, sorted (proxyInputs.ts inboundLabelKeys). */
  private readonly inboundKeys = new WeakMap<MeshSnapshot, readonly string[]>();
  /** The label keys each config object holds (scopeSharing.outboundLabelKeys): unchanged objects keep their identity across snapshots. */
  private readonly configLabelKeys = new WeakMap<object, readonly string[]>();
  /** Registry proxies' translation inputs by key, until their scope key is made (fromScope). */
  private readonly inputs = new Map<string, ProxyInputs>();
  /** `version \0 options \0 scope key \0 cluster` → its ClusterLoadAssignment rebuilt by an endpoint refresh. */
  private readonly scopeClas = new Map<string, EncodedResource>();
  /** `version \0 options \0 scope key` → the last endpoint list refreshed for that scope (the same list for its proxies). */
  private readonly refreshed = new Map<string, { from: readonly EncodedResource[]; hosts: string; list: EncodedResource[] }>();
  private scopeShares = 0;
  private scopeBuilds = 0;
  /** Scopes the warm-up built (warmScope), and the largest part it built (bytes). */
  private warmed = 0;
  private warmedMax = 0;
  /** The scope parts warmScope built: kept when the last entry goes (afterDrop), as the idle server had them. */
  private readonly warmedKeys = new Set<string>();
  /** Per-pod inbound resources by translation inputs, carried across versions a change cannot shape them in. */
  private readonly inbound = new InboundCarry();
  private inboundReused = 0;
  private inboundShared = 0;
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

  constructor(maxBytes = 128 * 1024 * 1024, grace: Partial<ReleaseGrace> = {}) {
    this.grace = { graceMs: grace.graceMs ?? 0, now: grace.now ?? Date.now };
    this.entries = createSizedCache<ProxyResources>(maxBytes, (r) => {
      // Sized once per entry object: advance() re-keys every carried entry on each change (1,000s per push).
      let n = this.sizes.get(r);
      if (n === undefined) {
        const own = this.own.get(r);
        this.sizes.set(r, (n = own ? scopedSize(r, own) : resourcesSize(r)));
      }
      return n;
    });
    this.scopes = createSizedCache<ScopePart | null>(Math.max(1024 * 1024, Math.floor(maxBytes / 2)), (p) => (p ? partSize(p) : 64));
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
    this.lastKeys?.clear();
    this.releasedMemos.clear();
    this.scopes.clear();
    this.warmedKeys.clear();
    this.pinned.clear();
    this.inputs.clear();
    this.scopeClas.clear();
    this.refreshed.clear();
    this.released.clear();
    this.carried.clear();
    this.inbound.clear();
    this.memo.retainOnly(new Set());
  }
  stats() {
    return {
      entries: this.entries.size,
      bytes: this.entries.total,
      maxBytes: this.entries.max,
      translations: this.translations,
      endpointRefreshes: this.refreshes,
      /** ClusterLoadAssignments rebuilt by those refreshes (the moved services' clusters only). */
      clasRecomputed: this.clas,
      shared: this.shares,
      /** Proxies served a scope's outbound part beside their own inbound resources (scopeSharing.ts), and scopes seeded. */
      scopeShared: this.scopeShares,
      scopes: this.scopeBuilds,
      /** Scope parts built ahead of their clients (warmScope): translations no client waited for. */
      scopesWarmed: this.warmed,
      /** Inbound builds skipped: the proxy's inbound resources carried from an earlier version (inboundCarry.ts). */
      inboundReused: this.inboundReused,
      /** Inbound builds skipped: another pod's of this version with equal inbound inputs (a Service's other pod). */
      inboundShared: this.inboundShared,
      /** Entries no connected proxy uses, kept for the release grace (a reconnect finds them). */
      released: this.released.size,
      /** Scope parts kept for their connected proxies beyond the scopes' byte bound (`pinned`). */
      pinnedScopes: this.pinned.size,
      /** Keys with recorded users (bookkeeping: never more than the entries after an advance). */
      tracked: this.users.size,
      /** Encoded resources kept by content (the memo shared by the entries). */
      memoEntries: this.memo.size,
      /** Proxy → key memos of the current snapshot. */
      keyMemos: this.lastKeys?.size ?? 0,
    };
  }

  /** The key of `proxy` in `snapshot` (memoised per snapshot: generating is per push, keys per snapshot). */
  keyOf(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): string {
    // A kind whose translation reads nothing of the proxy (ztunnel) is shared by every client of it, and, like a
    // node-made proxy's, never carried to the next snapshot (change impact names registry proxies only).
    if (!proxyKind(proxy).perProxy) return `node\u0000${sharedResourceKey(snapshot, proxy, options)}`;
    const registry = snapshot.proxiesById.get(proxy.id) === proxy;
    if (!registry) return `node\u0000${sharedResourceKey(snapshot, proxy, options)}\u0000${JSON.stringify(proxy)}`;
    let m = this.keys.get(snapshot);
    if (!m) this.keys.set(snapshot, (m = new Map()));
    if (this.lastKeys !== m) this.releasedMemos.clear(); // they were the previous snapshot's memos
    this.lastKeys = m;
    const opts = this.optionsOf(options);
    const memo = `${proxy.id}\u0000${opts.tag}`;
    if (this.releasedMemos.size > 0) this.releasedMemos.delete(memo); // back within the grace
    let k = m.get(memo);
    if (k === undefined) {
      // sharedResourceKey, with the inputs kept for the scope key (one proxyInputs per proxy and snapshot)
      const inputs = proxyInputs(snapshot, proxy, options);
      this.inputs.set((k = `${snapshot.version}\u0000${opts.json}\u0000${JSON.stringify(inputs)}`), inputs);
      m.set(memo, k);
    }
    return k;
  }

  /** `options`' JSON, made once per options object (a snapshot's options object lives as long as the snapshot). */
  private optionsOf(options: TranslateOptions): { json: string; tag: string } {
    let t = this.optionsText.get(options);
    if (!t) this.optionsText.set(options, (t = { json: JSON.stringify(options), tag: `o${++this.optionsTags}` }));
    return t;
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
        const own = this.own.get(r);
        r = this.refreshEndpoints(snapshot, proxy, options, r, hosts, memo, this.inputs.get(base));
        if (r && own) this.own.set(r, own); // still a scope's references beside its own resources
        if (r) this.entries.set(key, r);
        else this.entries.delete(key);
      }
    }
    if (r) {
      this.inputs.delete(base);
      this.released.delete(key);
      if (r.proxy !== proxy) this.shares++;
    } else {
      // A sidecar of a scope already built: its own inbound resources beside the scope's outbound part.
      const scoped = registry && key === base ? this.fromScope(snapshot, proxy, options, build, memo) : undefined;
      this.inputs.delete(base);
      if (scoped && 'shared' in scoped) {
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

  /**
   * A sidecar's resources from its scope (scopeSharing.ts): the scope's outbound part beside its own inbound
   * resources; the scope's first proxy is translated in full and seeds the part. Undefined when the proxy's
   * outbound part is not shared (the caller translates it in full).
   */
  private fromScope(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    build: () => ResourceTable,
    memo: EncodeMemo,
  ): { shared: ProxyResources } | { full: ProxyResources } | undefined {
    let labels = this.labelKeys.get(snapshot);
    if (!labels) this.labelKeys.set(snapshot, (labels = outboundLabelKeys(snapshot, this.configLabelKeys)));
    const base = this.keyOf(snapshot, proxy, options);
    const inputs = this.inputs.get(base) ?? proxyInputs(snapshot, proxy, options);
    this.inputs.delete(base);
    const sk = scopeKey(snapshot, proxy, options, labels, inputs);
    if (sk === undefined) return undefined;
    const key = `${snapshot.version}\u0000${this.optionsOf(options).json}\u0000${sk}`;
    const part = this.scopes.get(key) ?? this.pinned.get(key)?.part;
    if (part === null) return undefined;
    if (part !== undefined) {
      const inbound = this.inboundOf(snapshot, proxy, options, base, inputs, memo);
      const r = inbound && mergeScope(part, inbound, proxy, snapshot.version);
      if (!r) return undefined;
      this.pin(key, part, proxy.id);
      this.scopeShares++;
      this.own.set(r, [...inbound.listeners, ...inbound.clusters]);
      return { shared: r };
    }
    const { full, inbound, split } = this.seedScope(snapshot, proxy, options, build, memo, base, inputs, key);
    if (!split || !inbound) return { full };
    this.scopeBuilds++;
    // Served as its scope's later proxies are (the same bytes: splitScope checked), so it shares their lists.
    const r = mergeScope(split, inbound, proxy, snapshot.version);
    if (!r) return { full };
    this.pin(key, split, proxy.id);
    this.translations++;
    this.own.set(r, [...inbound.listeners, ...inbound.clusters]);
    return { shared: r };
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
   * `onPart` gets the resources of a part built (the ADS server wraps them in their wire forms).
   */
  warmScope(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    build: () => ResourceTable,
    onPart?: (resources: Iterable<EncodedResource>) => void,
  ): 'built' | 'kept' | 'none' | 'full' {
    if (!proxyKind(proxy).perProxy || snapshot.proxiesById.get(proxy.id) !== proxy) return 'none';
    let labels = this.labelKeys.get(snapshot);
    if (!labels) this.labelKeys.set(snapshot, (labels = outboundLabelKeys(snapshot, this.configLabelKeys)));
    // No key memo is kept (keyOf's): the warm-up sees every proxy of the mesh, most of which may never connect.
    const inputs = proxyInputs(snapshot, proxy, options);
    const sk = scopeKey(snapshot, proxy, options, labels, inputs);
    if (sk === undefined) return 'none';
    const opts = this.optionsOf(options).json;
    const key = `${snapshot.version}\u0000${opts}\u0000${sk}`;
    if (this.scopes.has(key) || this.pinned.has(key)) return 'kept';
    const base = `${snapshot.version}\u0000${opts}\u0000${JSON.stringify(inputs)}`;
    if (this.perProxy.has(base)) return 'none';
    // The largest part built so far stands for the next one's size: the bound is never filled past what it holds.
    if (this.scopes.total + this.warmedMax > this.scopes.max) return 'full';
    const { split } = this.seedScope(snapshot, proxy, options, build, this.memo, base, inputs, key);
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
    const inputsKey = `${this.optionsOf(options).json}\u0000${inboundInputsKey(inputs, keys)}`;
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
    this.inbound.advance(change.changed, !!hosts);
    this.released.clear(); // entries nobody used were dropped above
    // A scope part is never carried: the first affected proxy of a scope builds it again (unaffected entries are carried).
    for (const [key] of [...this.scopes.entries()]) if (versionOf(key) !== to) this.scopes.delete(key);
    for (const key of [...this.warmedKeys]) if (versionOf(key) !== to) this.warmedKeys.delete(key);
    for (const key of [...this.pinned.keys()]) if (versionOf(key) !== to) this.pinned.delete(key);
    for (const key of [...this.inputs.keys()]) if (versionOf(key) !== to) this.inputs.delete(key);
    for (const key of [...this.scopeClas.keys()]) if (versionOf(key) !== to) this.scopeClas.delete(key);
    for (const key of [...this.refreshed.keys()]) if (versionOf(key) !== to) this.refreshed.delete(key);
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
    for (const [key, p] of [...this.pinned]) {
      for (const id of gone) p.users.delete(id);
      if (p.users.size === 0) this.pinned.delete(key);
    }
    // A leaving proxy's key memos go with it, or, with a release grace, when the grace runs out (a reconnect wave's
    // generates find them: no proxyInputs and JSON of the inputs again per proxy).
    if (this.lastKeys)
      for (const memoKey of [...this.lastKeys.keys()])
        if (gone.has(memoKey.slice(0, memoKey.indexOf('\u0000')))) {
          if (this.grace.graceMs > 0) this.releasedMemos.set(memoKey, now);
          else this.lastKeys.delete(memoKey);
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
    for (const [memo, at] of [...this.releasedMemos]) {
      if (now - at < this.grace.graceMs) continue;
      this.releasedMemos.delete(memo);
      this.lastKeys?.delete(memo);
    }
    this.afterDrop(dropped);
    return dropped;
  }

  /** Milliseconds until the oldest released entry's grace runs out (undefined: none is held). */
  nextExpiryIn(): number | undefined {
    let oldest: number | undefined;
    for (const at of this.released.values()) if (oldest === undefined || at < oldest) oldest = at;
    for (const at of this.releasedMemos.values()) if (oldest === undefined || at < oldest) oldest = at;
    return oldest === undefined ? undefined : Math.max(0, oldest + this.grace.graceMs - this.grace.now());
  }

  /** After entries were dropped: nothing left → the scope parts and carried inbound resources go too; the memo is swept. */
  private afterDrop(dropped: number): void {
    for (const key of [...this.released.keys()]) if (!this.entries.has(key)) this.released.delete(key);
    if (this.entries.size === 0) {
      // Back to the idle server: the warm-up's parts stay (bounded by the scopes' bound; the next version drops them).
      for (const [key] of [...this.scopes.entries()]) if (!this.warmedKeys.has(key)) this.scopes.delete(key);
      this.pinned.clear();
      this.inputs.clear();
      this.scopeClas.clear();
      this.refreshed.clear();
      this.inbound.clear();
    }
    if (dropped > 0) this.sweepMemo();
  }

  /** Keeps in the memo only the encoded resources some entry still holds. */
  private sweepMemo(): void {
    const live = new Set<EncodedResource>();
    for (const [, r] of this.entries.entries()) for (const e of encodedOf(r)) live.add(e);
    for (const [, p] of this.scopes.entries()) if (p) for (const e of encodedOf(p)) live.add(e);
    for (const { part } of this.pinned.values()) for (const e of encodedOf(part)) live.add(e);
    this.memo.retainOnly(live);
  }

  /** An entry no connected proxy uses any more: dropped with the inbound resources carried for its inputs. */
  private dropReleased(key: string): void {
    this.drop(key);
    this.inbound.delete(key.slice(key.indexOf('\u0000') + 1));
  }

  private pin(scope: string, part: ScopePart, id: string): void {
    const p = this.pinned.get(scope);
    if (p?.part === part) p.users.add(id);
    else this.pinned.set(scope, { part, users: new Set([id]) });
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

  /** Rebuilds the CLAs of the clusters of `hosts` (an endpoint-only change), keeping every other resource. */
  private refreshEndpoints(
    snapshot: MeshSnapshot,
    proxy: ProxyModel,
    options: TranslateOptions,
    r: ProxyResources,
    hosts: ReadonlySet<string>,
    memo?: EncodeMemo,
    inputs: ProxyInputs = proxyInputs(snapshot, proxy, options),
  ): ProxyResources | undefined {
    this.refreshes++;
    // EDS per cluster and scope (istiod's EDS cache): proxies of one scope (scopeSharing.ts, keyed on the new
    // snapshot) have the same ClusterLoadAssignments, so each moved cluster is rebuilt once per scope. A scope's
    // refreshed list (kept for the same list before and the same hosts) is taken before looking at any CLA name.
    let labels = this.labelKeys.get(snapshot);
    if (!labels) this.labelKeys.set(snapshot, (labels = outboundLabelKeys(snapshot, this.configLabelKeys)));
    const sk = scopeKey(snapshot, proxy, options, labels, inputs);
    const scope = sk === undefined ? undefined : `${snapshot.version}\u0000${this.optionsOf(options).json}\u0000${sk}`;
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
}

/**
 * Whether cluster `name` is one of `hosts`' (parseClusterName's hostname): the text after the last `|` is looked up
 * first, so the names of other hosts (every CLA of a proxy, on each endpoint change) are not split.
 */
function ofHosts(name: string, hosts: ReadonlySet<string>): boolean {
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

/** Whether a translation's errors or provenance mention the proxy's id (then it is not shared). */
function namesProxy(r: ProxyResources, proxy: ProxyModel): boolean {
  if (r.errors.length === 0) return false;
  return JSON.stringify(r.errors).includes(proxy.id);
}

export const isSharedCache = (c: BoundedCache<ProxyResources> | undefined): c is SharedResourceCache => c instanceof SharedResourceCache;
