// Issue #23 acceptance, end to end: the demo data plane on a copy of the demo mesh (real pod servers, real
// grpc-js-xds clients on meshscope's ADS) serving its sidecar metrics, a real Prometheus (Debian's binary)
// scraping them every second, and meshscope reading it — asserted through meshscope's API handlers
// (GET /api/traffic, /api/graph?traffic=1, /api/healthz, /api/errors) beside Kiali's own PromQL sent to
// the same Prometheus. Nothing is mocked; changes go through the sandbox apply path.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthz, inputErrors } from '../api/debug';
import { meshGraph } from '../api/graph';
import { type GraphWithTraffic, graphWithTraffic } from '../api/graphTraffic';
import { applySandbox } from '../api/sandboxApply';
import { type TrafficResponse, traffic } from '../api/traffic';
import { loadMesh } from '../cli/load';
import { copyDemoMesh } from '../demo/testing/demoCopy';
import { planDemo } from '../demo/plan';
import { prometheusConfig } from '../demo/scrapeConfig';
import { optionsOf } from '../model/mesh';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { eventually, instantQuery, type RunningPrometheus, startPrometheus } from '../testing/prometheus';
import { waitFor } from '../xds/testing/echo';

const BASE = 215;
const PRODUCTS = 'products.catalog.svc.cluster.local';
const RATINGS = 'ratings.catalog.svc.cluster.local';
let dir: string;
let rt: MeshscopeRuntime;
let prom: RunningPrometheus;

const get = async (params: Record<string, string>) => traffic(rt.context(), rt.prometheus(), new URLSearchParams(params));
const service = async (host: string, window = 10) => {
  const r = await get({ service: host, window: String(window) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as TrafficResponse).services[0]!;
};
const share = (s: Awaited<ReturnType<typeof service>>, subset: string) =>
  s.destinations.find((d) => d.subset === subset)?.observedPercent ?? 0;

/** Kiali's service-node query 1.b (served requests, destination telemetry), per destination workload. */
async function kialiShares(host: string, window: number): Promise<Record<string, number>> {
  const [name, ns] = host.split('.');
  const q = `sum(rate(istio_requests_total{reporter="destination",destination_service_namespace="${ns}",destination_service=~"^${name}\\\\.${ns}\\\\..*$"} [${window}s])) by (destination_workload) > 0`;
  const rows = await instantQuery(prom.url, q);
  const total = rows.reduce((a, r) => a + Number(r.value[1]), 0);
  return Object.fromEntries(rows.map((r) => [r.metric.destination_workload!, (100 * Number(r.value[1])) / total]));
}

const productsVs = (w1: number, w2: number, fault = '') => `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: products, namespace: catalog}
spec:
  hosts: [${PRODUCTS}]
  http:
  - name: shift
${fault}    route:
    - {destination: {host: ${PRODUCTS}, subset: v1}, weight: ${w1}}
    - {destination: {host: ${PRODUCTS}, subset: v2}, weight: ${w2}}
    timeout: 3s
`;

async function apply(draft: string): Promise<void> {
  const ctx = rt.applyContext();
  const r = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft, confirm: true });
  expect(r.status).toBe(200);
}

