// PeerAuthentication end to end: translate a proxy, then walk inbound requests through its virtualInbound
// listener. The table is Istio's pilot/pkg/networking/core/peer_authentication_simulation_test.go
// TestPeerAuthenticationPassthrough (calls: HTTP, inbound, mTLS with ALPN "istio"), reproduced here on a
// pod labelled app=foo — once with no Service (everything reaches the passthrough chains) and once with a
// Service port 8000 on the pod (the "not in service" cases: port 9000 is only in the policy).
import { describe, expect, it } from 'vitest';
import { deployment, meshFromYaml, proxyWith } from '../translate/testing/yamlMesh';
import { simulateProxy } from './simulateProxy';
import type { SimRequest } from '../simulate/types';

const pa = (mode: string, portLevel?: Record<number, string>) => `
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: default, namespace: default}
spec:
  selector:
    matchLabels: {app: foo}
  mtls: {mode: ${mode}}
${
  portLevel
    ? `  portLevelMtls:\n${Object.entries(portLevel)
        .map(([p, m]) => `    ${p}: {mode: ${m}}`)
        .join('\n')}`
    : ''
}
---
`;
const service8000 = `
apiVersion: v1
kind: Service
metadata: {name: foo, namespace: default}
spec:
  selector: {app: foo}
  ports:
  - {name: http, port: 8000, targetPort: 8000}
---
`;

const IPC = 'InboundPassthroughCluster';
const NO_CHAIN = 'no filter chains matched';
const PROTOCOL = 'protocol error';

type Expected = { cluster: string } | { error: string };
type Row = [name: string, config: string, calls: [port: number, tls: 'plaintext' | 'mtls', want: Expected][]];

const ok = (cluster: string): Expected => ({ cluster });
const err = (error: string): Expected => ({ error });

const ROWS: Row[] = [
  [
    'global disable',
    pa('DISABLE'),
    [
      [8000, 'mtls', ok(IPC)],
      [8000, 'plaintext', ok(IPC)],
    ],
  ],
  [
    'global strict',
    pa('STRICT'),
    [
      [8000, 'plaintext', err(NO_CHAIN)],
      [8000, 'mtls', ok(IPC)],
    ],
  ],
  [
    'global permissive',
    pa('PERMISSIVE'),
    [
      [8000, 'plaintext', ok(IPC)],
      [8000, 'mtls', ok(IPC)],
    ],
  ],
  [
    'global disable and port 9000 strict',
    pa('DISABLE', { 9000: 'STRICT' }),
    [
      [8000, 'plaintext', ok(IPC)],
      [8000, 'mtls', ok(IPC)],
      [9000, 'plaintext', err(NO_CHAIN)],
      [9000, 'mtls', ok(IPC)],
    ],
  ],
  [
    'global disable and port 9000 strict not in service',
    pa('DISABLE', { 9000: 'STRICT' }) + service8000,
    [
      [8000, 'plaintext', ok('inbound|8000||')],
      // an mTLS request to the plaintext HTTP chain cannot be decoded
      [8000, 'mtls', err(PROTOCOL)],
      [9000, 'plaintext', err(NO_CHAIN)],
      [9000, 'mtls', ok(IPC)],
    ],
  ],
  [
    'global strict and port 9000 plaintext',
    pa('STRICT', { 9000: 'DISABLE' }),
    [
      [8000, 'plaintext', err(NO_CHAIN)],
      [8000, 'mtls', ok(IPC)],
      [9000, 'plaintext', ok(IPC)],
      [9000, 'mtls', ok(IPC)],
    ],
  ],
  [
    'global strict and port 9000 plaintext not in service',
    pa('STRICT', { 9000: 'DISABLE' }) + service8000,
    [
      [8000, 'plaintext', err(NO_CHAIN)],
      [8000, 'mtls', ok('inbound|8000||')],
      [9000, 'plaintext', ok(IPC)],
      [9000, 'mtls', ok(IPC)],
    ],
  ],
  [
    'global plaintext and port 9000 permissive',
    pa('DISABLE', { 9000: 'PERMISSIVE' }),
    [
      [8000, 'plaintext', ok(IPC)],
      [8000, 'mtls', ok(IPC)],
      [9000, 'plaintext', ok(IPC)],
      [9000, 'mtls', ok(IPC)],
    ],
  ],
  [
    'global plaintext and port 9000 permissive not in service',
    pa('DISABLE', { 9000: 'PERMISSIVE' }) + service8000,
    [
      [8000, 'plaintext', ok('inbound|8000||')],
      [8000, 'mtls', err(PROTOCOL)],
      [9000, 'plaintext', ok(IPC)],
      [9000, 'mtls', ok(IPC)],
    ],
  ],
];

describe('TestPeerAuthenticationPassthrough (peer_authentication_simulation_test.go)', () => {
  for (const [name, config, calls] of ROWS) {
    describe(name, () => {
      const snap = meshFromYaml(deployment('foo', 'default', { app: 'foo' }) + '---\n' + config);
      const proxy = proxyWith(snap, 'default', { app: 'foo' });
      it('loads without problems', () => expect(snap.errors).toEqual([]));
      for (const [port, tls, want] of calls) {
        it(`${tls} on port ${port} → ${'cluster' in want ? want.cluster : want.error}`, () => {
          const req: SimRequest = { mode: 'inbound', port, protocol: 'http', tls, ...(tls === 'mtls' ? { alpn: ['istio'] } : {}) };
          const r = simulateProxy(snap, proxy.id, req);
          if ('cluster' in want) {
            expect(r?.error).toBeUndefined();
            expect(r?.cluster).toBe(want.cluster);
          } else expect(r?.error).toBe(want.error);
        });
      }
    });
  }
});

describe('simulator mTLS outcomes on a STRICT port (traffic.go requiresMTLS)', () => {
  const snap = meshFromYaml(deployment('foo', 'default', { app: 'foo' }) + '---\n' + pa('STRICT') + service8000);
  const proxy = proxyWith(snap, 'default', { app: 'foo' });
  const run = (r: Partial<SimRequest>) => simulateProxy(snap, proxy.id, { mode: 'inbound', port: 8000, ...r });

  it('plain TLS reaching an mTLS-only chain is "invalid mTLS"', () => {
    expect(run({ tls: 'tls' })?.error).toBe('invalid mTLS');
  });
  it('an mTLS client gets the Istio ALPN of its protocol (istio-http/1.1) and reaches the inbound cluster', () => {
    const r = run({ tls: 'mtls' });
    expect(r?.filterChain).toBe('0.0.0.0_8000');
    expect(r?.cluster).toBe('inbound|8000||');
  });
  it('plaintext fails with "no filter chains matched", and a note says the port takes only mTLS', () => {
    const r = run({ tls: 'plaintext' });
    expect(r?.error).toBe('no filter chains matched');
    expect(r?.rejected).toContainEqual(
      expect.objectContaining({ name: '0.0.0.0_8000', reason: 'transport_protocol tls does not match raw_buffer' }),
    );
    expect(r?.notes?.join(' ')).toMatch(/port 8000 accepts only TLS from Istio mTLS clients \(PeerAuthentication mode STRICT\)/);
  });
});
