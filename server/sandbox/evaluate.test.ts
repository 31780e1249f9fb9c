// The sandbox engine on Istio's Bookinfo sample (../shared/fixtures, as shipped). Expectations follow
// Istio's rules, not this code's output:
// - a sidecar without a Sidecar resource imports every namespace's services and VirtualServices
//   (sidecar.go DefaultSidecarScopeForNamespace), so every Bookinfo sidecar's outbound route config `9080`
//   has the vhost `reviews.default.svc.cluster.local:9080` built from the reviews VirtualService
//   (httproute.go BuildSidecarOutboundVirtualHosts); VirtualServices without `gateways` bind to `mesh`
//   only, so the ingress gateway is not affected (virtualservice.go: UseGatewaySemantics / mesh default);
// - routes keep the VirtualService's http order (TranslateRoutes), weights are the destinations' weights.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCache } from '../pipeline/cache';
import { proxyResources, type ProxyResources, resourcesDigest } from '../pipeline/proxyResources';
import { Store } from '../sources/store';
import { evaluate } from './evaluate';
import { bookinfoBase, readBookinfo, reviewsSplit } from './testing';

const JASON = readBookinfo('networking/virtual-service-reviews-jason-v2-v3.yaml');
const SIDECARS = [
  'details-v1-54021b6735-phc6p.default',
  'productpage-v1-f7ee9888b3-t6hg7.default',
  'ratings-v1-e463cf73b6-zh2xt.default',
  'reviews-v1-fb7f36f63f-wvxwg.default',
  'reviews-v2-d39c5800b8-ghfsn.default',
  'reviews-v3-decd40b28b-96gf5.default',
];
const REVIEWS_VH = 'reviews.default.svc.cluster.local:9080';
const cluster = (subset: string) => `outbound|9080|${subset}|reviews.default.svc.cluster.local`;
const GATEWAY = fileURLToPath(new URL('../../e2e/fixtures/ingressgateway.yaml', import.meta.url));

describe('evaluate: blast radius and semantic diff', () => {
  it('jason-v2-v3 over all-v1: every sidecar gains the jason route and its catch-all moves v1 → v3', () => {
    const { result } = evaluate(bookinfoBase(), JASON);
    expect(result.errors).toEqual([]);
    expect(result.edits).toEqual([{ op: 'replace', object: 'VirtualService default/reviews', line: 1 }]);
    expect(result.blastRadius.map((e) => e.proxy)).toEqual(SIDECARS);
    for (const e of result.blastRadius) expect(e.types).toEqual(['routes']);
    const pp = result.diffs.find((d) => d.proxy.startsWith('productpage'));
    const routes = pp?.routes.map((r) => ({ change: r.change, vh: r.virtualHost, to: r.to, weights: r.weights, source: r.source }));
    // Provenance is translation's record: the jason route is the draft's http[0], the catch-all its http[1].
    const source = (rule: string) => ({ kind: 'VirtualService', namespace: 'default', name: 'reviews', rule });
    expect(routes).toEqual([
      { change: 'added', vh: REVIEWS_VH, to: 0, weights: { after: { [cluster('v2')]: 100 } }, source: source('http[0]') },
      {
        change: 'changed',
        vh: REVIEWS_VH,
        to: 1,
        weights: { before: { [cluster('v1')]: 100 }, after: { [cluster('v3')]: 100 } },
        source: source('http[1]'),
      },
    ]);
    // Raw Envoy JSON of the changed route config, both sides.
    const rc = pp?.resources.find((r) => r.type === 'routes');
    expect(rc).toMatchObject({ name: '9080', change: 'changed' });
    expect(JSON.stringify(rc?.before)).toContain(cluster('v1'));
    expect(JSON.stringify(rc?.after)).toContain(cluster('v3'));
    // …as /debug/config_dump prints it (Envoy's snake_case field names).
    expect(Object.keys(rc?.after as object)).toContain('virtual_hosts');
  });

  it('with an ingress gateway in the mesh, the gateway is a candidate but not in the blast radius', () => {
    const base = bookinfoBase([GATEWAY, 'networking/bookinfo-gateway.yaml']);
    const { result } = evaluate(base, JASON);
    const gw = base.snapshot.proxies.find((p) => p.type === 'router');
    expect(gw).toBeDefined();
    expect(result.blastRadius.map((e) => e.proxy)).toEqual(SIDECARS);
    expect(result.stats.candidates).toBe(base.snapshot.proxies.length);
  });

  it('a weight change is reported old → new', () => {
    const { result } = evaluate(bookinfoBase(), reviewsSplit({ v1: 50, v2: 50 }));
    const d = result.diffs.find((x) => x.proxy.startsWith('productpage'));
    expect(d?.routes).toHaveLength(1);
    expect(d?.routes[0]).toMatchObject({
      change: 'changed',
      weights: { before: { [cluster('v1')]: 100 }, after: { [cluster('v1')]: 50, [cluster('v2')]: 50 } },
    });
    expect(d?.routes[0]?.detail).toContain('weights v1 100 → v1 50/v2 50');
  });

  it('over the translation limit: the rest are listed as unverified, and a proxy asked for by name still gets its diff', () => {
    const pp = SIDECARS[1]!;
    const { result } = evaluate(bookinfoBase(), reviewsSplit({ v1: 50, v2: 50 }), { maxTranslate: 0, proxies: [pp] });
    expect(result.blastRadius.map((e) => [e.proxy, e.unverified])).toEqual(SIDECARS.map((id) => [id, true]));
    expect(result.diffs.map((d) => d.proxy)).toEqual([pp]);
    expect(result.diffs[0]?.routes[0]?.weights?.after).toEqual({ [cluster('v1')]: 50, [cluster('v2')]: 50 });
  });

  it('an unchanged draft changes nothing and translates nothing', () => {
    const { result } = evaluate(bookinfoBase(), readBookinfo('networking/virtual-service-all-v1.yaml'));
    expect(result.blastRadius).toEqual([]);
    expect(result.stats.translated).toBe(0);
  });

  it('deleting the reviews VirtualService (annotation) falls back to the default route over all endpoints', () => {
    const draft =
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: reviews\n  annotations:\n    sandbox.meshscope.io/delete: "true"\n';
    const { result } = evaluate(bookinfoBase(), draft);
    expect(result.errors).toEqual([]);
    expect(result.edits).toEqual([{ op: 'delete', object: 'VirtualService default/reviews', line: 1 }]);
    const d = result.diffs.find((x) => x.proxy.startsWith('productpage'));
    // Without a VirtualService, Istio's vhost has its default route (route name `default`, BuildDefaultHTTPRoute)
    // to the service's cluster without subset; the VirtualService's route is gone.
    expect(d?.routes.map((r) => [r.change, r.route, r.weights])).toEqual([
      ['removed', 'prefix /', { before: { [cluster('v1')]: 100 } }],
      ['added', 'default', { after: { 'outbound|9080||reviews.default.svc.cluster.local': 100 } }],
    ]);
  });
});

