// The HBONE TLS context (waypoints, and connect_originate everywhere) (listener_waypoint.go buildCommonConnectTLSContext): the workload
// certificate and ROOTCA from the agent over SDS, ALPN h2, TLS 1.3 only; trust domain aliases (none by default)
// become URI SAN prefix matchers. Pure.
import type { CommonTlsContextJson } from '../../../gen/envoy/extensions/transport_sockets/tls/v3/tls_pb';
import { agentSds } from '../../security/sds';

/** buildCommonConnectTLSContext, with extra URI SAN prefixes (buildConnectOriginate's uriSanMatchers). */
export function connectTlsContext(sanPrefixes: readonly string[] = []): CommonTlsContextJson {
  return {
    tlsParams: { tlsMinimumProtocolVersion: 'TLSv1_3', tlsMaximumProtocolVersion: 'TLSv1_3' },
    tlsCertificateSdsSecretConfigs: [agentSds('default')],
    combinedValidationContext: {
      defaultValidationContext: sanPrefixes.length
        ? { matchTypedSubjectAltNames: sanPrefixes.map((prefix) => ({ sanType: 'URI' as const, matcher: { prefix } })) }
        : {},
      validationContextSdsSecretConfig: agentSds('ROOTCA'),
    },
    alpnProtocols: ['h2'],
  };
}
