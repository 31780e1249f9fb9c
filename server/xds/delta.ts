// Incremental ADS (DeltaAggregatedResources), one instance per stream. Follows the xDS protocol's
// "Incremental xDS" rules and istiod's delta.go: subscriptions change by subscribe/unsubscribe lists
// (applied whatever the nonce); the first LDS/CDS request without names is a wildcard; each resource
// carries its own version (its content hash); only changed resources are sent, and resources the client
// has that are no longer served go in removed_resources. initial_resource_versions on a reconnect name what
// the client kept: those names are subscribed (and removed when no longer served), and, as in istiod, only
// ztunnel's address type skips a kept resource whose version is unchanged (workload.go appendAddress); every
// Envoy type is answered in full (delta.go drops InitialResourceVersions before generating them). A NACKed
// resource version is not resent: the client is assumed to hold what was last sent until the content changes.
import { status as grpcStatus } from '@grpc/grpc-js';
import type { DeltaDiscoveryRequest } from '../gen/envoy/service/discovery/v3/discovery_pb';
import type { EncodedResource } from '../envoy/encode';
import { ConnectionBase, shortType, type AdsConnection } from './connection';
import { WILDCARD_TYPES } from './shouldRespond';
import { type FirstSubscription, freshChanges } from './deltaFresh';
import { resourceVersion } from './cache';
import { deltaResponse, encodeDeltaFromEntries } from './wire';
import type { ResourceSet, TypeUrl } from './types';
import { sortByKey } from '../lib/compare';
import { TYPE } from '../model/xdsTypes';

/**
 * The types whose reconnect skips what the client kept unchanged (istiod delta.go requiresResourceNamesModification:
 * the address types, whose generator reads InitialResourceVersions; every other type's request drops them).
 */
const KEEPS_RETAINED: ReadonlySet<string> = new Set([TYPE.address]);

/**
 * What a first request's initial_resource_versions leave the stream believing the client holds: the versions
 * themselves for the address types; for every other type the names only, with a version no resource has, so each
 * one still served is sent again and each one gone is removed (istiod: the names join the subscription and the
 * response is the full set, `removed` = subscribed − generated).
 */
export function retainedVersions(typeUrl: string, initial: Readonly<Record<string, string>>): Map<string, string> {
  if (KEEPS_RETAINED.has(typeUrl)) return new Map(Object.entries(initial));
  return new Map(Object.keys(initial).map((n) => [n, '']));
}

interface DeltaWatch {
  typeUrl: string;
  wildcard: boolean;
  names: ReadonlySet<string>;
  /** `names` when this stream may change it: unset while `names` is the shared first subscription's Set. */
  own?: Set<string>;
  /** name → version the client has (as far as the server knows). */
  known: Map<string, string>;
  nonceSent?: string;
  /**
   * The first request's subscription while it is unchanged (deltaFresh.ts): `names` is its shared Set (copied
   * before a later request changes it), and a first response is the one shared by every stream that asked the same.
   */
  first?: FirstSubscription;
  /** A wildcard watch's served map whose versions `known` holds exactly (then a change is a shared diff from it). */
  syncedTo?: ReadonlyMap<string, EncodedResource>;
  /**
   * Resources whose versions belong in `known` but were not copied there yet: a stream's first response of a type
   * (the client had nothing) leaves them here, and most streams never need them again (knownOf copies them).
   */
  knownFrom?: readonly EncodedResource[];
}

/** The watch's `known` map, with the versions of a first response (knownFrom) copied in. */
function knownOf(w: DeltaWatch): Map<string, string> {
  const from = w.knownFrom;
  if (from) {
    w.knownFrom = undefined;
    for (const r of from) w.known.set(r.name, resourceVersion(r));
  }
  return w.known;
}

const byName = (r: EncodedResource) => r.name;

