// Issue #23 §2: every loopback demo pod serves its sidecar's metrics on IP:15020/stats/prometheus, as an
// Istio sidecar's merged metrics port does. Real pod servers, real grpc-js-xds clients on meshscope's own
// ADS; the exposition is read over HTTP and checked by the real `promtool check metrics`.
// The labels are Istio's (istio.io "Istio Standard Metrics"; Kiali's graph groups by them).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoScrapeTargets } from '../api/demoTraffic';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { eventually, promtoolCheckMetrics } from '../testing/prometheus';
import { waitFor } from '../xds/testing/echo';
import { copyDemoMesh } from './testing/demoCopy';

const BASE = 214;
const ip = (x: number) => `127.0.${BASE}.${x}`;
let dir: string;
let rt: MeshscopeRuntime;

const scrape = async (addr: string): Promise<string> => {
  const r = await fetch(`http://${addr}:15020/stats/prometheus`, { signal: AbortSignal.timeout(5000) });
  expect(r.status).toBe(200);
  return r.text();
};

/** Each `istio_requests_total{…} N` line as its labels and value. */
function requestSeries(text: string): { labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('istio_requests_total{'))
    .map((l) => {
      const m = /^istio_requests_total\{(.*)\} (\S+)$/.exec(l)!;
      const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
      return { labels, value: Number(m[2]) };
    });
}

beforeAll(async () => {
  dir = copyDemoMesh(BASE);
  rt = createRuntimeForTest(
    { config: [dir], xdsPort: 0, demoTraffic: true },
    { log: () => undefined, debounceMs: 10, maxDebounceMs: 200, demo: { rate: 20, testerPercent: 10 } },
  );
  await rt.ready;
  await waitFor(() => rt.xds().state === 'listening', 'ADS listening');
}, 30_000);

afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('demo sidecar metrics on IP:15020/stats/prometheus', () => {
  it('the source sidecar (storefront) reports each call with Istio labels; counters only grow', async () => {
    await eventually(async () => requestSeries(await scrape(ip(10))).some((s) => s.labels.reporter === 'source'), 'a source report');
    const first = requestSeries(await scrape(ip(10))).filter((s) => s.labels.reporter === 'source');
    const toV1 = first.find((s) => s.labels.destination_workload === 'products-v1');
    expect(toV1?.labels).toEqual({
      reporter: 'source',
      source_workload: 'storefront-v1',
      source_canonical_service: 'storefront',
      source_canonical_revision: 'v1',
      source_workload_namespace: 'shop',
      source_principal: 'unknown',
      source_app: 'storefront',
      source_version: 'v1',
      source_cluster: 'Kubernetes',
      destination_workload: 'products-v1',
      destination_workload_namespace: 'catalog',
      destination_principal: 'spiffe://cluster.local/ns/catalog/sa/products',
      destination_app: 'products',
      destination_version: 'v1',
      destination_service: 'products.catalog.svc.cluster.local',
      destination_canonical_service: 'products',
      destination_canonical_revision: 'v1',
      destination_service_name: 'products',
      destination_service_namespace: 'catalog',
      destination_cluster: 'Kubernetes',
      request_protocol: 'grpc',
      response_code: '200',
      grpc_response_status: '0',
      response_flags: '-',
      connection_security_policy: 'unknown',
    });
    await new Promise((r) => setTimeout(r, 1200));
    const later = requestSeries(await scrape(ip(10))).find((s) => JSON.stringify(s.labels) === JSON.stringify(toV1!.labels));
    expect(later!.value).toBeGreaterThan(toV1!.value);
  });

  it('the destination sidecar (products v1) reports the caller as metadata exchange tells it', async () => {
    await eventually(async () => requestSeries(await scrape(ip(30))).length > 0, 'a destination report');
    const s = requestSeries(await scrape(ip(30)));
    expect(new Set(s.map((x) => x.labels.reporter))).toEqual(new Set(['destination']));
    expect(s[0]!.labels).toMatchObject({
      source_workload: 'storefront-v1',
      source_workload_namespace: 'shop',
      source_principal: 'spiffe://cluster.local/ns/shop/sa/storefront',
      destination_workload: 'products-v1',
      destination_service: 'products.catalog.svc.cluster.local',
      connection_security_policy: 'mutual_tls',
    });
    // A pod nobody calls (cart) serves an exposition without request series.
    expect(requestSeries(await scrape(ip(20)))).toEqual([]);
  });

  it("the exposition passes promtool check metrics except the one lint on Istio's histogram name", async () => {
    await eventually(async () => (await scrape(ip(10))).includes('istio_request_duration_milliseconds_bucket'), 'a histogram');
    const r = promtoolCheckMetrics(await scrape(ip(10)));
    const lints = r.lines.filter(
      (l) => !/^istio_request_duration_milliseconds\b.*use base unit "seconds" instead of "milliseconds"/.test(l),
    );
    expect(lints).toEqual([]);
    expect(r.lines.some((l) => l.includes('istio_request_duration_milliseconds'))).toBe(true);
  });

  it('only GET /stats/prometheus is served', async () => {
    expect((await fetch(`http://${ip(10)}:15020/metrics`)).status).toBe(404);
  });

  it('GET /api/demo/scrape-targets answers http_sd JSON with namespace and pod labels', () => {
    const r = demoScrapeTargets(rt.demoTraffic());
    expect(r.status).toBe(200);
    const groups = r.body as { targets: string[]; labels: { namespace: string; pod: string } }[];
    expect(groups.map((g) => g.targets[0]).sort()).toEqual([10, 11, 20, 30, 31, 32, 40, 41].map((x) => `${ip(x)}:15020`).sort());
    expect(groups.find((g) => g.targets[0] === `${ip(30)}:15020`)?.labels).toMatchObject({ namespace: 'catalog' });
    expect(groups.find((g) => g.targets[0] === `${ip(30)}:15020`)?.labels.pod).toMatch(/^products-v1-/);
    expect(demoScrapeTargets(undefined).body).toEqual([]);
  });
});
