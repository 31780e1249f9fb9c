// The demo data plane's plan on the embedded demo mesh (examples/demo), read through the file loader.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { demoMeshDir } from '../runtime';
import { loadPaths } from '../sources/file/loadPaths';
import { planDemo, subsetOfPod } from './plan';

const snap = () => buildSnapshot(loadPaths([demoMeshDir()]).inputs, { version: 1 });

describe('planDemo on the embedded demo mesh', () => {
  it('has a backend per loopback pod (not the gateway) and a client per storefront replica and target', () => {
    const plan = planDemo(snap(), DEFAULT_OPTIONS);
    expect(plan.backends.map((b) => `${b.ip} ${b.app}/${b.version} ${b.ports.join(',')}`).sort()).toEqual([
      '127.0.1.10 storefront/v1 8080',
      '127.0.1.11 storefront/v1 8080',
      '127.0.1.20 cart/v1 7070,7071',
      '127.0.1.30 products/v1 9080',
      '127.0.1.31 products/v2 9080',
      '127.0.1.32 products/v3 9080',
      '127.0.1.40 ratings/v1 9080',
      '127.0.1.41 ratings/v2 9080',
    ]);
    expect(plan.clients.map((c) => `${c.nodeId.split('~')[1]} → ${c.host}:${c.port}`).sort()).toEqual([
      '127.0.1.10 → products.catalog.svc.cluster.local:9080',
      '127.0.1.10 → ratings.catalog.svc.cluster.local:9080',
      '127.0.1.11 → products.catalog.svc.cluster.local:9080',
      '127.0.1.11 → ratings.catalog.svc.cluster.local:9080',
    ]);
    // istiod's sidecar node id: TYPE~IP~POD.NS~NS.svc.DOMAIN (pilot/pkg/model/context.go ParseServiceNodeWithMetadata).
    expect(plan.clients[0]?.nodeId).toMatch(
      /^sidecar~127\.0\.1\.1[01]~storefront-v1-[a-z0-9]+-[a-z0-9]{5}\.shop~shop\.svc\.cluster\.local$/,
    );
    expect(plan.problems).toEqual([]);
  });

  it('reads the configured split: products 80/20 on the catch-all; ratings v1, testers (x-user: tester) v2', () => {
    const plan = planDemo(snap(), DEFAULT_OPTIONS);
    const products = plan.services.find((s) => s.host === 'products.catalog.svc.cluster.local')!;
    expect(products.destinations).toEqual([
      { cluster: 'outbound|9080|v1|products.catalog.svc.cluster.local', subset: 'v1', percent: 80 },
      { cluster: 'outbound|9080|v2|products.catalog.svc.cluster.local', subset: 'v2', percent: 20 },
    ]);
    expect(products.tester).toBeUndefined();
    const ratings = plan.services.find((s) => s.host === 'ratings.catalog.svc.cluster.local')!;
    expect(ratings.destinations.map((d) => [d.subset, d.percent])).toEqual([['v1', 100]]);
    expect(ratings.tester?.map((d) => [d.subset, d.percent])).toEqual([['v2', 100]]);
    expect(subsetOfPod(products, { app: 'products', version: 'v2' })).toBe('v2');
    expect(subsetOfPod(products, { app: 'products' })).toBe('');
  });

  it('reports a calls annotation entry that is not host:port', () => {
    const s = snap();
    const pod = s.pods.find((p) => p.labels.app === 'storefront')!;
    const broken = {
      ...s,
      pods: s.pods.map((p) => (p === pod ? { ...p, annotations: { ...p.annotations, 'demo.meshscope.io/calls': 'products' } } : p)),
    };
    expect(planDemo(broken, DEFAULT_OPTIONS).problems).toEqual([
      `pod shop/${pod.name}: annotation demo.meshscope.io/calls: "products" is not host:port`,
    ]);
  });
});
