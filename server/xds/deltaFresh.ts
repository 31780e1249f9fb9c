// A Delta stream's first response of a type, shared by the streams that ask the same thing. A new stream whose
// client holds nothing gets every subscribed resource served and the just-subscribed names not served as removed
// (freshChanges): that depends only on the served map and the first request's subscription. The sidecars of one
// Sidecar scope subscribe with the same list (requestNames.ts hands it over frozen, one array for all of them) and
// are served the same map, so the selection, its sort and the resources' entry bytes are worked out once per (map,
// list) — as SotW's prepared.ts does per (map, subscription) — and each stream only assembles its response around
// them with its own nonce. The subscription Set a first request makes is shared the same way (copy-on-write in
// delta.ts). Held weakly by the map and the list: nothing outlives the translation or the decoder's kept list.
import type { EncodedResource } from '../envoy/encode';
import { sortByKey } from '../lib/compare';
import { WILDCARD_TYPES } from './shouldRespond';

type ResourceMap = ReadonlyMap<string, EncodedResource>;

const byName = (r: EncodedResource) => r.name;
const NO_NAMES: string[] = [];

/**
 * What a delta response carries for a watch whose client holds nothing of its type (delta.ts deltaChanges with an
 * empty `known`): every subscribed resource served, and the just-subscribed names not served as removed.
 */
export function freshChanges(
  w: { wildcard: boolean; names: ReadonlySet<string> },
  all: ResourceMap | undefined,
  justSubscribed: ReadonlySet<string>,
): { resources: EncodedResource[]; removed: string[] } {
  const resources: EncodedResource[] = [];
  if (all) {
    if (w.wildcard) for (const r of all.values()) resources.push(r);
    else
      for (const n of w.names) {
        const r = all.get(n);
        if (r) resources.push(r);
      }
  }
  let removed: string[] = NO_NAMES;
  for (const n of justSubscribed) if (!all?.has(n)) (removed === NO_NAMES ? (removed = []) : removed).push(n);
  return { resources: sortByKey(resources, byName), removed: removed.length > 1 ? removed.sort() : removed };
}

/** The subscription a stream's first request of a type makes (delta.ts onRequest, with no unsubscribe in it). */
export interface FirstSubscription {
  wildcard: boolean;
  /** The names subscribed ("*" aside): the watch's names and the request's just-subscribed names. */
  names: ReadonlySet<string>;
  /** The request named "*". */
  star: boolean;
}

/** A first request's subscription from its resource_names_subscribe (the first LDS/CDS request without names is a wildcard). */
export function firstSubscription(typeUrl: string, subscribe: readonly string[]): FirstSubscription {
  const names = new Set<string>();
  let star = false;
  for (const n of subscribe) {
    if (n === '*') star = true;
    else names.add(n);
  }
  return { wildcard: star || (WILDCARD_TYPES.has(typeUrl) && subscribe.length === 0), names, star };
}

/** A shared first response: its resources (sorted by name), removed names and the resources' entry bytes. */
export interface FreshResponse {
  resources: readonly EncodedResource[];
  removed: readonly string[];
  entries: readonly Uint8Array[];
}

export class DeltaFreshResponses {
  /** By the request's shared list (frozen by the decoder): its subscription, per type. */
  private readonly subscriptions = new WeakMap<readonly string[], Map<string, FirstSubscription>>();
  /** By served map, then by subscription (its object: one per shared list and type). */
  private readonly responses = new WeakMap<ResourceMap, WeakMap<FirstSubscription, FreshResponse>>();
  /** The subscriptions of a first request without names, per type (no list to key them by). */
  private readonly unnamed = new Map<string, FirstSubscription>();

  /** First responses served from the shared one (made by an earlier stream): the server's stats, tests. */
  reused = 0;

  /** `entryOf`: a resource's Delta `resources` entry bytes, shared (cache.ts AnyCache.deltaEntry, which holds this cache). */
  constructor(private readonly entryOf: (r: EncodedResource) => Uint8Array) {}

  /**
   * The first subscription of `subscribe` for `typeUrl`: one object per shared (frozen) list or empty list and type,
   * so streams that asked the same thing share it (and its response); any other list gets its own.
   */
  subscription(typeUrl: string, subscribe: readonly string[]): FirstSubscription {
    if (subscribe.length === 0) {
      let s = this.unnamed.get(typeUrl);
      if (!s) this.unnamed.set(typeUrl, (s = Object.freeze(firstSubscription(typeUrl, subscribe))));
      return s;
    }
    if (!Object.isFrozen(subscribe)) return firstSubscription(typeUrl, subscribe);
    let byType = this.subscriptions.get(subscribe);
    if (!byType) this.subscriptions.set(subscribe, (byType = new Map()));
    let s = byType.get(typeUrl);
    if (!s) byType.set(typeUrl, (s = Object.freeze(firstSubscription(typeUrl, subscribe))));
    return s;
  }

  /** Whether `s` is one this cache hands to every stream asking the same (then its response is shared). */
  isShared(s: FirstSubscription): boolean {
    return Object.isFrozen(s);
  }

  /** The first response for subscription `s` (its names are also the just-subscribed names) from map `all`. */
  response(all: ResourceMap | undefined, s: FirstSubscription): FreshResponse {
    const shared = all !== undefined && this.isShared(s);
    let bySub = shared ? this.responses.get(all) : undefined;
    const hit = bySub?.get(s);
    if (hit) {
      this.reused++;
      return hit;
    }
    const { resources, removed } = freshChanges(s, all, s.names);
    const out: FreshResponse = { resources, removed, entries: resources.map(this.entryOf) };
    if (shared) {
      if (!bySub) this.responses.set(all, (bySub = new WeakMap()));
      bySub.set(s, out);
    }
    return out;
  }
}
