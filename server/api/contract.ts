// The HTTP API's wire contract: what every `/api/*` and `/debug/syncz` answer carries, in one module that
// the handlers (server/api/*), the pages (app/) and the browser (components/data and the views) share.
// Shapes are declared where they are produced (a handler, the mesh graph, the ADS server) and re-exported
// here; the client never re-declares them. Types only: nothing here runs in the browser.
export type { AnalyzeResponse } from './analyze';
export type { ApplyOutcome } from './apply/types';
export type { AdsClientJson, AdsClientsJson } from './adsz';
export type { ConfigObjectResult } from './configObject';
export type { ProxiesResponse, ProxyCounts, ProxyCountsResponse, ProxyDetail, ProxyInfo, ProxySummary, ResourceCounts } from './proxies';
export type { ErrorsResponse } from './debug';
export type { LiveErrorBody, LiveResponse } from './live';
export type { DriftResponse } from './liveDrift';
export type { TrafficResponse } from './traffic';
export type { GatewayApiResponse } from './gatewayApi';
export type {
  Condition as GatewayApiCondition,
  GatewayStatusModel,
  RouteStatusModel,
} from '../model/gatewayapi/status';
export type { MeshConfigResponse } from './meshConfig';
export type { ConnectionSync, ProxySyncResult, SyncType, TypeSync } from './proxySync';
export type { SimulateBody, SimulateResponse } from './simulate';
export type { DriftBody, DriftRequest } from './drift';
export type { DriftChange, DriftCounts, DriftNack, DriftResource, DriftType } from '../drift/types';
export type { ProxySecurity, SecurityPolicyView, SecurityRuleView } from './security';
export type { ClusterMtls, EffectiveMtls, InboundPortMtls, MtlsMode, MtlsSource } from '../translate/mtls';
export type { EnvoyFilterPatchReport } from '../translate/types';
export type { EnvoyFilterReach, EnvoyFilterReachResponse } from './envoyFilterReach';
export type { ErrorBody, XdsState } from './types';
export type { MeshEvent } from '../impact/types';
export type { ResourceKind } from '../impact/affected';
export type { Badge, BadgeKind, MeshEdge, MeshEdgeKind, MeshGraph, MeshGraphCounts, MeshNode, MeshNodeKind } from '../meshGraph/graph';
export type { AmbientOverview, AmbientWaypointSummary, SkippedL7 } from '../meshGraph/ambient';
export type { NackRecord, SyncState, SyncStatus } from '../xds/types';
export type { LoadError } from '../model/mesh';
export type { SourceStatus } from '../model/inputs';
export type { Finding, Level } from '../analyze/types';
export type { ProxyTables } from '../envoy/dumpModel/tables';
export type { RouteProvenance, RouteRuleSource } from '../translate/types';
export type { ServiceTraffic, TrafficReport } from '../demo/report';