/** What a delta response for `w` must carry given `set`. Pure; `justSubscribed` may be reported as removed when absent. */
export function deltaChanges(
  w: Pick<DeltaWatch, 'typeUrl' | 'wildcard' | 'names' | 'known'>,
  set: ResourceSet,
  justSubscribed: ReadonlySet<string>,
): { resources: EncodedResource[]; removed: string[] } {
  const all = set.byType.get(w.typeUrl as TypeUrl) ?? new Map<string, EncodedResource>();
  const inScope = (n: string) => all.has(n) && (w.wildcard || w.names.has(n));
  const resources: EncodedResource[] = [];
  const consider = (n: string, r: EncodedResource) => {
    if (w.known.get(n) !== resourceVersion(r)) resources.push(r);
  };
  if (w.wildcard) for (const [n, r] of all) consider(n, r);
  else
    for (const n of w.names) {
      const r = all.get(n);
      if (r) consider(n, r);
    }
  const removed = new Set<string>();
  for (const n of w.known.keys()) if (!inScope(n)) removed.add(n);
  for (const n of justSubscribed) if (!all.has(n)) removed.add(n);
  return { resources: sortByKey(resources, byName), removed: [...removed].sort() };
}

export class DeltaConnection extends ConnectionBase<DeltaDiscoveryRequest, DeltaWatch> implements AdsConnection {
  readonly mode = 'delta' as const;

  protected modeName(): string {
    return 'Delta';
  }

  protected requestName(): string {
    return 'DeltaDiscoveryRequest';
  }

  protected emptyAnswer(typeUrl: string, nonce: string): Uint8Array {
    return encodeDeltaFromEntries({
      systemVersionInfo: '',
      entries: [],
      typeUrl,
      nonce,
      removed: [],
      controlPlane: this.ctx.controlPlane,
    });
  }

  onRequest(req: DeltaDiscoveryRequest): void {
    const typeUrl = req.typeUrl;
    if (!typeUrl) return;
    if (!this.admit(typeUrl, req.resourceNamesSubscribe.length + req.resourceNamesUnsubscribe.length)) return;
    let w = this.watches.get(typeUrl);
    const first = !w;
    const subscribe = req.resourceNamesSubscribe;
    const unsubscribe = req.resourceNamesUnsubscribe;
    if (!w) {
      const known = retainedVersions(typeUrl, req.initialResourceVersions);
      if (unsubscribe.length === 0) {
        // The usual first request: its subscription (and its response, when nothing is kept) shared by every
        // stream that asked the same (deltaFresh.ts).
        const s = this.ctx.anyCache.deltaFresh.subscription(typeUrl, subscribe);
        w = { typeUrl, wildcard: s.wildcard, names: s.names, known, first: s };
        this.watches.set(typeUrl, w);
        // (The names limit holds: admit() counted them.)
        this.respond(typeUrl, true, s.names);
        return;
      }
      const own = new Set<string>();
      w = { typeUrl, wildcard: WILDCARD_TYPES.has(typeUrl) && subscribe.length === 0, names: own, own, known };
      this.watches.set(typeUrl, w);
    }
    const t = this.tracker(typeUrl);
    if (req.errorDetail) {
      if (req.responseNonce && req.responseNonce === w.nonceSent) {
        this.recordNack(typeUrl, req.responseNonce, req.errorDetail.code, req.errorDetail.message, `nonce=${req.responseNonce}`);
      }
    } else if (req.responseNonce && req.responseNonce === w.nonceSent) {
      t.acked(req.responseNonce, t.sentVersion ?? '');
    }
    // An ACK (no names): nothing else to do.
    if (subscribe.length === 0 && unsubscribe.length === 0 && !first) return;
    const justSubscribed = new Set<string>();
    let star = false;
    if (subscribe.length > 0 || unsubscribe.length > 0) w.syncedTo = undefined;
    // The shared first subscription is left as it is: this stream's own copy changes (made when first needed).
    const names = (w.own ??= new Set(w.names));
    w.names = names;
    w.first = undefined;
    // A later request changes what the client holds: the versions of a first response are needed from here on.
    const known = first ? w.known : knownOf(w);
    for (const n of subscribe) {
      if (n === '*') {
        w.wildcard = true;
        star = true;
      } else {
        names.add(n);
        justSubscribed.add(n);
        // An explicit (re)subscription asks for the resource again (on the first request `known` holds only what
        // initial_resource_versions said the client has, kept).
        if (!first) known.delete(n);
      }
    }
    for (const n of unsubscribe) {
      if (n === '*') {
        // Leaving the wildcard: the client forgets what it no longer names (like a named unsubscribe).
        w.wildcard = false;
        for (const k of [...known.keys()]) if (!w.names.has(k)) known.delete(k);
      } else {
        names.delete(n);
        known.delete(n);
      }
    }
    if (w.names.size > this.ctx.limits.maxResourceNames) {
      const msg = `${shortType(typeUrl)} subscriptions reached ${w.names.size} names; the limit is ${this.ctx.limits.maxResourceNames} (MESHSCOPE_XDS_MAX_RESOURCE_NAMES)`;
      this.ctx.log(`ADS: ${this.id}: ${msg}; stream ended`);
      this.fail(grpcStatus.RESOURCE_EXHAUSTED, msg);
      return;
    }
    if (first || justSubscribed.size > 0 || star) this.respond(typeUrl, first, justSubscribed);
  }

