// The `hbone` transport socket match of outbound clusters under the ambient profile (cluster_tls.go
// hboneTransportSocket, hboneOrPlaintextSocket, applyHBONETransportSocketMatches; cluster_builder.go sendHbone):
// endpoints whose metadata says `tunnel: http` (../hbone/endpoints.ts) go through the internal upstream socket to
// connect_originate, passing the host's original_dst and the cluster's and host's istio metadata through
// (util.FullMetadataPassthroughInternalUpstreamTransportSocket); the others keep what the cluster's TLS decided.
// Pilot test: cluster_tls_test.go TestApplyUpstreamTLSSettingsHBONE. Pure.
import type { ClusterJson } from '../../types';
import type { TransportSocketJson } from '../../../gen/envoy/config/core/v3/base_pb';
import { rawBufferSocket, type UpstreamTlsDecision } from '../../security/clusterTls';
import { ORIGINAL_DST_METADATA } from './connectOriginate';

const T_INTERNAL_UPSTREAM = 'type.googleapis.com/envoy.extensions.transport_sockets.internal_upstream.v3.InternalUpstreamTransport';

type SocketMatch = NonNullable<ClusterJson['transportSocketMatches']>[number];

/** util.FullMetadataPassthroughInternalUpstreamTransportSocket(inner) (ambient baggage off, its default). */
const fullMetadataPassthrough = (inner: TransportSocketJson): TransportSocketJson =>
  ({
    name: 'envoy.transport_sockets.internal_upstream',
    typedConfig: {
      '@type': T_INTERNAL_UPSTREAM,
      passthroughMetadata: [
        { kind: { host: {} }, name: ORIGINAL_DST_METADATA },
        { kind: { cluster: {} }, name: 'istio' },
        { kind: { host: {} }, name: 'istio' },
      ],
      transportSocket: inner,
    },
  }) as TransportSocketJson;

/** hboneTransportSocket(inner): match `tunnel: http`. */
const hboneMatch = (inner: TransportSocketJson): SocketMatch => ({
  name: 'hbone',
  match: { tunnel: 'http' },
  transportSocket: fullMetadataPassthrough(inner),
});

/** defaultTransportSocketMatch. */
const plaintextMatch = (): SocketMatch => ({ name: 'tlsMode-disabled', match: {}, transportSocket: rawBufferSocket() });

/** hboneOrPlaintextSocket: HBONE or plaintext, by endpoint. */
export const hboneOrPlaintextMatches = (): SocketMatch[] => [hboneMatch(rawBufferSocket()), plaintextMatch()];

/**
 * applyHBONETransportSocketMatches, after applyUpstreamTLSSettings set the cluster's socket (`decision.settings`
 * present: DestinationRule TLS or auto mTLS; without settings, see hboneOrPlaintextMatches). ORIGINAL_DST clusters
 * keep their socket. Auto-detected Istio mTLS: HBONE, else mTLS by `tlsMode`, else plaintext. No socket (DISABLE):
 * HBONE or plaintext. User ISTIO_MUTUAL: HBONE replaces it where the endpoint supports it. Other user TLS: TLS inside
 * HBONE, else the user's TLS.
 */
export function applyHboneTransportSocketMatches(c: ClusterJson, decision: UpstreamTlsDecision): void {
  if (c.type === 'ORIGINAL_DST') return;
  if (decision.kind === 'auto' && decision.settings?.mode === 'ISTIO_MUTUAL') {
    c.transportSocketMatches = [hboneMatch(rawBufferSocket()), ...(c.transportSocketMatches ?? [])];
    return;
  }
  const ts = c.transportSocket;
  if (!ts) {
    c.transportSocketMatches = hboneOrPlaintextMatches();
    return;
  }
  delete c.transportSocket;
  c.transportSocketMatches =
    decision.settings?.mode === 'ISTIO_MUTUAL'
      ? [hboneMatch(rawBufferSocket()), { name: 'tlsMode-istio', transportSocket: ts }]
      : [hboneMatch(ts), { name: 'user', transportSocket: ts }];
}
