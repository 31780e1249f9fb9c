// Client TLS of clusters, case by case from Istio's cluster_tls_test.go (TestBuildAutoMtlsSettings,
// TestBuildUpstreamClusterTLSContext, TestApplyUpstreamTLSSettings). Expectations are Istio's, restated.
import { describe, expect, it } from 'vitest';
import type { ClusterJson } from '../../gen/envoy/config/cluster/v3/cluster_pb';
import type { ClientTLSSettings } from '../../model/istio';
import { applyUpstreamTls, upstreamTlsContext, upstreamTlsSettings, type UpstreamTlsInput } from './clusterTls';

const SA = ['spiffe://foo/serviceaccount/1'];
const base: UpstreamTlsInput = {
  serviceAccounts: SA,
  sni: 'foo.com',
  enableAutoMtls: true,
  meshExternal: false,
  serviceMode: 'STRICT',
  registry: 'Kubernetes',
};
const custom: ClientTLSSettings = { mode: 'ISTIO_MUTUAL', subjectAltNames: ['custom.foo.com'], sni: 'custom.foo.com' };

describe('buildUpstreamTLSSettings (TestBuildAutoMtlsSettings)', () => {
  it('Destination rule TLS sni and SAN override: user supplied, kept as written', () => {
    const d = upstreamTlsSettings({
      ...base,
      tls: { value: custom, path: 'spec.trafficPolicy.tls' },
      enableAutoMtls: false,
      serviceMode: undefined,
    });
    expect(d).toEqual({ kind: 'DR', settings: custom, path: 'spec.trafficPolicy.tls' });
  });
  it('auto fill for an internal service in STRICT and PERMISSIVE: ISTIO_MUTUAL with the service accounts and SNI', () => {
    for (const serviceMode of ['STRICT', 'PERMISSIVE'] as const)
      expect(upstreamTlsSettings({ ...base, serviceMode })).toEqual({
        kind: 'auto',
        settings: { mode: 'ISTIO_MUTUAL', subjectAltNames: SA, sni: 'foo.com' },
      });
  });
  it('no auto fill in plaintext (DISABLE) or unknown mode, for external services, or with auto mTLS off', () => {
    expect(upstreamTlsSettings({ ...base, serviceMode: 'DISABLE' })).toEqual({ kind: 'none' });
    expect(upstreamTlsSettings({ ...base, serviceMode: undefined })).toEqual({ kind: 'none' });
    expect(upstreamTlsSettings({ ...base, meshExternal: true })).toEqual({ kind: 'none' });
    expect(upstreamTlsSettings({ ...base, enableAutoMtls: false })).toEqual({ kind: 'none' });
  });
  it('DR ISTIO_MUTUAL without sni/SANs takes the default SNI and the service accounts', () => {
    const d = upstreamTlsSettings({ ...base, tls: { value: { mode: 'ISTIO_MUTUAL' }, path: 'p' } });
    expect(d.settings).toEqual({ mode: 'ISTIO_MUTUAL', sni: 'foo.com', subjectAltNames: SA });
  });
  it('SIMPLE to a ServiceEntry without SANs verifies against its service accounts (constructUpstreamTLS)', () => {
    const d = upstreamTlsSettings({ ...base, registry: 'External', tls: { value: { mode: 'SIMPLE' }, path: 'p' } });
    expect(d.settings?.subjectAltNames).toEqual(SA);
  });
});

const ctxIn = { clusterName: 'test-cluster', http2: false, proxyType: 'sidecar' as const, drWithSelector: false };

