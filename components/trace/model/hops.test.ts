// Simulation results (DESIGN.md §3 simulate JSON) as hop lists.
import { describe, expect, it } from 'vitest';
import { clusterShares, traceView } from './hops';

const base = {
  listener: '0.0.0.0_9080',
  filterChain: 'filter_chains[0]',
  routeConfig: '9080',
  virtualHost: 'reviews.default.svc.cluster.local:9080',
  route: '',
  routeIndex: 1,
};

describe('traceView', () => {
  it('a routed HTTP request: every hop in order, rejected candidates under their hop', () => {
    const v = traceView({
      ...base,
      cluster: 'outbound|9080|v3|reviews.default.svc.cluster.local',
      endpoints: ['10.0.0.3:9080'],
      rejected: [
        { hop: 'virtualHost', name: 'allow_any', index: 4, reason: 'a more specific domain matched in another virtual host' },
        { hop: 'route', name: '', index: 0, reason: 'header end-user absent' },
      ],
    });
    expect(v.hops.map((h) => h.hop)).toEqual(['listener', 'filterChain', 'routeConfig', 'virtualHost', 'route', 'cluster', 'endpoints']);
    expect(v.hops.find((h) => h.hop === 'route')).toMatchObject({
      value: '#1',
      rejected: [{ index: 0, reason: 'header end-user absent' }],
    });
    expect(v.hops.find((h) => h.hop === 'cluster')?.clusters).toEqual([
      { name: 'outbound|9080|v3|reviews.default.svc.cluster.local', weight: 1, percent: 100, subset: 'v3' },
    ]);
    expect(v.error).toBeUndefined();
  });

  it('weighted clusters: probability = weight / total (Envoy weighted_clusters)', () => {
    expect(clusterShares({ weightedClusters: { a: 75, 'outbound|80|v2|h': 25 } })).toEqual([
      { name: 'a', weight: 75, percent: 75 },
      { name: 'outbound|80|v2|h', weight: 25, percent: 25, subset: 'v2' },
    ]);
    expect(clusterShares({ weightedClusters: { a: 1, b: 2 } }).map((c) => c.percent)).toEqual([33.33, 66.67]);
  });

  it("stops where the walk stopped, with Istio's wording", () => {
    const v = traceView({
      ...base,
      virtualHost: undefined,
      route: undefined,
      routeIndex: undefined,
      error: 'no virtual host matched',
      rejected: [{ hop: 'virtualHost', name: 'a', index: 0, reason: 'domain does not match' }],
    } as never);
    expect(v.hops.map((h) => h.hop)).toEqual(['listener', 'filterChain', 'routeConfig', 'virtualHost']);
    expect(v.hops.at(-1)?.value).toBeUndefined();
    expect(v.error).toBe('no virtual host matched');
    expect(traceView({ error: 'no listener matched', rejected: [] }).hops.map((h) => h.hop)).toEqual(['listener']);
  });

  it('TCP: listener → chain → cluster, no HTTP hops; redirects and dump problems are reported', () => {
    expect(traceView({ listener: 'l', filterChain: 'c', cluster: 'x', rejected: [] }).hops.map((h) => h.hop)).toEqual([
      'listener',
      'filterChain',
      'cluster',
      'endpoints',
    ]);
    const v = traceView({
      ...base,
      redirect: { status: 301, location: 'https://a/' },
      error: 'tls required, sending 301',
      rejected: [],
      dumpErrors: ['configs[1]: missing "@type"'],
    });
    expect(v.outcome).toBe('redirect 301 → https://a/');
    expect(v.notes).toEqual(['config dump: configs[1]: missing "@type"']);
  });

  it('RBAC: an authorization hop after the filter chain; a denial stops there naming the policy', () => {
    const denied = traceView({
      listener: 'virtualInbound',
      filterChain: '0.0.0.0_9080',
      authorization: { decision: 'deny', policy: 'default/reviews-viewer', reason: 'no ALLOW policy matches' },
      rejected: [{ hop: 'authorization', name: 'ns[default]-policy[reviews-viewer]-rule[0]', reason: 'principal does not match' }],
      error: 'RBAC: access denied',
    });
    expect(denied.hops.map((h) => h.hop)).toEqual(['listener', 'filterChain', 'authorization']);
    expect(denied.hops[2]?.value).toBe('deny — default/reviews-viewer (no ALLOW policy matches)');
    expect(denied.hops[2]?.rejected).toHaveLength(1);
    const allowed = traceView({ ...base, authorization: { decision: 'allow', policy: 'default/reviews-viewer', rule: 0 }, rejected: [] });
    expect(allowed.hops.map((h) => h.hop).slice(0, 3)).toEqual(['listener', 'filterChain', 'authorization']);
    expect(allowed.hops[2]?.value).toBe('allow — default/reviews-viewer rule 0');
  });
});

// The transport hop, as Istio's simulator judges TLS (pilot/pkg/simulation/traffic.go: ErrTLSError, ErrMTLSError,
// and no chain for plaintext on a STRICT port, where only `transport_protocol: tls` chains exist).
describe('traceView transport (mTLS) hop', () => {
  const chain = { listener: 'virtualInbound', filterChain: '0.0.0.0_9080', rejected: [] };
  it('an mTLS request the chain accepts: a Transport hop before the RBAC one', () => {
    const v = traceView({ ...chain, authorization: { decision: 'allow', policy: 'default/reviews-viewer', rule: 0 } }, 'mtls');
    expect(v.hops.map((h) => h.hop).slice(0, 4)).toEqual(['listener', 'filterChain', 'transport', 'authorization']);
    expect(v.hops[2]?.value).toMatch(/^mTLS .*accepted by the chain$/);
    expect(v.hops[2]?.stopped).toBeUndefined();
  });
  it('invalid mTLS: plain TLS to an mTLS chain stops at the Transport hop', () => {
    const v = traceView({ ...chain, error: 'invalid mTLS' }, 'tls');
    expect(v.hops.map((h) => h.hop)).toEqual(['listener', 'filterChain', 'transport']);
    expect(v.hops[2]).toMatchObject({
      stopped: true,
      value: expect.stringMatching(/^invalid mTLS — TLS sent; the chain requires Istio mTLS/),
    });
    expect(v.error).toBe('invalid mTLS');
  });
  it('plaintext on a STRICT port: no chain, the Transport hop says why with the simulator note', () => {
    const note =
      'port 9080 accepts only TLS from Istio mTLS clients (PeerAuthentication mode STRICT): its filter chains all match transport_protocol "tls"';
    const v = traceView({ listener: 'virtualInbound', rejected: [], notes: [note], error: 'no filter chains matched' }, 'plaintext');
    expect(v.hops.map((h) => h.hop)).toEqual(['listener', 'filterChain', 'transport']);
    expect(v.hops[2]).toMatchObject({
      stopped: true,
      value: 'rejected — plaintext sent to a port that accepts only mTLS (STRICT)',
      detail: [note],
    });
  });
  it('a plaintext request a chain accepts adds no hop', () => {
    expect(traceView(chain, 'plaintext').hops.map((h) => h.hop)).toEqual(['listener', 'filterChain']);
  });
});
