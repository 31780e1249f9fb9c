// The simulator's request and result (DESIGN.md §3 `meshscope simulate`).
/** `waypoint`: a request ztunnel tunnelled to a waypoint, starting at its `main_internal` listener. */
export type SimMode = 'outbound' | 'inbound' | 'gateway' | 'waypoint';
export type SimProtocol = 'http' | 'http2' | 'tcp';
/** `mtls` is an Istio mTLS client (a sidecar's outbound cluster): Istio ALPNs, workload certificate, no SNI unless given. */
export type SimTls = 'plaintext' | 'tls' | 'mtls';

export interface SimRequest {
  /** outbound: iptables redirect to 15001; inbound: redirect to 15006; gateway: no redirect. */
  mode: SimMode;
  /** Destination IP (the original destination). */
  address?: string;
  port: number;
  /** Host / :authority. */
  host?: string;
  /** Path with optional query string; default `/`. */
  path?: string;
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  /** Default http. */
  protocol?: SimProtocol;
  /** Default plaintext. */
  tls?: SimTls;
  /** TLS SNI; defaults to the host (without port) for TLS requests, as Istio's simulator does. */
  sni?: string;
  /**
   * meshscope extension: ALPN offered in the TLS ClientHello. Default from the protocol as Istio's simulator
   * (traffic.go protocolToTLSAlpn / protocolToMTLSAlpn): tls → h2 / http/1.1; mtls → istio-h2 / istio-http/1.1 / istio.
   */
  alpn?: string[];
  /** meshscope extension: start at this listener by name (internal listeners, e.g. waypoint `main_internal`). */
  listener?: string;
  /** The peer's identity (SPIFFE URI, `spiffe://` optional) as RBAC sees it: the source workload's mTLS certificate. */
  sourcePrincipal?: string;
  /** The source workload's namespace; without sourcePrincipal it stands for `spiffe://cluster.local/ns/NS/sa/default`. */
  sourceNamespace?: string;
  /** The downstream (peer) IP, for ipBlocks / remoteIpBlocks / source.ip. */
  sourceIp?: string;
}

export type SimHop = 'listener' | 'filterChain' | 'routeConfig' | 'virtualHost' | 'route' | 'cluster' | 'authorization';

/** The RBAC decision (DESIGN.md §3): the AuthorizationPolicy (`ns/name`) and rule that decided it. */
export interface SimAuthorization {
  decision: 'allow' | 'deny';
  policy?: string;
  rule?: number;
  /** Why, in words (which action matched, or that no ALLOW policy did). */
  reason?: string;
}

export interface Rejection {
  hop: SimHop;
  name: string;
  index?: number;
  reason: string;
}

export interface SimSource {
  kind: string;
  namespace: string;
  name: string;
  rule?: string;
}

export interface SimRedirect {
  /** HTTP status Envoy answers with (301 by default). */
  status: number;
  /** The Location Envoy would send. */
  location: string;
}

export interface SimHeaderChange {
  /** set = OVERWRITE_IF_EXISTS_OR_ADD, append = APPEND_IF_EXISTS_OR_ADD, addIfAbsent = ADD_IF_ABSENT, overwriteIfExists, remove. */
  op: 'set' | 'append' | 'addIfAbsent' | 'overwriteIfExists' | 'remove';
  name: string;
  /** As configured: may hold Envoy format strings such as %DOWNSTREAM_REMOTE_ADDRESS%. */
  value?: string;
  /** Where it is configured. */
  from: 'route' | 'virtualHost' | 'routeConfig' | 'weightedCluster';
}

/** Envoy's route table check tool's fields for one request (server/simulate/routerCheck.ts). */
export interface RouterCheck {
  cluster_name: string;
  virtual_cluster_name: string;
  virtual_host_name: string;
  path_rewrite: string;
  host_rewrite: string;
  path_redirect: string;
  code_redirect: number;
  /** Present for a route entry: the route's timeout as a protobuf Duration string. */
  timeout?: string;
  request_headers: Record<string, string>;
  response_headers: Record<string, string>;
}

export interface SimRewrite {
  /** The :path sent upstream (query string kept) when the route rewrites it. */
  path?: string;
  /** The :authority sent upstream when the route rewrites it. */
  host?: string;
  /** auto_host_rewrite: the host becomes the chosen endpoint's hostname (DNS clusters). */
  autoHost?: boolean;
}

/** One hop of an ambient request (meshscope extension): a ztunnel, or a waypoint walked like any Envoy. */
export interface AmbientHop {
  hop: 'ztunnel' | 'waypoint';
  /** ztunnel: the source node's (client) or the destination node's (server). */
  role?: 'client' | 'server';
  /** `ns/pod` the ztunnel works for. */
  workload?: string;
  node?: string;
  /** waypoint: its Gateway `ns/name` and the proxy (`POD.NS`) walked. */
  waypoint?: string;
  proxy?: string;
  listener?: string;
  filterChain?: string;
  routeConfig?: string;
  virtualHost?: string;
  route?: string;
  cluster?: string;
  weightedClusters?: Record<string, number>;
  endpoints?: string[];
  source?: SimSource;
  /** The AuthorizationPolicies in force at this hop (`ns/name`) and their decision. */
  policies?: string[];
  authorization?: SimAuthorization;
  error?: string;
  notes?: string[];
}

/** "Does this request go through the waypoint?" (meshscope extension of simulate from an ambient pod or a sidecar). */
export interface AmbientTrace {
  /** `ns/pod` of the caller, and whether it is ambient or a sidecar. */
  source: { workload: string; kind: 'ambient' | 'sidecar' };
  destination: { service?: string; workload?: string; address?: string; port: number };
  /** Whether the destination's waypoint is traversed; when not, the reason (istiod's status reason or ours) and why. */
  waypoint: { used: boolean; name?: string; reason?: string; message?: string };
  hops: AmbientHop[];
}