describe('buildUpstreamClusterTLSContext (TestBuildUpstreamClusterTLSContext)', () => {
  it('tls mode disabled: no context', () => {
    expect(upstreamTlsContext({ mode: 'DISABLE' }, ctxIn)).toBeUndefined();
  });
  it('tls mode ISTIO_MUTUAL: SDS default + ROOTCA, SANs exact, ALPN istio-peer-exchange/istio, TLS 1.2–1.3, SNI kept', () => {
    const c = upstreamTlsContext({ mode: 'ISTIO_MUTUAL', subjectAltNames: ['SAN'], sni: 'some-sni.com' }, ctxIn);
    expect(c?.sni).toBe('some-sni.com');
    expect(c?.commonTlsContext?.alpnProtocols).toEqual(['istio-peer-exchange', 'istio']);
    expect(c?.commonTlsContext?.tlsParams).toEqual({ tlsMinimumProtocolVersion: 'TLSv1_2', tlsMaximumProtocolVersion: 'TLSv1_3' });
    expect(c?.commonTlsContext?.tlsCertificateSdsSecretConfigs?.map((s) => s.name)).toEqual(['default']);
    expect(c?.commonTlsContext?.combinedValidationContext?.defaultValidationContext?.matchSubjectAltNames).toEqual([{ exact: 'SAN' }]);
    expect(c?.commonTlsContext?.combinedValidationContext?.validationContextSdsSecretConfig?.name).toBe('ROOTCA');
  });
  it('tls mode ISTIO_MUTUAL and H2: ALPN istio-peer-exchange, istio, h2; an empty SNI becomes the cluster name', () => {
    const c = upstreamTlsContext({ mode: 'ISTIO_MUTUAL' }, { ...ctxIn, http2: true });
    expect(c?.commonTlsContext?.alpnProtocols).toEqual(['istio-peer-exchange', 'istio', 'h2']);
    expect(c?.sni).toBe('test-cluster');
  });
  it('tls mode SIMPLE, with no certs specified in tls: the system root (file-root:system)', () => {
    const c = upstreamTlsContext({ mode: 'SIMPLE', sni: 'some-sni.com', subjectAltNames: ['SAN'] }, ctxIn);
    expect(c?.sni).toBe('some-sni.com');
    expect(c?.commonTlsContext?.combinedValidationContext?.validationContextSdsSecretConfig?.name).toBe('file-root:system');
    expect(c?.commonTlsContext?.tlsCertificateSdsSecretConfigs).toBeUndefined();
  });
  it('tls mode SIMPLE, insecure: an empty validation context', () => {
    const c = upstreamTlsContext({ mode: 'SIMPLE', insecureSkipVerify: true }, ctxIn);
    expect(c?.commonTlsContext?.validationContext).toEqual({});
    expect(c?.commonTlsContext?.combinedValidationContext).toBeUndefined();
  });
  it('tls mode SIMPLE, with certs specified in tls, with crl; h2 → ALPN h2', () => {
    const c = upstreamTlsContext({ mode: 'SIMPLE', caCertificates: 'root-cert.pem', caCrl: 'path/to/crl' }, { ...ctxIn, http2: true });
    const v = c?.commonTlsContext?.combinedValidationContext;
    expect(v?.validationContextSdsSecretConfig?.name).toBe('file-root:root-cert.pem');
    expect(v?.defaultValidationContext?.crl).toEqual({ filename: 'path/to/crl' });
    expect(c?.commonTlsContext?.alpnProtocols).toEqual(['h2']);
  });
  it('tls mode MUTUAL, with no client certificate / key: an error naming the cluster', () => {
    expect(() => upstreamTlsContext({ mode: 'MUTUAL', privateKey: 'k' }, ctxIn)).toThrow(
      'failed to apply tls setting for test-cluster: client certificate and private key must not be empty',
    );
    expect(() => upstreamTlsContext({ mode: 'MUTUAL', clientCertificate: 'c' }, ctxIn)).toThrow(/must not be empty/);
  });
  it('tls mode MUTUAL with files: file-cert:CERT~KEY', () => {
    const c = upstreamTlsContext({ mode: 'MUTUAL', clientCertificate: 'cert.pem', privateKey: 'key.pem', caCertificates: 'ca.pem' }, ctxIn);
    expect(c?.commonTlsContext?.tlsCertificateSdsSecretConfigs?.map((s) => s.name)).toEqual(['file-cert:cert.pem~key.pem']);
  });
  it('credentialName on a router: kubernetes://NAME and NAME-cacert over ADS', () => {
    const c = upstreamTlsContext(
      { mode: 'MUTUAL', credentialName: 'fake-cred', subjectAltNames: ['SAN'] },
      { ...ctxIn, proxyType: 'router' },
    );
    expect(c?.commonTlsContext?.tlsCertificateSdsSecretConfigs).toEqual([
      { name: 'kubernetes://fake-cred', sdsConfig: { ads: {}, resourceApiVersion: 'V3' } },
    ]);
    expect(c?.commonTlsContext?.combinedValidationContext?.validationContextSdsSecretConfig?.name).toBe('kubernetes://fake-cred-cacert');
    const simple = upstreamTlsContext({ mode: 'SIMPLE', credentialName: 'fake-cred' }, { ...ctxIn, proxyType: 'router' });
    expect(simple?.commonTlsContext?.tlsCertificateSdsSecretConfigs).toBeUndefined();
  });
  it('credentialName is set with proxy type Sidecar: no context, unless the DestinationRule has a workload selector', () => {
    expect(upstreamTlsContext({ mode: 'MUTUAL', credentialName: 'fake-cred' }, ctxIn)).toBeUndefined();
    expect(upstreamTlsContext({ mode: 'SIMPLE', credentialName: 'fake-cred' }, ctxIn)).toBeUndefined();
    expect(upstreamTlsContext({ mode: 'SIMPLE', credentialName: 'fake-cred' }, { ...ctxIn, drWithSelector: true })).toBeDefined();
  });
});

describe('applyUpstreamTLSSettings (TestApplyUpstreamTLSSettings)', () => {
  const istio = upstreamTlsContext({ mode: 'ISTIO_MUTUAL', sni: 's' }, ctxIn);
  it('auto detect with tls: transport_socket_matches tlsMode-istio then tlsMode-disabled (raw_buffer), no transport_socket', () => {
    const c: ClusterJson = { name: 'c', type: 'EDS' };
    applyUpstreamTls(c, istio, { kind: 'auto', settings: { mode: 'ISTIO_MUTUAL' } });
    expect(c.transportSocket).toBeUndefined();
    expect(c.transportSocketMatches?.map((m) => [m.name, m.match, m.transportSocket?.name])).toEqual([
      ['tlsMode-istio', { tlsMode: 'istio' }, 'envoy.transport_sockets.tls'],
      ['tlsMode-disabled', {}, 'envoy.transport_sockets.raw_buffer'],
    ]);
  });
  it('user specified with istio_mutual tls: a plain transport_socket', () => {
    const c: ClusterJson = { name: 'c', type: 'EDS' };
    applyUpstreamTls(c, istio, { kind: 'DR', settings: { mode: 'ISTIO_MUTUAL' } });
    expect(c.transportSocket?.name).toBe('envoy.transport_sockets.tls');
    expect(c.transportSocketMatches).toBeUndefined();
  });
  it('auto-detected mTLS on an ORIGINAL_DST cluster stays a plain transport_socket', () => {
    const c: ClusterJson = { name: 'c', type: 'ORIGINAL_DST' };
    applyUpstreamTls(c, istio, { kind: 'auto', settings: { mode: 'ISTIO_MUTUAL' } });
    expect(c.transportSocket?.name).toBe('envoy.transport_sockets.tls');
  });
  it('user specified without tls: nothing', () => {
    const c: ClusterJson = { name: 'c', type: 'EDS' };
    applyUpstreamTls(c, undefined, { kind: 'none' });
    expect(c).toEqual({ name: 'c', type: 'EDS' });
  });
});
