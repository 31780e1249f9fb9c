// xDS resource type URLs and what istiod knows about each (pkg/model/xds.go: the URLs and GetShortType;
// pilot/pkg/xds/ads.go PushOrder; pkg/xds IsWildcardTypeURL). Pure data, one place: the ADS server, the
// generator registry (server/pipeline/generators.ts) and the proxy kinds (./proxyKinds.ts) read it.
export const TYPE = {
  listener: 'type.googleapis.com/envoy.config.listener.v3.Listener',
  route: 'type.googleapis.com/envoy.config.route.v3.RouteConfiguration',
  cluster: 'type.googleapis.com/envoy.config.cluster.v3.Cluster',
  endpoint: 'type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment',
  secret: 'type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret',
  /** ztunnel's WDS: every Workload and Service (istiod pkg/model AddressType). */
  address: 'type.googleapis.com/istio.workload.Address',
  /** ztunnel's authorization policies (istiod pkg/model WorkloadAuthorizationType). */
  authorization: 'type.googleapis.com/istio.security.Authorization',
} as const;
export type XdsKind = keyof typeof TYPE;
export type TypeUrl = (typeof TYPE)[XdsKind];

export interface XdsTypeInfo {
  typeUrl: TypeUrl;
  /** istiod GetShortType: CDS, EDS, LDS, RDS, SDS, WDS, WADS. */
  short: string;
  /**
   * istiod IsWildcardTypeURL: an empty first subscription means "everything" (CDS, LDS and every Istio-internal
   * type such as WDS / WADS); EDS, RDS and SDS are always by name.
   */
  wildcard: boolean;
}

/** In istiod's PushOrder (pilot/pkg/xds/ads.go): CDS, EDS, LDS, RDS, SDS, Address, Authorization. */
export const XDS_TYPES: readonly XdsTypeInfo[] = [
  { typeUrl: TYPE.cluster, short: 'CDS', wildcard: true },
  { typeUrl: TYPE.endpoint, short: 'EDS', wildcard: false },
  { typeUrl: TYPE.listener, short: 'LDS', wildcard: true },
  { typeUrl: TYPE.route, short: 'RDS', wildcard: false },
  { typeUrl: TYPE.secret, short: 'SDS', wildcard: false },
  { typeUrl: TYPE.address, short: 'WDS', wildcard: true },
  { typeUrl: TYPE.authorization, short: 'WADS', wildcard: true },
];

const BY_URL: ReadonlyMap<string, XdsTypeInfo> = new Map(XDS_TYPES.map((t) => [t.typeUrl, t]));

/** What istiod knows about `typeUrl`; undefined for a type meshscope does not serve. */
export const xdsTypeInfo = (typeUrl: string): XdsTypeInfo | undefined => BY_URL.get(typeUrl);
