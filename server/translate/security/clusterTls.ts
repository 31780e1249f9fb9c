// Client TLS of outbound clusters: auto mTLS and DestinationRule `trafficPolicy.tls`
// (networking/core/cluster_tls.go buildUpstreamTLSSettings, applyUpstreamTLSSettings, buildUpstreamClusterTLSContext,
// constructUpstreamTLS, defaultUpstreamCommonTLSContext, defaultTransportSocketMatch;
// model/push_context.go BestEffortInferServiceMTLSMode; security/model ApplyCustomSDSToClientCommonTLSContext).
import type { ClusterJson } from '../../gen/envoy/config/cluster/v3/cluster_pb';
import type { TransportSocketJson } from '../../gen/envoy/config/core/v3/base_pb';
import type { CommonTlsContextJson, UpstreamTlsContextJson } from '../../gen/envoy/extensions/transport_sockets/tls/v3/tls_pb';
import { EXT } from '../../envoy/typeUrls';
import type { ClientTLSSettings } from '../../model/istio';
import type { ProxyModel } from '../../model/mesh';
import type { MtlsMode } from './peerAuthentication';
import { agentSds, credentialSds, SDS_CA_SUFFIX } from './sds';

export const TLS_TRANSPORT_SOCKET = 'envoy.transport_sockets.tls';
export const RAW_BUFFER_TRANSPORT_SOCKET = 'envoy.transport_sockets.raw_buffer';
/** util.ALPNInMeshWithMxc / ALPNInMeshH2WithMxc (metadata exchange on, its ALPN not disabled: istiod's defaults). */
export const ALPN_IN_MESH: readonly string[] = ['istio-peer-exchange', 'istio'];
export const ALPN_IN_MESH_H2: readonly string[] = ['istio-peer-exchange', 'istio', 'h2'];
const ALPN_H2_ONLY: readonly string[] = ['h2'];

/** How a cluster's client TLS was decided: auto mTLS, a DestinationRule, or neither (plaintext). */
export type ClusterTlsKind = 'auto' | 'DR' | 'none';

export interface UpstreamTlsInput {
  /** The DestinationRule tls in force for the cluster (port-level and subset merged), with its YAML path. */
  tls?: { value: ClientTLSSettings; path: string };
  /** Spiffe identities of the service's workloads (push.ServiceAccounts), sorted. */
  serviceAccounts: readonly string[];
  /** `outbound_.PORT_.SUBSET_.HOST`. */
  sni: string;
  enableAutoMtls: boolean;
  meshExternal: boolean;
  /** BestEffortInferServiceMTLSMode; undefined = MTLSUnknown. */
  serviceMode: MtlsMode | undefined;
  /** ServiceEntry services (provider.External) verify SIMPLE/MUTUAL peers against their service accounts. */
  registry: 'Kubernetes' | 'External';
}

export interface UpstreamTlsDecision {
  kind: ClusterTlsKind;
  /** The settings the cluster's transport socket is built from (none for plaintext). */
  settings?: ClientTLSSettings;
  /** YAML path of the DestinationRule tls (kind DR). */
  path?: string;
}

/** buildUpstreamTLSSettings (no proxy metadata certificates). */
export function upstreamTlsSettings(i: UpstreamTlsInput): UpstreamTlsDecision {
  const tls = i.tls?.value;
  if (tls) {
    const path = i.tls!.path;
    if (tls.mode !== 'ISTIO_MUTUAL') {
      // constructUpstreamTLS: External services without subjectAltNames verify against their service accounts
      const fill = (tls.mode === 'SIMPLE' || tls.mode === 'MUTUAL') && i.registry === 'External' && !tls.subjectAltNames?.length;
      return { kind: 'DR', settings: fill ? { ...tls, subjectAltNames: [...i.serviceAccounts] } : tls, path };
    }
    const settings: ClientTLSSettings = {
      mode: 'ISTIO_MUTUAL',
      sni: tls.sni || i.sni,
      subjectAltNames: tls.subjectAltNames ?? [...i.serviceAccounts],
    };
    if (tls.insecureSkipVerify !== undefined) settings.insecureSkipVerify = tls.insecureSkipVerify;
    return { kind: 'DR', settings, path };
  }
  if (i.meshExternal || !i.enableAutoMtls || i.serviceMode === undefined || i.serviceMode === 'DISABLE') return { kind: 'none' };
  return { kind: 'auto', settings: { mode: 'ISTIO_MUTUAL', sni: i.sni, subjectAltNames: [...i.serviceAccounts] } };
}

export interface ClusterTlsContextInput {
  clusterName: string;
  /** The cluster speaks HTTP/2 upstream (isHttp2Cluster). */
  http2: boolean;
  proxyType: ProxyModel['type'];
  /** The DestinationRule has a workloadSelector (isDrWithSelector). */
  drWithSelector: boolean;
}

