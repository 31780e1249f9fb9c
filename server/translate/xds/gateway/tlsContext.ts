// Downstream TLS for gateway servers that terminate TLS (networking/core/listener.go:BuildListenerTLSContext,
// security/model/authentication.go:ApplyCredentialSDSToServerCommonTLSContext, ConstructSdsSecretConfigForCredential,
// model/credentials/resource.go:ToResourceName). A credentialName is referenced by name over SDS on the
// ADS stream (`kubernetes://<name>`); meshscope never reads Secrets.
// Modelled: SIMPLE / MUTUAL / OPTIONAL_MUTUAL with credentialName(s) (+ caCertCredentialName is not in the
// typed spec), TLS versions and cipher suites. ISTIO_MUTUAL and file-mounted certificates get istiod's SDS
// shape for the workload certificate / files (`default`, `ROOTCA`, `file-cert:` over `sds-grpc`).
import type { CommonTlsContextJson, DownstreamTlsContextJson } from '../../../gen/envoy/extensions/transport_sockets/tls/v3/tls_pb';
import type { TlsParameters_TlsProtocolJson } from '../../../gen/envoy/extensions/transport_sockets/tls/v3/common_pb';
import type { TransportSocketJson } from '../../../gen/envoy/config/core/v3/base_pb';
import type { ServerTLSSettings } from '../../../model/istio';
import { EXT } from '../../../envoy/typeUrls';
import { typed } from '../listeners/filters';
import { agentSds, credentialSds, SDS_CA_SUFFIX } from '../../security/sds';

export { credentialResourceName } from '../../security/sds';

/** util.ALPNHttp. */
export const ALPN_HTTP: readonly string[] = ['h2', 'http/1.1'];
export const TLS_TRANSPORT_SOCKET = 'envoy.transport_sockets.tls';

const TLS_VERSIONS: Readonly<Record<string, TlsParameters_TlsProtocolJson>> = {
  TLS_AUTO: 'TLS_AUTO',
  TLSV1_0: 'TLSv1_0',
  TLSV1_1: 'TLSv1_1',
  TLSV1_2: 'TLSv1_2',
  TLSV1_3: 'TLSv1_3',
};

/** applyServerTLSSettings (SIMPLE / MUTUAL / OPTIONAL_MUTUAL only). */
function applyServerTlsSettings(t: ServerTLSSettings, ctx: CommonTlsContextJson): void {
  const min = t.minProtocolVersion ? TLS_VERSIONS[t.minProtocolVersion] : undefined;
  const max = t.maxProtocolVersion ? TLS_VERSIONS[t.maxProtocolVersion] : undefined;
  const params: NonNullable<CommonTlsContextJson['tlsParams']> = {};
  if (min && min !== 'TLS_AUTO') params.tlsMinimumProtocolVersion = min;
  if (t.cipherSuites?.length) params.cipherSuites = [...new Set(t.cipherSuites)];
  if (max && max !== 'TLS_AUTO') params.tlsMaximumProtocolVersion = max;
  if (Object.keys(params).length) ctx.tlsParams = params;
}

const exact = (xs: readonly string[] | undefined) => (xs ?? []).map((s) => ({ exact: s }));

/** BuildListenerTLSContext for a TCP-transport gateway server (never called for passthrough). */
export function buildGatewayTlsContext(t: ServerTLSSettings): DownstreamTlsContextJson {
  const mode = t.mode ?? 'SIMPLE';
  const common: CommonTlsContextJson = { alpnProtocols: [...ALPN_HTTP] };
  const requireClient = mode === 'MUTUAL' || mode === 'ISTIO_MUTUAL';
  const names = t.credentialNames?.length ? t.credentialNames : t.credentialName ? [t.credentialName] : [];
  if (mode === 'ISTIO_MUTUAL') {
    common.tlsCertificateSdsSecretConfigs = [agentSds('default')];
    common.combinedValidationContext = {
      defaultValidationContext: { matchSubjectAltNames: exact(t.subjectAltNames) },
      validationContextSdsSecretConfig: agentSds('ROOTCA'),
    };
  } else if (names.length > 0) {
    common.tlsCertificateSdsSecretConfigs = names.map(credentialSds);
    if (mode === 'MUTUAL' || mode === 'OPTIONAL_MUTUAL') {
      const dvc: NonNullable<NonNullable<CommonTlsContextJson['combinedValidationContext']>['defaultValidationContext']> = {};
      if (t.subjectAltNames?.length) dvc.matchSubjectAltNames = exact(t.subjectAltNames);
      if (t.verifyCertificateSpki?.length) dvc.verifyCertificateSpki = [...t.verifyCertificateSpki];
      if (t.verifyCertificateHash?.length) dvc.verifyCertificateHash = [...t.verifyCertificateHash];
      common.combinedValidationContext = {
        defaultValidationContext: dvc,
        validationContextSdsSecretConfig: credentialSds(`${names[0]}${SDS_CA_SUFFIX}`),
      };
    } else if (t.subjectAltNames?.length) {
      common.validationContext = { matchSubjectAltNames: exact(t.subjectAltNames) };
    }
  } else {
    // file-mounted certificates, served by the agent's SDS (security.SdsCertificateConfig resource names)
    const cert = t.serverCertificate ?? '';
    const key = t.privateKey ?? '';
    common.tlsCertificateSdsSecretConfigs = [agentSds(cert || key ? `file-cert:${cert}~${key}` : 'default')];
    if (requireClient || mode === 'OPTIONAL_MUTUAL') {
      common.combinedValidationContext = {
        defaultValidationContext: { matchSubjectAltNames: exact(t.subjectAltNames) },
        validationContextSdsSecretConfig: agentSds(t.caCertificates ? `file-root:${t.caCertificates}` : 'ROOTCA'),
      };
    }
  }
  if (mode === 'SIMPLE' || mode === 'MUTUAL' || mode === 'OPTIONAL_MUTUAL') applyServerTlsSettings(t, common);
  return { commonTlsContext: common, requireClientCertificate: requireClient };
}

/** buildDownstreamTLSTransportSocket. */
export function tlsTransportSocket(ctx: DownstreamTlsContextJson): TransportSocketJson {
  return { name: TLS_TRANSPORT_SOCKET, typedConfig: typed(EXT.downstreamTls, ctx) };
}
