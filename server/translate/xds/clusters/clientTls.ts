// Client TLS for one outbound cluster (cluster_builder.go applyDestinationRule / buildSubsetCluster →
// applyTrafficPolicy → buildUpstreamTLSSettings + applyUpstreamTLSSettings): the decision lives in
// ../../security/clusterTls.ts; this file feeds it the cluster's inputs and records what was decided.
import type { TrafficPolicy } from '../../../model/istio';
import type { EndpointModel, PodModel, ServiceModel, ServicePort } from '../../../model/mesh';
import { isHttp2Protocol } from '../../../model/protocol';
import { applyUpstreamTls, upstreamTlsContext, upstreamTlsSettings, type UpstreamTlsDecision } from '../../security/clusterTls';
import { hboneSendEnabled } from '../hbone/profile';
import { applyHboneTransportSocketMatches, hboneOrPlaintextMatches } from '../hbone/transportSockets';
import type { ModeWithSource } from '../../security/peerAuthentication';
import { inferServiceMtlsMode } from '../../security/serviceMtls';
import type { ClusterJson } from '../../types';
import type { ProxyView } from '../../view/types';
import type { PolicyContext } from './trafficPolicy/context';
import type { SelectedPolicy } from './trafficPolicy/select';

/** What was decided for one cluster (read by the Security view through effectiveMtls). */
export interface ClusterTlsRecord extends UpstreamTlsDecision {
  cluster: string;
}
export type ClusterTlsSink = (r: ClusterTlsRecord) => void;

export interface ClientTlsInput {
  view: ProxyView;
  svc: ServiceModel;
  port: ServicePort;
  pods: ReadonlyMap<string, PodModel>;
  endpoints: readonly EndpointModel[];
  serviceAccounts: readonly string[];
  /** The subset's own traffic policy (subset clusters) or the rule's top-level one: BestEffortInferServiceMTLSMode's input. */
  inferPolicy: TrafficPolicy | undefined;
  /** `outbound_.PORT_.SUBSET_.HOST` (BuildDNSSrvSubsetKey). */
  sni: string;
  drWithSelector: boolean;
  sink?: ClusterTlsSink;
  /** namespaceMtlsMode memoised for one CDS build (the same answer for every cluster of a namespace). */
  namespaceMode?: (namespace: string) => ModeWithSource | undefined;
}

/** isHttp2Cluster: HTTP/2 upstream for HTTP2/gRPC ports and for HTTP ports a DestinationRule upgrades. */
function isHttp2(port: ServicePort, policy: SelectedPolicy): boolean {
  if (isHttp2Protocol(port.protocol)) return true;
  return port.protocol === 'HTTP' && policy.connectionPool?.value.http?.h2UpgradePolicy === 'UPGRADE';
}

export function applyClientTls(c: ClusterJson, policy: SelectedPolicy, i: ClientTlsInput, ctx: PolicyContext): void {
  const { view, svc } = i;
  const decision = upstreamTlsSettings({
    ...(policy.tls ? { tls: policy.tls } : {}),
    serviceAccounts: i.serviceAccounts,
    sni: i.sni,
    enableAutoMtls: view.options.enableAutoMtls,
    meshExternal: svc.meshExternal,
    serviceMode: inferServiceMtlsMode(view.snapshot, view.options.rootNamespace, i.inferPolicy, svc, i.endpoints, i.pods, i.namespaceMode),
    registry: svc.registry,
  });
  i.sink?.({ cluster: c.name ?? '', ...decision });
  // cluster_builder.go sendHbone: EnableHBONESend (the ambient profile) || waypoint — a waypoint exists only under it
  const hbone = hboneSendEnabled(view.snapshot);
  if (!decision.settings) {
    // applyHBONETransportSocketMatches with tls == nil: HBONE or plaintext, by endpoint
    if (hbone) c.transportSocketMatches = hboneOrPlaintextMatches();
    return;
  }
  try {
    const tlsCtx = upstreamTlsContext(decision.settings, {
      clusterName: c.name ?? '',
      http2: isHttp2(i.port, policy),
      proxyType: view.proxy.type,
      drWithSelector: i.drWithSelector,
    });
    applyUpstreamTls(c, tlsCtx, decision);
    if (hbone) applyHboneTransportSocketMatches(c, decision);
  } catch (e) {
    ctx.errors.push({
      severity: 'error',
      message: (e as Error).message,
      ...(decision.path ? { path: decision.path } : {}),
      ...(ctx.object !== undefined ? { object: ctx.object } : {}),
      ...(ctx.file !== undefined ? { file: ctx.file } : {}),
      ...(ctx.doc !== undefined ? { doc: ctx.doc } : {}),
    });
  }
}