describe('evaluate: request checks', () => {
  it('productpage → GET reviews:9080/reviews/1 is 100% v1 live and 50/50 on a 50/50 draft', () => {
    const request = { mode: 'outbound' as const, port: 9080, host: 'reviews:9080', path: '/reviews/1' };
    const { result } = evaluate(bookinfoBase(), reviewsSplit({ v1: 50, v2: 50 }), { requests: [{ proxy: 'productpage-v1', request }] });
    expect(result.checks[0]?.live.distribution).toEqual({ [cluster('v1')]: 100 });
    expect(result.checks[0]?.draft.distribution).toEqual({ [cluster('v1')]: 50, [cluster('v2')]: 50 });
    expect(result.checks[0]?.changed).toBe(true);
  });
});

describe('evaluate: located errors', () => {
  it('bad YAML is located and the valid documents still count', () => {
    const draft = `${reviewsSplit({ v1: 50, v2: 50 })}---\nkind: [unclosed\n`;
    const { result } = evaluate(bookinfoBase(), draft);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors[0]).toMatchObject({ level: 'error', doc: 1 });
    expect(result.errors[0]?.line).toBeGreaterThanOrEqual(19);
    expect(result.blastRadius).toHaveLength(SIDECARS.length);
  });

  // Issue 14.5: unknown fields are warnings and are dropped, the object still applies (kube-apiserver's default
  // fieldValidation=Warn, KEP-2885) — so the draft changes exactly what the same draft without the field does.
  it('an unknown field is a located warning (line, field path); the object applies without it', () => {
    const draft = reviewsSplit({ v1: 50, v2: 50 }).replace('      weight: 50\n', '      weight: 50\n      wieght: 3\n');
    const { result } = evaluate(bookinfoBase(), draft);
    const e = result.errors.find((x) => x.path?.includes('wieght') || x.message.includes('wieght'));
    expect(e).toBeDefined();
    expect(e?.object).toBe('VirtualService default/reviews');
    const lines = draft.split('\n');
    expect(lines[(e?.line ?? 0) - 1]).toContain('wieght');
    expect(e?.level).toBe('warning');
    const without = evaluate(bookinfoBase(), reviewsSplit({ v1: 50, v2: 50 })).result.blastRadius;
    expect(without.length).toBeGreaterThan(0);
    expect(result.blastRadius).toEqual(without);
  });

  it('a wrong type is located at the value', () => {
    const draft = reviewsSplit({ v1: 50, v2: 50 }).replace('weight: 50', 'weight: fifty');
    const { result } = evaluate(bookinfoBase(), draft);
    const e = result.errors.find((x) => x.path === 'spec.http[0].route[0].weight');
    expect(e).toMatchObject({ line: 13, column: 15, object: 'VirtualService default/reviews' });
  });

  it('an unknown kind is reported, not applied', () => {
    const { result } = evaluate(bookinfoBase(), 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n');
    expect(result.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('unknown kind Widget'), line: 1 })]);
    expect(result.edits).toEqual([]);
  });

  it('deleting an object that does not exist is an error', () => {
    const draft =
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: nope\n  annotations:\n    sandbox.meshscope.io/delete: "true"\n';
    expect(evaluate(bookinfoBase(), draft).result.errors[0]?.message).toContain('no such object');
  });
});

