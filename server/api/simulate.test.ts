// POST /api/simulate handler on Istio's Bookinfo (loaded for real) and on real Envoy config dumps.
// Expected routing follows Istio's VirtualService translation (pilot/pkg/networking/core/route/route.go
// BuildHTTPRoutesForVirtualService: one Envoy route per http rule, in order) and Envoy's first-match rule
// (source/common/router/config_impl.cc VirtualHostImpl::getRouteFromEntries).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { configDumpFor } from '../pipeline/configDump';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo, configDumpFixture } from '../testing/paths';
import { simulateRequest, type SimulateResponse } from './simulate';
import type { ApiContext } from './types';

const r = loadPaths([
  bookinfo('platform', 'bookinfo.yaml'),
  bookinfo('networking', 'destination-rule-all.yaml'),
  bookinfo('networking', 'virtual-service-reviews-jason-v2-v3.yaml'),
]);
const snapshot = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
const ctx: ApiContext = { snapshot, options: DEFAULT_OPTIONS };
const productpage = snapshot.proxies.find((p) => p.labels['app'] === 'productpage')!.id;
const reviews = (headers?: Record<string, string>) => ({
  mode: 'outbound' as const,
  port: 9080,
  host: 'reviews:9080',
  path: '/reviews/1',
  ...(headers ? { headers } : {}),
});

describe('simulateRequest {proxyId, request}', () => {
  it('virtual-service-reviews-jason-v2-v3: end-user: jason goes to subset v2 (http[0] header match)', () => {
    const res = simulateRequest(ctx, { proxyId: productpage, request: reviews({ 'end-user': 'jason' }) });
    expect(res.status).toBe(200);
    const body = res.body as SimulateResponse;
    expect(body.error).toBeUndefined();
    expect(body.listener).toBe('0.0.0.0_9080');
    expect(body.routeConfig).toBe('9080'); // sidecar outbound route configs are named by port
    expect(body.virtualHost).toBe('reviews.default.svc.cluster.local:9080');
    expect(body.cluster).toBe('outbound|9080|v2|reviews.default.svc.cluster.local');
    expect(body.source).toMatchObject({ kind: 'VirtualService', namespace: 'default', name: 'reviews' });
  });

  it('without the header: subset v3 (http[1]), the header route listed as rejected (header absent)', () => {
    const body = simulateRequest(ctx, { proxyId: productpage, request: reviews() }).body as SimulateResponse;
    expect(body.cluster).toBe('outbound|9080|v3|reviews.default.svc.cluster.local');
    expect(body.routeIndex).toBe(1);
    const routeRejections = body.rejected.filter((x) => x.hop === 'route');
    expect(routeRejections).toEqual([expect.objectContaining({ index: 0, reason: expect.stringContaining('end-user') })]);
    expect(routeRejections[0]!.reason).toMatch(/absent/);
  });

  it('unknown proxy is 404; malformed requests are 400 with the field named', () => {
    expect(simulateRequest(ctx, { proxyId: 'nope.default', request: reviews() }).status).toBe(404);
    const bad = simulateRequest(ctx, { proxyId: productpage, request: { mode: 'sideways', port: 9080 } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toContain('request.mode');
    expect(simulateRequest(ctx, { proxyId: productpage, request: { mode: 'outbound', port: 70000 } }).status).toBe(400);
    expect(simulateRequest(ctx, { proxyId: productpage, request: { mode: 'outbound', port: 80, path: 'nope' } }).status).toBe(400);
    expect(simulateRequest(ctx, 'hello').status).toBe(400);
    expect(simulateRequest(ctx, { request: reviews() }).status).toBe(400);
  });
});

describe('simulateRequest {dump, request}', () => {
  const gatewayDump = JSON.parse(readFileSync(configDumpFixture('gateway-routes-config_dump.json'), 'utf8')) as unknown;

  it('a routes-only gateway dump has no listeners: Istio simulator wording "no listener matched", still 200', () => {
    const res = simulateRequest(ctx, {
      dump: gatewayDump,
      request: { mode: 'gateway', port: 8080, host: 'httpbin.example.com', path: '/get' },
    });
    expect(res.status).toBe(200);
    expect((res.body as SimulateResponse).error).toBe('no listener matched');
  });

  it('our own dump posted back routes exactly like the proxyId form, which also names the VirtualService rule', () => {
    const proxy = simulateRequest(ctx, { proxyId: productpage, request: reviews({ 'end-user': 'jason' }) }).body as SimulateResponse;
    const d = configDumpFor(snapshot, productpage)!.dump;
    const fromDump = simulateRequest(ctx, { dump: d, request: reviews({ 'end-user': 'jason' }) }).body as SimulateResponse;
    // Only the mesh inputs know which http rule a route came from (the dump names the VirtualService only).
    expect(proxy.source?.rule).toBe('http[0]');
    expect({ ...proxy, source: { ...proxy.source, rule: undefined } }).toEqual({
      ...fromDump,
      source: { ...fromDump.source, rule: undefined },
    });
  });

  it('a dump with no configs array is 400; a partly bad dump reports its problems beside the result', () => {
    expect(simulateRequest(ctx, { dump: { nope: 1 }, request: reviews() }).status).toBe(400);
    expect(simulateRequest(ctx, { dump: null, request: reviews() }).status).toBe(400);
    const partly = { configs: [...(gatewayDump as { configs: unknown[] }).configs, { nope: true }] };
    const res = simulateRequest(ctx, { dump: partly, request: { mode: 'gateway', port: 8080 } });
    expect(res.status).toBe(200);
    expect((res.body as SimulateResponse).dumpErrors).toEqual(['configs[1]: missing "@type"']);
  });
});