const exact = (xs: readonly string[] | undefined) => (xs ?? []).map((s) => ({ exact: s }));
const defaultCommon = (): CommonTlsContextJson => ({
  tlsParams: { tlsMinimumProtocolVersion: 'TLSv1_2', tlsMaximumProtocolVersion: 'TLSv1_3' },
});

/**
 * buildUpstreamClusterTLSContext. undefined for DISABLE, and for SIMPLE/MUTUAL with a credentialName on a
 * sidecar whose DestinationRule has no workloadSelector (istiod will not hand such secrets to sidecars).
 * Throws the message istiod logs when MUTUAL lacks its client certificate files.
 */
export function upstreamTlsContext(tls: ClientTLSSettings, c: ClusterTlsContextInput): UpstreamTlsContextJson | undefined {
  const mode = tls.mode ?? 'DISABLE';
  const credential = tls.credentialName ?? '';
  const privileged = credential !== '' && !credential.startsWith('configmap://');
  if (privileged && c.proxyType === 'sidecar' && !c.drWithSelector && (mode === 'SIMPLE' || mode === 'MUTUAL')) return undefined;
  if (mode === 'DISABLE') return undefined;
  if (mode === 'ISTIO_MUTUAL') {
    const common = defaultCommon();
    common.tlsCertificateSdsSecretConfigs = [agentSds('default')];
    common.combinedValidationContext = {
      defaultValidationContext: { matchSubjectAltNames: exact(tls.subjectAltNames) },
      validationContextSdsSecretConfig: agentSds('ROOTCA'),
    };
    common.alpnProtocols = [...(c.http2 ? ALPN_IN_MESH_H2 : ALPN_IN_MESH)];
    return { commonTlsContext: common, sni: tls.sni || c.clusterName };
  }
  // constructUpstreamTLS (SIMPLE / MUTUAL)
  const common = defaultCommon();
  const out: UpstreamTlsContextJson = { commonTlsContext: common };
  if (tls.sni) out.sni = tls.sni;
  if (credential) {
    if (mode === 'MUTUAL') common.tlsCertificateSdsSecretConfigs = [credentialSds(credential)];
    if (!tls.insecureSkipVerify) {
      common.combinedValidationContext = {
        defaultValidationContext: { matchSubjectAltNames: exact(tls.subjectAltNames) },
        validationContextSdsSecretConfig: credentialSds(`${credential}${SDS_CA_SUFFIX}`),
      };
    }
  } else {
    const ca = tls.caCertificates || 'system';
    if (mode === 'MUTUAL') {
      if (!tls.clientCertificate || !tls.privateKey)
        throw new Error(`failed to apply tls setting for ${c.clusterName}: client certificate and private key must not be empty`);
      common.tlsCertificateSdsSecretConfigs = [agentSds(`file-cert:${tls.clientCertificate}~${tls.privateKey}`)];
    }
    if (tls.insecureSkipVerify) common.validationContext = {};
    else {
      const dvc: NonNullable<NonNullable<CommonTlsContextJson['combinedValidationContext']>['defaultValidationContext']> = {
        matchSubjectAltNames: exact(tls.subjectAltNames),
      };
      if (tls.caCrl) dvc.crl = { filename: tls.caCrl };
      common.combinedValidationContext = { defaultValidationContext: dvc, validationContextSdsSecretConfig: agentSds(`file-root:${ca}`) };
    }
  }
  if (c.http2) common.alpnProtocols = [...ALPN_H2_ONLY];
  return out;
}

export const tlsSocket = (ctx: UpstreamTlsContextJson): TransportSocketJson => ({
  name: TLS_TRANSPORT_SOCKET,
  typedConfig: { '@type': EXT.upstreamTls, ...ctx } as TransportSocketJson['typedConfig'],
});

/** xdsfilters.RawBufferTransportSocket. */
export const rawBufferSocket = (): TransportSocketJson => ({
  name: RAW_BUFFER_TRANSPORT_SOCKET,
  typedConfig: { '@type': EXT.rawBuffer } as TransportSocketJson['typedConfig'],
});

/**
 * applyUpstreamTLSSettings: the TLS context as the cluster's transport socket; auto-detected Istio mTLS on a
 * non-ORIGINAL_DST cluster becomes transport_socket_matches instead — `tlsMode-istio` for endpoints whose
 * metadata says `tlsMode: istio`, `tlsMode-disabled` (plaintext) for the rest.
 */
export function applyUpstreamTls(c: ClusterJson, ctx: UpstreamTlsContextJson | undefined, decision: UpstreamTlsDecision): void {
  if (!ctx) return;
  const socket = tlsSocket(ctx);
  const autoIstio = decision.kind === 'auto' && decision.settings?.mode === 'ISTIO_MUTUAL';
  if (autoIstio && c.type !== 'ORIGINAL_DST') {
    delete c.transportSocket;
    c.transportSocketMatches = [
      { name: 'tlsMode-istio', match: { tlsMode: 'istio' }, transportSocket: socket },
      { name: 'tlsMode-disabled', match: {}, transportSocket: rawBufferSocket() },
    ];
    return;
  }
  c.transportSocket = socket;
}