export interface SimResult {
  listener?: string;
  filterChain?: string;
  routeConfig?: string;
  virtualHost?: string;
  route?: string;
  /** Position of the matched route in its virtual host (routes may be unnamed). */
  routeIndex?: number;
  cluster?: string;
  weightedClusters?: Record<string, number>;
  endpoints?: string[];
  source?: SimSource;
  redirect?: SimRedirect;
  directResponse?: { status: number; body?: string };
  /** Probability that the matched route's runtime_fraction lets the request through (when < 1). */
  runtimeFraction?: number;
  authorization?: SimAuthorization;
  /** meshscope extension: the path / host the route rewrites the forwarded request to. */
  rewrite?: SimRewrite;
  /** meshscope extension: request header changes on the forwarded request, in the order Envoy applies them. */
  requestHeaders?: SimHeaderChange[];
  /** meshscope extension: the virtual cluster the request is counted against (`other` when none matches). */
  virtualCluster?: string;
  /**
   * meshscope extension: the fields Envoy's route table check tool validates, named as it names them
   * (cluster_name, virtual_cluster_name, virtual_host_name, path_rewrite, host_rewrite, path_redirect,
   * code_redirect, timeout, request_headers / response_headers for its header matchers): ./routerCheck.ts.
   */
  routerCheck?: RouterCheck;
  /** meshscope extension: the ambient path (client ztunnel → waypoint or not → destination ztunnel). */
  ambient?: AmbientTrace;
  rejected: Rejection[];
  /** Things worth knowing that are not failures (e.g. a referenced cluster missing from the config). */
  notes?: string[];
  error?: string;
}

/** The request after defaults, as the walk sees it. */
export interface SimCtx {
  mode: SimMode;
  address?: string;
  port: number;
  /** Host header as sent (may carry a port); '' when absent. */
  host: string;
  /** Path without query / fragment. */
  path: string;
  /** Raw query string without '?', '' when none. */
  query: string;
  method: string;
  /** Lower-cased names, including pseudo headers :method :authority :path :scheme. */
  headers: Map<string, string>;
  protocol: SimProtocol;
  tls: SimTls;
  sni: string;
  alpn: string[];
  listenerName?: string;
  /** The request's source as RBAC sees it. */
  source: { principal?: string; namespace?: string; ip?: string };
}

export function normalizeRequest(req: SimRequest): SimCtx {
  const rawPath = req.path && req.path !== '' ? req.path : '/';
  const hashAt = rawPath.indexOf('#');
  const noFrag = hashAt >= 0 ? rawPath.slice(0, hashAt) : rawPath;
  const q = noFrag.indexOf('?');
  const path = q >= 0 ? noFrag.slice(0, q) : noFrag;
  const query = q >= 0 ? noFrag.slice(q + 1) : '';
  const method = (req.method ?? 'GET').toUpperCase();
  const tls: SimTls = req.tls ?? 'plaintext';
  const protocol: SimProtocol = req.protocol ?? 'http';
  const host = req.host ?? '';
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(req.headers ?? {})) headers.set(k.toLowerCase(), String(v));
  if (headers.has('host') && !req.host) headers.set(':authority', headers.get('host') ?? '');
  const authority = req.host ?? headers.get(':authority') ?? '';
  headers.set(':method', method);
  headers.set(':path', noFrag);
  headers.set(':scheme', tls === 'tls' ? 'https' : 'http');
  if (authority !== '') headers.set(':authority', authority);
  else headers.delete(':authority');
  const sniDefault = tls === 'tls' ? stripPort(authority) : '';
  const alpnDefault = defaultAlpn(tls, protocol);
  return {
    mode: req.mode,
    ...(req.address ? { address: req.address } : {}),
    port: req.port,
    host: authority || host,
    path,
    query,
    method,
    headers,
    protocol,
    tls,
    sni: (req.sni ?? sniDefault).toLowerCase(),
    alpn: req.alpn ?? alpnDefault,
    ...(req.listener ? { listenerName: req.listener } : req.mode === 'waypoint' ? { listenerName: 'main_internal' } : {}),
    source: sourceOf(req),
  };
}

/** The peer identity: the principal as a SPIFFE URI, else one derived from the namespace (service account `default`). */
function sourceOf(req: SimRequest): SimCtx['source'] {
  const ns = req.sourceNamespace || undefined;
  const given = req.sourcePrincipal || undefined;
  const principal = given
    ? given.startsWith('spiffe://')
      ? given
      : `spiffe://${given}`
    : ns
      ? `spiffe://cluster.local/ns/${ns}/sa/default`
      : undefined;
  return { ...(principal ? { principal } : {}), ...(ns ? { namespace: ns } : {}), ...(req.sourceIp ? { ip: req.sourceIp } : {}) };
}

/** traffic.go FillDefaults: protocolToTLSAlpn for TLS, protocolToMTLSAlpn for mTLS, none for plaintext. */
function defaultAlpn(tls: SimTls, protocol: SimProtocol): string[] {
  if (tls === 'tls') return protocol === 'http2' ? ['h2'] : protocol === 'http' ? ['http/1.1'] : [];
  if (tls === 'mtls') return [protocol === 'http2' ? 'istio-h2' : protocol === 'http' ? 'istio-http/1.1' : 'istio'];
  return [];
}

/** Host without a trailing `:port` (IPv6 literals in brackets keep their colons). */
export function stripPort(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end >= 0 ? host.slice(0, end + 1) : host;
  }
  const i = host.lastIndexOf(':');
  if (i < 0) return host;
  return /^\d*$/.test(host.slice(i + 1)) && host.indexOf(':') === i ? host.slice(0, i) : host;
}
