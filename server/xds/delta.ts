// Incremental ADS (DeltaAggregatedResources), one instance per stream. Follows the xDS protocol's
// "Incremental xDS" rules and istiod's delta.go: subscriptions change by subscribe/unsubscribe lists
// (applied whatever the nonce); the first LDS/CDS request without names is a wildcard; each resource
// carries its own version (its content hash); only changed resources are sent, and resources the client
// has that are no longer served go in removed_resources; initial_resource_versions on a reconnect tell
// what the client already has, so unchanged resources are not resent. A NACKed resource version is not
// resent: the client is assumed to hold what was last sent until the content changes again.
import { status as grpcStatus } from '@grpc/grpc-js';
import type { DeltaDiscoveryRequest } from '../gen/envoy/service/discovery/v3/discovery_pb';
import type { EncodedResource } from '../envoy/encode';
import { ConnectionBase, shortType, type AdsConnection } from './connection';
import { WILDCARD_TYPES } from './shouldRespond';
import { resourceVersion } from './cache';
import { deltaResponse, encodeDeltaDiscoveryResponse } from './wire';
import type { ResourceSet, TypeUrl } from './types';
import { byteCompareBy } from '../lib/compare';

interface DeltaWatch {
  typeUrl: string;
  wildcard: boolean;
  names: Set<string>;
  /** name → version the client has (as far as the server knows). */
  known: Map<string, string>;
  nonceSent?: string;
  /** A wildcard watch's served map whose versions `known` holds exactly (then a change is a shared diff from it). */
  syncedTo?: ReadonlyMap<string, EncodedResource>;
}

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
  resources.sort(byteCompareBy((r) => r.name));
  return { resources, removed: [...removed].sort() };
}

export class DeltaConnection extends ConnectionBase<DeltaDiscoveryRequest, DeltaWatch> implements AdsConnection {
  readonly mode = 'delta' as const;

  protected modeName(): string {
    return 'Delta';
  }

  protected requestName(): string {
    return 'DeltaDiscoveryRequest';
  }

  onRequest(req: DeltaDiscoveryRequest): void {
    const typeUrl = req.typeUrl;
    if (!typeUrl) return;
    const empty = (nonce: string) =>
      encodeDeltaDiscoveryResponse({
        systemVersionInfo: '',
        resources: [],
        typeUrl,
        nonce,
        removed: [],
        controlPlane: this.ctx.controlPlane,
      });
    if (!this.admit(typeUrl, req.resourceNamesSubscribe.length + req.resourceNamesUnsubscribe.length, empty)) return;
    let w = this.watches.get(typeUrl);
    const first = !w;
    if (!w) {
      w = {
        typeUrl,
        wildcard: WILDCARD_TYPES.has(typeUrl) && req.resourceNamesSubscribe.length === 0,
        names: new Set(),
        known: new Map(Object.entries(req.initialResourceVersions)),
      };
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
    const justSubscribed = new Set<string>();
    if (req.resourceNamesSubscribe.length > 0 || req.resourceNamesUnsubscribe.length > 0) w.syncedTo = undefined;
    for (const n of req.resourceNamesSubscribe) {
      if (n === '*') w.wildcard = true;
      else {
        w.names.add(n);
        justSubscribed.add(n);
        // An explicit (re)subscription asks for the resource again, unless the first request said it has it.
        if (!first || req.initialResourceVersions[n] === undefined) w.known.delete(n);
      }
    }
    for (const n of req.resourceNamesUnsubscribe) {
      if (n === '*') {
        // Leaving the wildcard: the client forgets what it no longer names (like a named unsubscribe).
        w.wildcard = false;
        for (const k of [...w.known.keys()]) if (!w.names.has(k)) w.known.delete(k);
      } else {
        w.names.delete(n);
        w.known.delete(n);
      }
    }
    if (w.names.size > this.ctx.limits.maxResourceNames) {
      const msg = `${shortType(typeUrl)} subscriptions reached ${w.names.size} names; the limit is ${this.ctx.limits.maxResourceNames} (MESHSCOPE_XDS_MAX_RESOURCE_NAMES)`;
      this.ctx.log(`ADS: ${this.id}: ${msg}; stream ended`);
      this.fail(grpcStatus.RESOURCE_EXHAUSTED, msg);
      return;
    }
    if (first || justSubscribed.size > 0 || req.resourceNamesSubscribe.includes('*')) {
      this.respond(typeUrl, first, justSubscribed);
    }
  }

  protected sendType(w: DeltaWatch, set: ResourceSet | undefined, always: boolean, justSubscribed: ReadonlySet<string>): Promise<void> {
    if (!set) return Promise.resolve();
    const cache = this.ctx.anyCache;
    const all = set.byType.get(w.typeUrl as TypeUrl);
    // In sync with the previous map: the diff every such stream shares (else this stream's own walk).
    const { resources, removed } =
      w.wildcard && justSubscribed.size === 0 && w.syncedTo !== undefined && all !== undefined
        ? cache.deltaDiffs.diff(w.syncedTo, all)
        : deltaChanges(w, set, justSubscribed);
    const synced = w.wildcard && all !== undefined ? all : undefined;
    if (!always && resources.length === 0 && removed.length === 0) {
      w.syncedTo = synced;
      return Promise.resolve();
    }
    // Each resource's entry (version, Any, name) is encoded once and shared by every stream sending it.
    const entries = resources.map((r) => cache.deltaEntry(r));
    const nonce = this.nextNonce();
    // Written as grpc-js frames it (service.ts): no buffer of its own.
    const res = deltaResponse({
      systemVersionInfo: set.version,
      entries: entries.map((e) => e.bytes),
      typeUrl: w.typeUrl,
      nonce,
      removed,
      controlPlane: this.ctx.controlPlane,
    });
    if (!this.checkSize(w.typeUrl, res.size, resources.length)) return Promise.resolve();
    resources.forEach((r, i) => w.known.set(r.name, entries[i]!.version));
    for (const n of removed) w.known.delete(n);
    w.syncedTo = synced;
    w.nonceSent = nonce;
    this.tracker(w.typeUrl).sent(set.version, nonce, resources.length, this.ctx.now());
    return this.write(res);
  }
}