beforeAll(async () => {
  dir = copyDemoMesh(BASE);
  const loaded = await loadMesh([dir]);
  const cfg = prometheusConfig(planDemo(loaded.snapshot, optionsOf(loaded.snapshot)).exporters);
  prom = await startPrometheus(cfg.slice(cfg.indexOf('scrape_configs:\n') + 'scrape_configs:\n'.length));
  rt = createRuntimeForTest(
    { config: [dir], xdsPort: 0, demoTraffic: true, prometheus: prom.url },
    { log: () => undefined, debounceMs: 10, maxDebounceMs: 200, demo: { rate: 40, testerPercent: 10 } },
  );
  await rt.ready;
  await waitFor(() => rt.xds().state === 'listening', 'ADS listening');
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  await prom?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('observed traffic through a real Prometheus', () => {
  it("scrapes every demo pod (all 8 targets up) and the series carry Kiali's labels", async () => {
    await eventually(async () => {
      const up = await instantQuery(prom.url, 'up{job="meshscope-demo"}');
      return up.length === 8 && up.every((u) => u.value[1] === '1');
    }, 'every target up');
    await eventually(
      async () =>
        (await instantQuery(prom.url, 'istio_requests_total{reporter="destination",destination_workload="products-v1"}')).length > 0,
      'a products-v1 series',
    );
    const [s] = await instantQuery(prom.url, 'istio_requests_total{reporter="destination",destination_workload="products-v1"}');
    expect(s!.metric).toMatchObject({
      namespace: 'catalog',
      source_workload: 'storefront-v1',
      source_workload_namespace: 'shop',
      source_canonical_service: 'storefront',
      destination_service: PRODUCTS,
      destination_service_name: 'products',
      destination_service_namespace: 'catalog',
      destination_canonical_service: 'products',
      destination_canonical_revision: 'v1',
      request_protocol: 'grpc',
      response_code: '200',
      grpc_response_status: '0',
    });
    expect(s!.metric.pod).toMatch(/^products-v1-/);
    expect(rt.statuses().find((x) => x.id === 'prometheus')).toMatchObject({ kind: 'prometheus', state: 'connected' });
  }, 60_000);

  it("GET /api/traffic agrees with Kiali's PromQL: products 80/20 (±5), ratings ≈ 90/10", async () => {
    await eventually(
      async () => (await service(PRODUCTS)).requestsPerSecond > 10 && (await kialiShares(PRODUCTS, 10))['products-v2'] !== undefined,
      'products traffic in Prometheus',
    );
    await new Promise((r) => setTimeout(r, 10_000)); // a full 10 s window of samples
    const p = await service(PRODUCTS);
    const kiali = await kialiShares(PRODUCTS, 10);
    console.log(
      `prometheus: products v1 ${share(p, 'v1')}% v2 ${share(p, 'v2')}% (Kiali's query: ${JSON.stringify(kiali)}); ${p.requestsPerSecond} req/s`,
    );
    expect(Math.abs(share(p, 'v1') - 80)).toBeLessThanOrEqual(5);
    expect(Math.abs(share(p, 'v2') - 20)).toBeLessThanOrEqual(5);
    expect(Math.abs(share(p, 'v1') - kiali['products-v1']!)).toBeLessThanOrEqual(3);
    expect(p.destinations.find((d) => d.subset === 'v1')).toMatchObject({
      workload: 'products-v1',
      version: 'v1',
      configuredPercent: 80,
      cluster: `outbound|9080|v1|${PRODUCTS}`,
    });
    // v3 is a DestinationRule subset no route names: neither configured nor reached, so not listed.
    expect(p.destinations.map((d) => d.subset)).toEqual(['v1', 'v2']);
    expect(p.errorPercent).toBe(0);
    expect(p.sources.map((s) => `${s.workload}.${s.namespace}`)).toEqual(['storefront-v1.shop']);
    const r = await service(RATINGS);
    console.log(`prometheus: ratings v1 ${share(r, 'v1')}% v2 ${share(r, 'v2')}%`);
    expect(Math.abs(share(r, 'v1') - 90)).toBeLessThanOrEqual(5);
    expect(Math.abs(share(r, 'v2') - 10)).toBeLessThanOrEqual(5);
  }, 90_000);

  it('/api/graph?traffic=1 puts observed figures on the route edges, 0 on a configured path without traffic', async () => {
    const r = await graphWithTraffic(
      rt.context(),
      rt.prometheus(),
      new URLSearchParams({ traffic: '1', window: '10' }),
      meshGraph(rt.context()).body as never,
    );
    expect(r.status).toBe(200);
    const g = r.body as GraphWithTraffic;
    expect(g.traffic.source?.state).toBe('connected');
    const toProducts = g.edges.filter((e) => e.kind === 'route' && e.target.endsWith(`/${PRODUCTS}`) && e.source.includes('storefront'));
    const v1 = toProducts.find((e) => e.subset === 'v1')!;
    const v2 = toProducts.find((e) => e.subset === 'v2')!;
    expect(v1.observed!.requestsPerSecond).toBeGreaterThan(0);
    // Kiali's rule: the edge's share of storefront's outgoing requests (products and ratings alike: 40% / 10%).
    expect(Math.abs(v1.observed!.percent - 40)).toBeLessThanOrEqual(5);
    expect(Math.abs(v2.observed!.percent - 10)).toBeLessThanOrEqual(5);
    expect(g.edges.filter((e) => e.unconfigured)).toEqual([]);
  });

  it('after a 0/100 edit, /api/traffic?window=5 shows v2 ≥ 95%', async () => {
    const t0 = Date.now();
    await apply(productsVs(0, 100));
    await eventually(async () => share(await service(PRODUCTS, 5), 'v2') >= 95, 'v2 ≥ 95% over 5 s', 40_000);
    console.log(`prometheus: 0/100 applied → /api/traffic?window=5 v2 ≥ 95% after ${Date.now() - t0} ms`);
    expect((await service(PRODUCTS, 5)).destinations.find((d) => d.subset === 'v2')?.configuredPercent).toBe(100);
    // The v1 route (weight 0) is a configured path with no traffic once the window holds none: observed 0.
    const v1Edge = async () => {
      const g = (
        await graphWithTraffic(rt.context(), rt.prometheus(), new URLSearchParams({ window: '5' }), meshGraph(rt.context()).body as never)
      ).body as GraphWithTraffic;
      return g.edges.find(
        (e) => e.kind === 'route' && e.target.endsWith(`/${PRODUCTS}`) && e.subset === 'v1' && e.source.includes('storefront'),
      );
    };
    await eventually(async () => (await v1Edge())?.observed?.requestsPerSecond === 0, 'no v1 traffic in the last 5 s', 30_000);
    expect((await v1Edge())?.observed).toEqual({ requestsPerSecond: 0, percent: 0, errorPercent: 0 });
  }, 90_000);

  it('a 50% abort shows ≈ 50% errors, flagged FI', async () => {
    await apply(productsVs(0, 100, '    fault: {abort: {httpStatus: 503, percentage: {value: 50}}}\n'));
    await eventually(async () => ((await service(PRODUCTS, 5)).responseCodes['503']?.flags.FI ?? 0) > 30, 'FI-flagged 503s', 40_000);
    await new Promise((r) => setTimeout(r, 6000));
    const p = await service(PRODUCTS, 5);
    console.log(`prometheus: 50% abort → errorPercent ${p.errorPercent}, codes ${JSON.stringify(p.responseCodes)}`);
    expect(Math.abs(p.errorPercent - 50)).toBeLessThanOrEqual(10);
    expect(Object.keys(p.responseCodes['503']!.flags)).toEqual(['FI']);
    expect(Math.abs(p.responseCodes['503']!.flags.FI! - 50)).toBeLessThanOrEqual(10);
    // The aborted calls went through the v2 route: its graph edge shows them as errors.
    const g = (
      await graphWithTraffic(rt.context(), rt.prometheus(), new URLSearchParams({ window: '5' }), meshGraph(rt.context()).body as never)
    ).body as GraphWithTraffic;
    const v2 = g.edges.find(
      (e) => e.kind === 'route' && e.target.endsWith(`/${PRODUCTS}`) && e.subset === 'v2' && e.source.includes('storefront'),
    )!;
    expect(Math.abs(v2.observed!.errorPercent - 50)).toBeLessThanOrEqual(10);
    expect(g.edges.filter((e) => e.unconfigured)).toEqual([]);
  }, 90_000);

  it('Prometheus stopped: 503 naming the URL, healthz 200, the source failing; restarted: it recovers by itself', async () => {
    await prom.stop();
    const r = await get({ service: PRODUCTS, window: '5' });
    expect(r.status).toBe(503);
    expect((r.body as { error: string }).error).toContain(prom.url);
    expect(healthz(rt.context()).status).toBe(200);
    const errs = inputErrors(rt.context()).body;
    expect(errs.sources.find((s) => s.id === 'prometheus')).toMatchObject({ state: 'failing' });
    // The graph still answers, without observed figures.
    const g = (await graphWithTraffic(rt.context(), rt.prometheus(), new URLSearchParams(), meshGraph(rt.context()).body as never))
      .body as GraphWithTraffic;
    expect(g.nodes.length).toBeGreaterThan(0);
    expect(g.traffic.error).toContain(prom.url);
    await prom.restart();
    await eventually(async () => (await get({ service: PRODUCTS, window: '5' })).status === 200, '/api/traffic answers again');
    expect(rt.statuses().find((s) => s.id === 'prometheus')?.state).toBe('connected');
  }, 90_000);

  it('400 on a bad window, host or source; never a query built from them', async () => {
    for (const [k, v] of [
      ['window', '0'],
      ['window', '5s'],
      ['window', '99999'],
      ['service', 'products"} or vector(1) #'],
      ['service', 'nope.catalog.svc.cluster.local'],
      ['source', 'storefront'],
      ['source', 'a"b.shop'],
    ] as const) {
      const r = await get({ service: PRODUCTS, [k]: v });
      expect(r.status, `${k}=${v}`).toBe(400);
    }
  });
});
