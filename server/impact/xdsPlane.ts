// The store → ADS wiring the runtime serves (and bench/pushServer.ts measures): the ADS generator over the
// store's current snapshot with the shared, memory-bounded resource cache, and every store change turned
// into a scoped push (istiod's PushRequest with ConfigsUpdated → ProxyNeedsPush):
// - a config change: the proxies change impact (affected.ts, narrowed by Sidecar imports: sidecarImports.ts)
//   says may change are re-translated and pushed;
//   every other proxy's cache entry is carried over to the new version untouched, and it is sent nothing;
// - an endpoint-only change (EndpointSlice, a pod's IP/readiness) of services that go to EDS: the affected
//   proxies (those whose scope imports a moved service, and the moved pods' own: endpointScope.ts) keep their
//   listeners, routes and clusters; only the moved services' ClusterLoadAssignments are rebuilt, and only EDS
//   is pushed (services whose endpoints inline into other types get a full push);
// - clients not matched to a registry proxy (made from their node) are always pushed: impact names registry
//   proxies only.
// Each connection is then served as soon as its own resources are ready (the push queue runs them
// independently; a connection whose resources did not change for a type is sent nothing for it).
import { type MeshSnapshot, optionsOf, type TranslateOptions } from '../model/mesh';
import type { MatchOptions } from '../model/proxyIdentity';
import { createAdsGenerator } from '../pipeline/adsGenerator';
import { type CacheAdvance, type ReleaseGrace, SharedResourceCache } from '../pipeline/sharedResources';
import type { Store, StoreChange } from '../sources/store';
import { AdsServer, type AdsServerOptions, type PushRequest } from '../xds/server';
import { ENDPOINT_CHANGE_TYPES } from './changes';
import { keepRouteHosts, narrowedImpact, warmEndpointImpact } from './endpointScope';
import { carryViewIndexes } from '../translate/view/snapshotIndex';
import { keepScopeGroups } from './scopeMemo';
import { narrowBySidecarImports } from './sidecarImports';
import { ScopeWarmup } from './scopeWarmup';

export interface XdsPlaneOptions {
  ads?: Partial<Omit<AdsServerOptions, 'generator'>>;
  match?: MatchOptions;
  /** The resource cache's bound (bytes; default 320 MiB, sharedResources.ts DEFAULT_CACHE_BYTES; MESHSCOPE_TRANSLATION_CACHE_MB). */
  cacheBytes?: number;
  /**
   * How long what a proxy's last connection owned stays after it closed, so that a reconnecting wave (a server-side
   * drop, a rolling restart of clients) is served from it (default 30 s, MESHSCOPE_XDS_RELEASE_GRACE_MS; 0: freed
   * at once), and the clock that says when (tests inject one). Bounded also by `cacheBytes`; any config change drops it.
   */
  release?: Partial<ReleaseGrace>;
  /** Build the Sidecar scopes' outbound parts while no client is connected (scopeWarmup.ts; off unless asked: the runtime asks, see warmupFromEnv). */
  warmup?: boolean;
  /** Settles when the store's sources have loaded (the runtime's `ready`): the warm-up's start-up lasts until then. */
  sourcesLoaded?: Promise<unknown>;
}

export interface XdsPlane {
  ads: AdsServer;
  /** Translated + encoded resources (config_dump, API and ADS share it). */
  cache: SharedResourceCache;
  /** The scopes' warm-up (scopeWarmup.ts): its state, and a promise of its end. */
  warmup: ScopeWarmup;
  close(): Promise<void>;
}

/** What one store change does to the cache and which push it asks for. */
export function planChange(
  prev: MeshSnapshot | undefined,
  next: MeshSnapshot,
  change: Pick<StoreChange, 'changed' | 'endpointsOnly'>,
  options: TranslateOptions,
): { advance: CacheAdvance; push: PushRequest } {
  const what = change.changed.length === 1 ? change.changed[0] : `${change.changed.length} objects`;
  if (!prev) return { advance: { all: true, proxies: new Set() }, push: { proxies: 'all', reason: `config changed (${what})` } };
  const { hosts, affected: a } = narrowedImpact(prev, next, change, options);
  const named = narrowBySidecarImports(prev, next, change.changed, a.proxies, options);
  const all = a.all && named.length === a.proxies.length;
  const proxies = new Set(named);
  const advance: CacheAdvance = { all, proxies, changed: change.changed, ...(hosts ? { endpointHosts: hosts } : {}) };
  const push: PushRequest = all
    ? { proxies: 'all', reason: `${hosts ? 'endpoints' : 'config'} changed (${what})` }
    : { proxies, unmatched: true, reason: `${hosts ? 'endpoints' : 'config'} changed (${what})` };
  // An endpoint-only change pushes EDS to Envoys; ztunnels (unmatched, watching only WDS) get their Address /
  // Authorization deltas (a pod's IP or readiness is in its Workload: workload.go).
  if (hosts) push.types = new Set(ENDPOINT_CHANGE_TYPES);
  return { advance, push };
}