describe('evaluate: findings', () => {
  it('a catch-all before a header match: the shadowed rule is a new IST0130 at its line in the draft', () => {
    const draft = [
      'apiVersion: networking.istio.io/v1',
      'kind: VirtualService',
      'metadata:',
      '  name: reviews',
      'spec:',
      '  hosts: [reviews]',
      '  http:',
      '  - route:',
      '    - destination: {host: reviews, subset: v1}',
      '  - match:',
      '    - headers: {end-user: {exact: jason}}',
      '    route:',
      '    - destination: {host: reviews, subset: v2}',
      '',
    ].join('\n');
    const { result } = evaluate(bookinfoBase(), draft);
    // validation.go analyzeUnreachableHTTPRules: a rule after a rule without matches is unreachable.
    const f = result.findings.find((x) => x.code === 'IST0130');
    expect(f).toMatchObject({ state: 'new', object: 'VirtualService default/reviews', line: 10 });
    expect(result.findings.filter((x) => x.code === 'IST0173').every((x) => x.state === 'unchanged')).toBe(true);
  });
});

describe('evaluate: isolation', () => {
  it('never changes the store, its snapshot, the live cache contents or another draft', () => {
    const files = bookinfoBase();
    const store = new Store({ debounceMs: 1 });
    store.replace('file', files.inputs);
    store.flush();
    let notified = 0;
    store.onChange(() => notified++);
    const snap = store.snapshot();
    const cache = createCache<ProxyResources>(64);
    const id = SIDECARS[1]!;
    const liveDigest = resourcesDigest(proxyResources(snap, id, undefined, cache)!);
    const inputsBefore = JSON.stringify(store.inputs());

    const a = evaluate({ snapshot: snap, inputs: store.inputs(), cache }, reviewsSplit({ v1: 50, v2: 50 }));
    const b = evaluate({ snapshot: snap, inputs: store.inputs(), cache }, JASON);
    expect(store.snapshot()).toBe(snap);
    expect(JSON.stringify(store.inputs())).toBe(inputsBefore);
    expect(notified).toBe(0);
    expect(resourcesDigest(proxyResources(snap, id, undefined, cache)!)).toBe(liveDigest);
    expect(resourcesDigest(proxyResources(store.snapshot(), id)!)).toBe(liveDigest);
    // Each draft saw only its own edits.
    expect(a.result.diffs[0]?.routes.map((r) => r.change)).toEqual(['changed']);
    expect(b.result.diffs[0]?.routes.map((r) => r.change)).toEqual(['added', 'changed']);
    store.close();
  });

  it('live-side translations kept across evaluations change no answer (only the live side is kept)', () => {
    const base = bookinfoBase();
    const parts = createCache<never>(64) as unknown as NonNullable<Parameters<typeof evaluate>[0]['parts']>;
    const drafts = [JASON, reviewsSplit({ v1: 50, v2: 50 }), JASON, reviewsSplit({ v2: 100 })];
    for (const d of drafts) expect(evaluate({ ...base, parts }, d).result).toEqual(evaluate(base, d).result);
    expect(parts.size).toBeGreaterThan(0);
  });

  it('the base inputs are not mutated (frozen inputs still evaluate)', () => {
    const base = bookinfoBase();
    const frozen = Object.freeze(base.inputs.map((i) => Object.freeze({ ...i })));
    expect(() => evaluate({ ...base, inputs: frozen }, JASON)).not.toThrow();
  });
});
