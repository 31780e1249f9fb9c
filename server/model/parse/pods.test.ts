// Workload expansion, pod IPs and Istio proxy detection.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPaths } from '../../sources/file/loadPaths';
import { buildSnapshot } from '../snapshot';

const TD = join(import.meta.dirname, '..', 'testdata');
const snapOf = (file: string, reverse = false) => {
  const r = loadPaths([join(TD, file)]);
  const inputs = reverse ? [...r.inputs].reverse() : r.inputs;
  return buildSnapshot(inputs, { version: 1, extraErrors: r.errors });
};

describe('workload expansion', () => {
  it('Deployment → replicas pods named <deploy>-<10 hex>-<5 safe chars> with template labels and serviceAccountName', () => {
    const snap = snapOf('workloads.yaml');
    expect(snap.errors).toEqual([]);
    const web = snap.pods.filter((p) => p.owner?.kind === 'Deployment');
    expect(web).toHaveLength(3);
    const hash = web[0]!.name.split('-')[1];
    for (const p of web) {
      expect(p.name).toMatch(/^web-[0-9a-f]{10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.name.split('-')[1]).toBe(hash); // one ReplicaSet → one pod-template-hash
      expect(p.labels).toMatchObject({ app: 'web', version: 'v1', 'pod-template-hash': hash });
      expect(p.serviceAccount).toBe('web-sa');
      expect(p.ready).toBe(true);
      expect(p.namedPorts).toEqual({ 'http-alt': 8081 });
    }
    expect(new Set(web.map((p) => p.name)).size).toBe(3);
  });

  it('StatefulSet → <name>-0..N-1; ReplicaSet → <name>-<5>; default serviceAccount is "default"', () => {
    const snap = snapOf('workloads.yaml');
    expect(snap.pods.filter((p) => p.owner?.kind === 'StatefulSet').map((p) => p.name)).toEqual(['db-0', 'db-1']);
    const rs = snap.pods.filter((p) => p.owner?.kind === 'ReplicaSet');
    expect(rs).toHaveLength(1); // replicas defaults to 1
    expect(rs[0]!.name).toMatch(/^worker-abc12-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(rs[0]!.serviceAccount).toBe('default');
  });

  it('same input → same names and IPs, regardless of input order; IPs are unique and avoid explicit pod IPs', () => {
    const a = snapOf('workloads.yaml');
    const b = snapOf('workloads.yaml');
    const c = snapOf('workloads.yaml', true);
    const ids = (s: typeof a) => s.pods.map((p) => `${p.namespace}/${p.name}=${p.ip}`);
    expect(ids(b)).toEqual(ids(a));
    expect(ids(c)).toEqual(ids(a));
    const ips = a.pods.map((p) => p.ip);
    expect(new Set(ips).size).toBe(ips.length);
    expect(a.pods.find((p) => p.name === 'web-manual')?.ip).toBe('10.1.2.3');
    for (const p of a.pods.filter((x) => x.owner)) expect(p.ip).toMatch(/^10\.244\.\d+\.\d+$/);
  });

  it('explicit Pod: status.podIP and Ready condition are taken as they are; locality from its node labels', () => {
    const pod = snapOf('workloads.yaml').pods.find((p) => p.name === 'web-manual');
    expect(pod).toMatchObject({ ip: '10.1.2.3', ready: false, nodeName: 'node-a' });
    expect(pod?.locality).toEqual({ region: 'eu-west1', zone: 'eu-west1-b', subzone: '' });
  });
});

describe('endpoints (kube conversion + EndpointSlices)', () => {
  it('selector endpoints resolve named targetPorts per pod; unready pods are kept as unhealthy', () => {
    const snap = snapOf('workloads.yaml');
    const eps = snap.endpoints.get('shop/web.shop.svc.cluster.local')?.get(80) ?? [];
    expect(eps).toHaveLength(4);
    const manual = eps.find((e) => e.podName === 'web-manual');
    expect(manual).toMatchObject({ address: '10.1.2.3', port: 9000, healthy: false, labels: { version: 'v2' } });
    expect(eps.filter((e) => e.podName !== 'web-manual').every((e) => e.port === 8081 && e.healthy)).toBe(true);
    // A missing targetPort means the port itself.
    expect((snap.endpoints.get('shop/web.shop.svc.cluster.local')?.get(9090) ?? []).map((e) => e.port)).toEqual([9090, 9090, 9090, 9090]);
  });

  it('a Service with EndpointSlices takes its endpoints from them (port, readiness, pod labels via targetRef)', () => {
    const eps = snapOf('workloads.yaml').endpoints.get('shop/sliced.shop.svc.cluster.local')?.get(8080) ?? [];
    expect(eps.map((e) => [e.address, e.port, e.healthy, e.podName ?? null, e.labels.app ?? null])).toEqual([
      ['10.1.2.3', 8888, true, 'web-manual', 'web'],
      ['10.9.9.9', 8888, false, null, null],
    ]);
    expect(eps[1]?.locality.zone).toBe('z9');
  });

  it('headless → Passthrough 0.0.0.0; ExternalName → Alias; exportTo annotation; protocols (conversion.go:ConvertProtocol)', () => {
    const snap = snapOf('workloads.yaml');
    const svc = (n: string) => snap.services.find((s) => s.name === n)!;
    expect(svc('db')).toMatchObject({ address: '0.0.0.0', resolution: 'Passthrough' });
    expect(svc('db').ports.map((p) => p.protocol)).toEqual(['Unsupported', 'UDP']);
    expect(svc('legacy')).toMatchObject({ resolution: 'Alias', externalName: 'legacy.example.com', exportTo: ['.', 'other'] });
    expect(svc('legacy').ports[0]?.protocol).toBe('TCP'); // well-known port 3306
    expect(svc('web').ports.map((p) => p.protocol)).toEqual(['HTTP', 'HTTP2']); // name "http", appProtocol kubernetes.io/h2c
    expect(svc('sliced').address).toBe('10.96.7.7');
  });
});

describe('injection (proxy identity, DESIGN.md §3)', () => {
  const snap = snapOf('injection.yaml');
  const proxyOf = (prefix: string) => snap.pods.find((p) => p.name.startsWith(prefix))?.proxy;

  it('namespace labelled istio-injection=enabled or istio.io/rev injects; an unlabelled declared namespace does not', () => {
    expect(proxyOf('app-')).toBe('sidecar');
    expect(proxyOf('rev-app-')).toBe('sidecar');
    expect(proxyOf('plain-app-')).toBe('none');
  });
  it('sidecar.istio.io/inject: "false" opts out', () => {
    expect(proxyOf('opted-out-')).toBe('none');
  });
  it('sidecar.istio.io/status annotation marks an already-injected pod', () => {
    expect(proxyOf('manual')).toBe('sidecar');
  });
  it('gateways: istio-proxy running `proxy router` / istio=ingressgateway|egressgateway → router, despite inject=false', () => {
    expect(proxyOf('istio-ingressgateway-')).toBe('router');
    expect(proxyOf('egress-')).toBe('router');
    const gw = snap.proxies.find((p) => p.name.startsWith('istio-ingressgateway-'));
    expect(gw).toMatchObject({ type: 'router', namespace: 'plain', id: `${gw?.name}.plain` });
  });
  it('no Namespace object at all → every pod is injected', () => {
    const snapNoNs = buildSnapshot(
      loadPaths([join(TD, 'injection.yaml')]).inputs.filter((i) => i.object.kind !== 'Namespace'),
      { version: 1 },
    );
    expect(snapNoNs.pods.find((p) => p.name.startsWith('plain-app-'))?.proxy).toBe('sidecar');
    expect(snapNoNs.pods.find((p) => p.name.startsWith('opted-out-'))?.proxy).toBe('none');
    expect([...snapNoNs.namespaces.values()].every((n) => !n.declared)).toBe(true);
  });
  it('kube-system pods are never injected (inject.go:IgnoredNamespaces), even with no Namespace declared', () => {
    const s = buildSnapshot(
      [
        {
          object: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'coredns', namespace: 'kube-system' },
            spec: { containers: [{ name: 'c' }] },
          },
          origin: { source: 'file' },
        },
      ],
      { version: 1 },
    );
    expect(s.pods[0]?.proxy).toBe('none');
    expect(s.proxies).toEqual([]);
  });
});