/** The release grace's default: 30 s (MESHSCOPE_XDS_RELEASE_GRACE_MS, a whole number of ms ≥ 0, at most 10 min). */
export const releaseGraceFromEnv = (): number => {
  const raw = process.env.MESHSCOPE_XDS_RELEASE_GRACE_MS;
  const ms = raw === undefined || raw === '' ? Number.NaN : Number(raw);
  return Number.isInteger(ms) && ms >= 0 ? Math.min(ms, 600_000) : 30_000;
};

const cacheBytesFromEnv = (): number | undefined => {
  const mb = Number(process.env.MESHSCOPE_TRANSLATION_CACHE_MB);
  return Number.isFinite(mb) && mb > 0 ? mb * 1024 * 1024 : undefined;
};

/** `options` undefined: each snapshot's own (its mesh config's) options, as the runtime serves them. */
export { movedEndpointHosts } from './endpointScope';

export function createXdsPlane(store: Store, options: TranslateOptions | undefined, opts: XdsPlaneOptions = {}): XdsPlane {
  const graceMs = opts.release?.graceMs ?? releaseGraceFromEnv();
  const cache = new SharedResourceCache(opts.cacheBytes ?? cacheBytesFromEnv(), {
    graceMs,
    ...(opts.release?.now ? { now: opts.release.now } : {}),
  });
  // Released entries are dropped once their grace ran out (one timer at a time, re-armed while some are left).
  let expiry: NodeJS.Timeout | undefined;
  const armExpiry = () => {
    const wait = cache.nextExpiryIn();
    if (expiry || wait === undefined) return;
    expiry = setTimeout(() => {
      expiry = undefined;
      cache.expireReleased();
      armExpiry();
    }, wait + 1);
    expiry.unref();
  };
  // A proxy whose last connection closed no longer owns anything: its translations (unless another
  // connected proxy shares them), key memos and encoded bytes are freed. Batched per turn of the event
  // loop, so a wave of disconnects costs one pass over the cache, not one per connection.
  let leaving: Set<string> | undefined;
  const releaseLeft = () => {
    const ids = leaving ?? new Set<string>();
    leaving = undefined;
    const still = ads.connectedProxies();
    cache.release([...ids].filter((id) => !still.has(id)));
    armExpiry();
  };
  const onClosed: NonNullable<AdsServerOptions['onClosed']> = (conn) => {
    opts.ads?.onClosed?.(conn);
    if (!leaving) {
      leaving = new Set();
      setImmediate(releaseLeft);
    }
    if (conn.registryProxy !== undefined) leaving.add(conn.registryProxy);
  };
  const ads = new AdsServer({
    generator: createAdsGenerator(() => store.snapshot(), options, cache, opts.match ?? {}),
    ...opts.ads,
    onClosed,
  });
  let prev: MeshSnapshot | undefined = store.snapshot();
  warmEndpointImpact(prev, options ?? optionsOf(prev));
  const warmup = new ScopeWarmup(
    cache,
    () => store.snapshot(),
    options,
    opts.warmup ?? false,
    undefined,
    (rs) => ads.prewrap(rs),
  );
  if (opts.sourcesLoaded) warmup.loadingUntil(opts.sourcesLoaded, () => ads.stats().connections);
  warmup.start();
  const unwire = store.onChange((next, change) => {
    const opts = options ?? optionsOf(next);
    // The view indexes (pods, services, service targets, …) the plan, the keys and the CLAs read: the previous ones,
    // carried where their arrays did not change (patched when a few pods moved in place).
    if (prev) carryViewIndexes(prev, next);
    const { advance, push } = planChange(prev, next, change, opts);
    keepRouteHosts(prev, next);
    if (prev) keepScopeGroups(prev, next, opts.rootNamespace);
    const unchanged = cache.advance(prev?.version ?? -1, next.version, advance);
    if (unchanged.size > 0 && push.proxies instanceof Set) for (const id of unchanged) push.proxies.delete(id);
    else if (unchanged.size > 0 && push.proxies === 'all')
      Object.assign(push, {
        proxies: new Set([...prev!.proxies, ...next.proxies].map((p) => p.id).filter((id) => !unchanged.has(id))),
        unmatched: true,
      });
    prev = next;
    // While the server starts (no client yet), the new snapshot's scopes are built ahead of the first one.
    warmup.changed(ads.stats().connections);
    // The store's debounce (quiet 100 ms, bounded) is the push debounce: dispatched at once, not debounced twice.
    ads.pushNow(push);
  });
  return {
    ads,
    cache,
    warmup,
    async close() {
      unwire();
      warmup.dispose();
      if (expiry) clearTimeout(expiry);
      await ads.stop();
    },
  };
}
