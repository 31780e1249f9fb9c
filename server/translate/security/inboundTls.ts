// The inbound filter-chain options per mTLS mode and the DownstreamTlsContext istiod puts on the TLS ones
// (networking/core/filterchain_options.go getFilterChainMatchOptions, FilterChainMatchOptions.ToTransportSocket;
// listener.go mtlsHTTPALPNs / allIstioMtlsALPNs / mtlsTCPWithMxcALPNs; security/authn/utils BuildInboundTLS;
// security/model ApplyToCommonTLSContext; plugin/authn TrustDomainsForValidation).
import type { DownstreamTlsContextJson } from '../../gen/envoy/extensions/transport_sockets/tls/v3/tls_pb';
import type { ListenerProtocol } from '../../model/protocol';
import { agentSds } from './sds';
import type { MtlsMode } from './peerAuthentication';

export const TLS_TRANSPORT = 'tls';
export const RAW_BUFFER_TRANSPORT = 'raw_buffer';
/** listener.go plaintextHTTPALPNs (PILOT_HTTP10 off). */
export const PLAINTEXT_HTTP_ALPNS: readonly string[] = ['http/1.1', 'h2c'];
/** listener.go mtlsHTTPALPNs. */
export const MTLS_HTTP_ALPNS: readonly string[] = ['istio-http/1.0', 'istio-http/1.1', 'istio-h2'];
/** listener.go allIstioMtlsALPNs. */
export const ALL_ISTIO_MTLS_ALPNS: readonly string[] = ['istio', 'istio-peer-exchange', 'istio-http/1.0', 'istio-http/1.1', 'istio-h2'];
/** listener.go mtlsTCPWithMxcALPNs. */
export const MTLS_TCP_ALPNS: readonly string[] = ['istio-peer-exchange', 'istio'];

/** MeshConfig.trustDomain default; istiod validates peers against spiffe://<trust domain>/ prefixes. */
export const DEFAULT_TRUST_DOMAIN = 'cluster.local';

/** security/authn/utils SupportedCiphers (server side). */
export const SUPPORTED_CIPHERS: readonly string[] = [
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'AES256-GCM-SHA384',
  'AES128-GCM-SHA256',
];

/** filterchain_options.go FilterChainMatchOptions. */
export interface MatchOption {
  protocol: 'HTTP' | 'TCP';
  transportProtocol: string;
  applicationProtocols?: readonly string[];
  /** The chain terminates (m)TLS. */
  tls?: boolean;
}

const o = (protocol: 'HTTP' | 'TCP', transportProtocol: string, applicationProtocols?: readonly string[], tls?: boolean): MatchOption => ({
  protocol,
  transportProtocol,
  ...(applicationProtocols ? { applicationProtocols } : {}),
  ...(tls ? { tls } : {}),
});

/** getFilterChainMatchOptions (no Sidecar ingress TLS chain, so hasExistingTLSChain is false). */
export function filterChainMatchOptions(mode: MtlsMode, lp: ListenerProtocol): MatchOption[] {
  if (lp === 'HTTP') {
    if (mode === 'STRICT') return [o('HTTP', TLS_TRANSPORT, undefined, true)];
    if (mode === 'PERMISSIVE') return [o('HTTP', TLS_TRANSPORT, ALL_ISTIO_MTLS_ALPNS, true), o('HTTP', RAW_BUFFER_TRANSPORT)];
    return [o('HTTP', RAW_BUFFER_TRANSPORT)];
  }
  if (lp === 'AUTO') {
    if (mode === 'STRICT') return [o('HTTP', TLS_TRANSPORT, MTLS_HTTP_ALPNS, true), o('TCP', TLS_TRANSPORT, undefined, true)];
    if (mode === 'PERMISSIVE')
      return [
        o('HTTP', TLS_TRANSPORT, MTLS_HTTP_ALPNS, true),
        o('HTTP', RAW_BUFFER_TRANSPORT, PLAINTEXT_HTTP_ALPNS),
        o('TCP', TLS_TRANSPORT, MTLS_TCP_ALPNS, true),
        o('TCP', RAW_BUFFER_TRANSPORT),
        o('TCP', TLS_TRANSPORT),
      ];
    return [o('HTTP', RAW_BUFFER_TRANSPORT, PLAINTEXT_HTTP_ALPNS), o('TCP', RAW_BUFFER_TRANSPORT)];
  }
  // TCP (and every other listener protocol)
  if (mode === 'STRICT') return [o('TCP', TLS_TRANSPORT, undefined, true)];
  if (mode === 'PERMISSIVE')
    return [o('TCP', TLS_TRANSPORT, ALL_ISTIO_MTLS_ALPNS, true), o('TCP', RAW_BUFFER_TRANSPORT), o('TCP', TLS_TRANSPORT)];
  return [o('TCP', RAW_BUFFER_TRANSPORT)];
}

/**
 * BuildInboundTLS for STRICT / PERMISSIVE: the workload certificate and root over SDS, client certificates
 * required and validated against the trust domain, TLS 1.2–1.3 with Istio's server ciphers. TCP chains also
 * offer `istio-peer-exchange` (metadata exchange on, its ALPN not disabled — istiod's defaults).
 */
export function inboundTlsContext(
  protocol: 'HTTP' | 'TCP',
  trustDomains: readonly string[] = [DEFAULT_TRUST_DOMAIN],
): DownstreamTlsContextJson {
  return {
    commonTlsContext: {
      tlsParams: {
        tlsMinimumProtocolVersion: 'TLSv1_2',
        tlsMaximumProtocolVersion: 'TLSv1_3',
        cipherSuites: [...SUPPORTED_CIPHERS],
      },
      alpnProtocols: protocol === 'TCP' ? ['istio-peer-exchange', 'h2', 'http/1.1'] : ['h2', 'http/1.1'],
      tlsCertificateSdsSecretConfigs: [agentSds('default')],
      combinedValidationContext: {
        defaultValidationContext: { matchSubjectAltNames: trustDomains.map((td) => ({ prefix: `spiffe://${td}/` })) },
        validationContextSdsSecretConfig: agentSds('ROOTCA'),
      },
    },
    requireClientCertificate: true,
  };
}
