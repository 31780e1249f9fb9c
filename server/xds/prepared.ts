// SotW responses shared across streams: every stream served the same resources of a type (the same shared
// translation, the same subscription) gets the same response but for its version and nonce. The selection, its
// content fingerprint (made only when compared) and the resources' Any bytes are worked out once per (resource
// map, type, subscription) and reused; a stream only assembles them with its version and nonce (wire.ts
// sotwResponse, written into the server's scratch buffer as grpc-js frames it: no allocation of its own). No
// response bytes are kept: memory stays per resource (AnyCache), not per response. Held weakly by the resource
// map: it lives as long as its translation.
import { createHash } from 'node:crypto';
import type { EncodedResource } from '../envoy/encode';
import { byteCompare, sortByKey } from '../lib/compare';

const nameOf = (r: EncodedResource): string => r.name;
import type { AnyCache } from './cache';
import { type Subscription, subscriptionOf } from './shouldRespond';

/** A subscription with its cache key (subscriptionKey). */
export interface KeyedSubscription extends Subscription {
  key: string;
}

export interface PreparedSotw {
  /** The resources sent, sorted by name. */
  resources: readonly EncodedResource[];
  /** Content fingerprint (names + hashes): equal fingerprints, equal content (made on first read). */
  readonly fingerprint: string;
  /** The resources' google.protobuf.Any bytes, in order (made on first read: a partial EDS push never needs them all). */
  readonly anys: readonly Uint8Array[];
}

/**
 * The resources of `next` that `sent` does not hold with the same content (new names, or a changed hash):
 * what an incremental EDS push sends (istiod eds.go buildEndpoints with a partial push sends only the updated
 * services' ClusterLoadAssignments). Both lists are sorted by name (selectSotw); one merge walk.
 */
export function changedSince(next: readonly EncodedResource[], sent: readonly EncodedResource[]): EncodedResource[] {
  const out: EncodedResource[] = [];
  let j = 0;
  for (const r of next) {
    while (j < sent.length && byteCompare(sent[j]!.name, r.name) < 0) j++;
    const o = sent[j];
    if (o === r || (o !== undefined && o.name === r.name && o.hash === r.hash)) continue;
    out.push(r);
  }
  return out;
}

/** Picks the resources a watch gets from one type's resources, in a stable order. */
export function selectSotw(
  all: ReadonlyMap<string, EncodedResource> | undefined,
  wildcard: boolean,
  names: ReadonlySet<string>,
): EncodedResource[] {
  if (!all) return [];
  const out: EncodedResource[] = [];
  if (wildcard) {
    // Explicit names next to "*" are covered: they are in `all` when they exist.
    for (const r of all.values()) out.push(r);
  } else {
    for (const n of names) {
      const r = all.get(n);
      if (r) out.push(r);
    }
  }
  return sortByKey(out, nameOf);
}

/**
 * Content fingerprint: the SHA-256 of the names and hashes, in order. A digest, not the joined text: every
 * stream keeps the fingerprint of what it was sent, and the text is tens of kB for a CDS list of hundreds of
 * clusters (a pod's own merged list: per client).
 */
export const fingerprintOf = (rs: readonly EncodedResource[]): string =>
  createHash('sha256')
    .update(rs.map((r) => `${r.name}@${r.hash}`).join('\n'))
    .digest('base64');

/**
 * A subscription as a cache key: `*`, or the digest of the names in subscription order (every stream keeps
 * its key; an EDS subscription names hundreds of clusters).
 */
export const subscriptionKey = (wildcard: boolean, names: ReadonlySet<string>): string =>
  wildcard
    ? '*'
    : `=${createHash('sha256')
        .update([...names].join('\n'))
        .digest('base64')}`;

export class SotwResponseCache {
  private readonly byMap = new WeakMap<ReadonlyMap<string, EncodedResource>, Map<string, PreparedSotw>>();
  /** changedSince answers by (sent list, current list): the streams of one scope share both lists, so one walk. */
  private readonly diffs = new WeakMap<readonly EncodedResource[], WeakMap<readonly EncodedResource[], EncodedResource[]>>();
  /**
   * By a request's resource_names list when the server's decoder shared it (requestNames.ts: a list of ≥ 1 kB
   * already seen is handed over frozen): the streams of one scope name the same EDS / RDS list, so one Set and
   * one key digest for all of them instead of one per stream.
   */
  private readonly subscriptions = new WeakMap<readonly string[], KeyedSubscription>();
  /** Without a resource map (the type has no resources): one per version and type. */
  private readonly empty = new Map<string, PreparedSotw>();

  /** `perMap`: subscriptions (types × name lists) kept per resource map (oldest dropped first). */
  constructor(
    private readonly anys: AnyCache,
    private readonly perMap = 8,
  ) {}

  prepare(
    all: ReadonlyMap<string, EncodedResource> | undefined,
    typeUrl: string,
    version: string,
    wildcard: boolean,
    names: ReadonlySet<string>,
    subscription: string,
  ): PreparedSotw {
    // What is prepared depends on the map's content, the type and the subscription, not on the version (the
    // response's version_info is written per response): a map kept across snapshots keeps its selections.
    const key = all ? `${typeUrl}\u0000${subscription}` : `${version}\u0000${typeUrl}`;
    let m = all ? this.byMap.get(all) : this.empty;
    const hit = m?.get(key);
    if (hit) return hit;
    const resources = selectSotw(all, wildcard, names);
    const anyCache = this.anys;
    let anys: Uint8Array[] | undefined;
    let fingerprint: string | undefined;
    const p: PreparedSotw = {
      resources,
      get fingerprint() {
        fingerprint ??= fingerprintOf(resources);
        return fingerprint;
      },
      get anys() {
        anys ??= resources.map((r) => anyCache.any(r));
        return anys;
      },
    };
    if (!m) {
      m = new Map();
      if (all) this.byMap.set(all, m);
    }
    if (m.size >= this.perMap) m.delete(m.keys().next().value as string);
    m.set(key, p);
    return p;
  }

  /**
   * subscriptionOf with the subscription's key; the same object for every request naming one shared (frozen)
   * list. A non-empty list's subscription does not depend on the type (`*` or names), so the list is the key.
   */
  subscription(typeUrl: string, names: readonly string[]): KeyedSubscription {
    const shared = names.length > 0 && Object.isFrozen(names);
    const hit = shared ? this.subscriptions.get(names) : undefined;
    if (hit) return hit;
    const sub = subscriptionOf(typeUrl, names);
    const keyed: KeyedSubscription = { wildcard: sub.wildcard, names: sub.names, key: subscriptionKey(sub.wildcard, sub.names) };
    if (shared) this.subscriptions.set(names, keyed);
    return keyed;
  }

  /** The resources of `p` that `sent` (a list this cache prepared earlier) does not hold with the same content, with their Any bytes. */
  changed(p: PreparedSotw, sent: readonly EncodedResource[]): { resources: readonly EncodedResource[]; anys: Uint8Array[] } {
    let bySent = this.diffs.get(p.resources);
    if (!bySent) {
      bySent = new WeakMap();
      this.diffs.set(p.resources, bySent);
    }
    let resources = bySent.get(sent);
    if (!resources) {
      resources = changedSince(p.resources, sent);
      bySent.set(sent, resources);
    }
    return { resources, anys: resources.map((r) => this.anys.any(r)) };
  }
}