  protected sendType(w: DeltaWatch, set: ResourceSet | undefined, always: boolean, justSubscribed: ReadonlySet<string>): Promise<void> {
    if (!set) return Promise.resolve();
    const cache = this.ctx.anyCache;
    const all = set.byType.get(w.typeUrl as TypeUrl);
    // The client holds nothing of this type (a new stream's first response): everything subscribed, without
    // comparing versions; the versions it now holds are kept as the list sent (knownOf copies them when needed).
    const fresh = w.known.size === 0 && w.knownFrom === undefined;
    // A first response for the first subscription as it was asked: the one every such stream shares (deltaFresh.ts).
    const shared = fresh && w.first !== undefined && justSubscribed === w.first.names ? cache.deltaFresh.response(all, w.first) : undefined;
    const { resources, removed } =
      shared ??
      (fresh
        ? freshChanges(w, all, justSubscribed)
        : // In sync with the previous map: the diff every such stream shares (else this stream's own walk).
          w.wildcard && justSubscribed.size === 0 && w.syncedTo !== undefined && all !== undefined
          ? cache.deltaDiffs.diff(w.syncedTo, all)
          : deltaChanges({ typeUrl: w.typeUrl, wildcard: w.wildcard, names: w.names, known: knownOf(w) }, set, justSubscribed));
    const synced = w.wildcard && all !== undefined ? all : undefined;
    if (!always && resources.length === 0 && removed.length === 0) {
      w.syncedTo = synced;
      return Promise.resolve();
    }
    // Each resource's entry (version, Any, name) is encoded once and shared by every stream sending it.
    const entries = shared ? shared.entries : resources.map((r) => cache.deltaEntry(r).bytes);
    const nonce = this.nextNonce();
    // Written as grpc-js frames it (service.ts): no buffer of its own.
    const res = deltaResponse({
      systemVersionInfo: set.version,
      entries,
      typeUrl: w.typeUrl,
      nonce,
      removed,
      controlPlane: this.ctx.controlPlane,
    });
    if (!this.checkSize(w.typeUrl, res.size, resources.length)) return Promise.resolve();
    if (fresh) {
      // Nothing was known and nothing is removed from it: the versions sent are exactly `resources`'.
      if (resources.length > 0) w.knownFrom = resources;
    } else {
      const known = knownOf(w);
      for (const r of resources) known.set(r.name, resourceVersion(r));
      for (const n of removed) known.delete(n);
    }
    w.syncedTo = synced;
    w.nonceSent = nonce;
    this.tracker(w.typeUrl).sent(set.version, nonce, resources.length, this.ctx.now());
    return this.write(res);
  }
}
