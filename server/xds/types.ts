// The ADS server's contract with the rest of meshscope: what it asks a generator for, what it reports.
import type { EncodedResource } from '../envoy/encode';
import type { TypeUrl } from '../envoy/typeUrls';
import type { MatchedBy } from '../model/proxyIdentity';

export type { TypeUrl } from '../envoy/typeUrls';

/** Which kind of xDS client is on the other end (istiod: the GENERATOR metadata, `grpc` = proxyless). */
export type Flavour = 'envoy' | 'grpc';

/** What the server knows about a connected client, from its node id and metadata. */
export interface ClientInfo {
  /** The raw node.id, e.g. `sidecar~10.0.0.1~reviews-v1-abc.default~default.svc.cluster.local`. */
  nodeId: string;
  /** `POD.NAMESPACE` when the node id is Istio-shaped; otherwise the raw node id. */
  proxyId: string;
  /** `sidecar` | `router` | … from the node id; undefined when the id is not Istio-shaped. */
  nodeType?: string;
  /** IPs from the node id (or INSTANCE_IPS metadata); empty when unknown. */
  ips: string[];
  /** NAMESPACE metadata, else derived from the node id. */
  namespace?: string;
  /** LABELS metadata (string values only). */
  labels: Record<string, string>;
  /** CLUSTER_ID metadata. */
  clusterId?: string;
  /** GENERATOR metadata as sent. */
  generator?: string;
  flavour: Flavour;
  /** node.cluster */
  cluster?: string;
  locality?: { region: string; zone: string; subZone: string };
  userAgent?: string;
  /** Node metadata as JSON (google.protobuf.Struct). */
  metadata: Record<string, unknown>;
  /** The peer address grpc-js reports for the stream. */
  peer: string;
  /** Why the node id could not be parsed Istio-style (the stream is still served). */
  parseError?: string;
}

/** Everything one client may be served, encoded: a version plus resources by type and name. */
export interface ResourceSet {
  version: string;
  byType: Map<TypeUrl, ReadonlyMap<string, EncodedResource>>;
  /**
   * How the client was matched to the proxy served: its node id (`POD.NAMESPACE`), its IP (istiod's
   * ENABLE_PROXY_FIND_POD_BY_IP), or neither (a proxy made from the node's metadata). Shown in syncz.
   */
  matchedBy?: MatchedBy;
  /** The registry proxy matched (`POD.NAMESPACE`), when one was. */
  matchedProxy?: string;
}

export type { MatchedBy } from '../model/proxyIdentity';

/** What a connection watches of one type: every resource (wildcard) and/or these names. */
export interface WatchedNames {
  wildcard: boolean;
  names: ReadonlySet<string>;
}

/** The connection's current subscriptions by type URL (istiod's WatchedResources). */
export type Watches = ReadonlyMap<string, WatchedNames>;

/**
 * Produces the resources for one client. `undefined` = not known/ready yet: nothing is sent.
 * `watches` lets by-name generators (istiod's grpcgen) build only what the client asked for.
 */
export interface AdsGenerator {
  generate(client: ClientInfo, watches?: Watches): ResourceSet | undefined;
}

/** A push request: which proxies (proxy ids or node ids), which types, and why. */
export interface PushRequest {
  /** Registry proxy ids (or node / proxy ids) to push; 'all' or undefined: every connection. */
  proxies?: Set<string> | 'all';
  /** With a `proxies` set: also every connection not matched to a registry proxy (made from its node). */
  unmatched?: boolean;
  types?: Set<TypeUrl>;
  reason: string;
}

/** Istio's sync states (istioctl proxy-status / istiod debugSyncStatus), plus ERROR for NACK/send failures. */
export type SyncState = 'SYNCED' | 'NOT SENT' | 'STALE' | 'ERROR';

export interface NackRecord {
  nonce: string;
  /** The version that was rejected (what we sent with that nonce). */
  version: string;
  /** The client's error_detail.message. */
  message: string;
  code: number;
  time: string;
}

/**
 * One entry of /debug/syncz: istiod's SyncStatus (pilot/pkg/xds/debug.go: proxy, proxy_type, cluster_id,
 * proxy_version and `<type>_sent` / `<type>_acked` nonces) plus what meshscope adds per connection:
 * connection_id, mode, flavour (envoy | grpc), sync (state per short type), nacks (last NACK per type),
 * matched_by / matched_proxy and blocked_since.
 * The one syncz shape: the ADS server writes it (status.ts), /debug/syncz serves it, the UI reads it.
 */
export interface SyncStatus {
  proxy?: string;
  proxy_type?: string;
  cluster_id?: string;
  proxy_version?: string;
  istio_version?: string;
  cluster_sent?: string;
  cluster_acked?: string;
  listener_sent?: string;
  listener_acked?: string;
  route_sent?: string;
  route_acked?: string;
  endpoint_sent?: string;
  endpoint_acked?: string;
  extensionconfig_sent?: string;
  extensionconfig_acked?: string;
  connection_id?: string;
  mode?: string;
  /** Which generator serves the client: `envoy`, or `grpc` for proxyless gRPC (istiod's grpcgen). */
  flavour?: string;
  /** Present when the client said which generator it wants (GENERATOR metadata). */
  generator?: string;
  /** Sync state per short type: cluster, listener, route, endpoint. */
  sync?: Record<string, SyncState | (string & {})>;
  /** Last NACK per short type. */
  nacks?: Record<string, NackRecord>;
  /** How the client was matched to the proxy served (node id, ip, or node metadata only). */
  matched_by?: MatchedBy;
  matched_proxy?: string;
  /** Since when a response waits to be read by the client (backpressure). */
  blocked_since?: string;
  /** istiod's per-type-URL state (debug.go ResourceStatus), as an archive's syncz carries it. */
  resources?: Record<string, { sent?: string; acked?: string; sentTime?: string; lastError?: string }>;
  /** Not a client of meshscope's ADS server: istiod's view read from a `--bug-report` archive (server/archive/syncz.ts). */
  source?: 'bug-report' | 'must-gather';
  /** With `source`: the istiod (`ns/pod`) whose /debug/syncz listed the proxy. */
  istiod?: string;
}

export interface TypeStatus {
  typeUrl: string;
  /** '*' for a wildcard subscription (plus any explicitly named resources). */
  subscribed: string[] | '*';
  sentVersion?: string;
  sentNonce?: string;
  sentAt?: string;
  /** How many resources the last response carried. */
  sentCount?: number;
  ackedVersion?: string;
  ackedNonce?: string;
  lastNack?: NackRecord;
  /** A server-side failure for this type (e.g. response over maxResponseBytes). */
  lastError?: { message: string; time: string };
  pushCount: number;
  state: SyncState;
}

export interface ConnectionStatus {
  /** Connection id, `nodeId-N` like istiod's. */
  id: string;
  mode: 'sotw' | 'delta';
  client: ClientInfo;
  connectedAt: string;
  pushCount: number;
  types: TypeStatus[];
  /** Present once the stream was ever behind: a response not yet taken by the client, pushes deferred. */
  backpressure?: { blocked: boolean; blockedSince?: string; deferredPushes: number; deferredTypes: string[] };
  /** Type URLs the client asked for that meshscope does not serve (answered once, empty). */
  unknownTypes?: string[];
  matchedBy?: MatchedBy;
  matchedProxy?: string;
}
