// SotW request classification, following istiod's ShouldRespond (pkg/xds/server.go) and the xDS
// protocol's ACK/NACK rules (envoy docs "xDS REST and gRPC protocol", ACK and NACK semantics):
//   - error_detail set                 → NACK of the response with that nonce: record, do not respond
//   - named type with no names         → unsubscribe (istiod shouldUnsubscribe): drop the watch
//   - empty nonce, or no watch yet     → initial request (new stream or reconnect): respond in full
//   - nonce ≠ last nonce sent          → stale (an old response's ACK/NACK): ignore
//   - nonce matches, names unchanged   → ACK: record, do not respond
//   - nonce matches, names changed     → ACK + resubscription: respond with the new set
import { XDS_TYPES } from '../model/xdsTypes';

/** Types whose empty subscription means "everything" (LDS, CDS, WDS, WADS; istiod IsWildcardTypeURL). */
export const WILDCARD_TYPES: ReadonlySet<string> = new Set(XDS_TYPES.filter((t) => t.wildcard).map((t) => t.typeUrl));

export interface WatchView {
  /** Names currently subscribed (empty = wildcard for LDS/CDS). */
  names: ReadonlySet<string>;
  wildcard: boolean;
  /** Nonce of the last response sent for this type on this stream. */
  nonceSent?: string;
  /**
   * The resource_names of the request that set `names`/`wildcard`, as sent: an ACK naming the same list (Envoy
   * repeats it) is recognised by comparing the two lists instead of building a Set of the request's names.
   */
  requested?: readonly string[];
}

export interface SotwRequestView {
  typeUrl: string;
  responseNonce: string;
  resourceNames: readonly string[];
  errorDetail?: { code: number; message: string };
}

export type RequestKind = 'nack' | 'unsubscribe' | 'initial' | 'stale' | 'ack' | 'resubscribe';

export interface Subscription {
  wildcard: boolean;
  /** Never changed once made: streams that named the same list may share it (prepared.ts SotwResponseCache.subscription). */
  names: ReadonlySet<string>;
}

export interface Decision {
  kind: RequestKind;
  respond: boolean;
  /** The subscription after this request (for initial / resubscribe / ack). */
  subscription?: Subscription;
}

/** A SotW request subscribes to everything when it names nothing (LDS/CDS) or names "*". */
export function subscriptionOf(typeUrl: string, names: readonly string[]): Subscription {
  const set = new Set(names.filter((n) => n !== '*'));
  const wildcard = names.includes('*') || (names.length === 0 && WILDCARD_TYPES.has(typeUrl));
  return { wildcard, names: set };
}

/** The same names in the same order (the same list, so the same subscription for one type URL). */
const sameList = (a: readonly string[], b: readonly string[]): boolean => {
  if (a === b) return true; // one decoded list shared by the requests that named the same bytes (requestNames.ts)
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

const sameNames = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => {
  if (a.size !== b.size) return false;
  for (const n of a) if (!b.has(n)) return false;
  return true;
};

/** Makes a request's subscription: subscriptionOf, or one that hands out the same subscription for the same names. */
export interface Subscriptions {
  subscription(typeUrl: string, names: readonly string[]): Subscription;
}

const FRESH: Subscriptions = { subscription: subscriptionOf };

export function shouldRespond(watch: WatchView | undefined, req: SotwRequestView, subscriptions: Subscriptions = FRESH): Decision {
  if (req.errorDetail) {
    // A NACK only counts for the response it names; an old response's NACK is stale.
    if (watch && req.responseNonce !== '' && req.responseNonce === watch.nonceSent) return { kind: 'nack', respond: false };
    return { kind: 'stale', respond: false };
  }
  if (req.resourceNames.length === 0 && !WILDCARD_TYPES.has(req.typeUrl)) {
    // Envoy unsubscribes from a named type by sending it with no names.
    return { kind: 'unsubscribe', respond: false };
  }
  if (watch && req.responseNonce !== '') {
    if (req.responseNonce !== watch.nonceSent) return { kind: 'stale', respond: false };
    // An ACK repeating the list that set the subscription: the subscription is unchanged (no Set built).
    if (watch.requested && sameList(req.resourceNames, watch.requested)) return { kind: 'ack', respond: false };
  }
  const subscription = subscriptions.subscription(req.typeUrl, req.resourceNames);
  if (req.responseNonce === '' || !watch) return { kind: 'initial', respond: true, subscription };
  if (subscription.wildcard === watch.wildcard && sameNames(subscription.names, watch.names)) {
    return { kind: 'ack', respond: false, subscription };
  }
  return { kind: 'resubscribe', respond: true, subscription };
}
