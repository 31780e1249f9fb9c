// The trace-both model: the request derived from a route reaches that route when simulated (the simulator walks
// Envoy's listener → route configuration → virtual host → first matching route, config_impl.cc), and the two
// answers line up hop by hop with only the differing hops marked. Route configuration names as istiod builds
// them (pilot/pkg/networking/core/httproute.go: outbound "PORT", gateway "http.PORT" / "https.PORT.…",
// inbound "inbound|PORT||").
import { describe, expect, it } from 'vitest';
import { translatedDump, withReviewsWeights } from '@/server/archive/bugReport.testing';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { simulate } from '@/server/simulate/index';
import { requestForRoute, routeConfigPort, traceRows } from './traceBoth';

type Rc = { name: string; virtual_hosts: Array<{ name: string; routes: Array<Record<string, unknown>> }> };
const routeConfig = (dump: Record<string, unknown>, name: string): Rc => {
  const rds = (dump['configs'] as Array<Record<string, unknown>>).find((c) => String(c['@type']).endsWith('RoutesConfigDump')) as {
    dynamic_route_configs: Array<{ route_config: Rc }>;
  };
  return rds.dynamic_route_configs.find((r) => r.route_config.name === name)!.route_config;
};

describe('routeConfigPort', () => {
  it('reads the port from istiod’s route configuration names', () => {
    expect(routeConfigPort('9080')).toBe(9080);
    expect(routeConfigPort('reviews.default.svc.cluster.local:9080')).toBe(9080);
    expect(routeConfigPort('inbound|9080||')).toBe(9080);
    expect(routeConfigPort('outbound|9080||reviews.default.svc.cluster.local')).toBe(9080);
    expect(routeConfigPort('http.8080')).toBe(8080);
    expect(routeConfigPort('https.443.https.bookinfo-gateway.default')).toBe(443);
    expect(routeConfigPort('default', 'details:9080')).toBe(9080);
    expect(routeConfigPort('default')).toBeUndefined();
  });
});

describe('requestForRoute on productpage’s translated sidecar config', () => {
  const dump = translatedDump();
  const rc = routeConfig(dump, '9080');

  it('the reviews route: host from the virtual host’s domains, port from the route configuration; the simulator reaches it', () => {
    const req = requestForRoute(rc, { routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080', index: 0 }, 'outbound');
    expect(req).toEqual({ mode: 'outbound', port: 9080, path: '/', host: 'reviews.default.svc.cluster.local' });
    const r = simulate(readConfigDump(dump).config, req!);
    expect(r).toMatchObject({ routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080', routeIndex: 0 });
  });

  it('header and method matches become the request’s; inverted matchers are left out; regex paths fall back to /', () => {
    const vh = {
      name: 'x:80',
      domains: ['*.example.org', 'api.example.org'],
      routes: [
        {
          name: 'r0',
          match: {
            safe_regex: { regex: '/v[0-9]+/.*' },
            headers: [
              { name: 'end-user', string_match: { exact: 'jason' } },
              { name: ':method', string_match: { exact: 'POST' } },
              { name: 'x-canary', present_match: true },
              { name: 'x-debug', string_match: { exact: '1' }, invert_match: true },
            ],
          },
        },
        { name: 'r1', match: { path: '/exact' } },
      ],
    };
    const rcx = { name: '80', virtual_hosts: [vh] };
    expect(requestForRoute(rcx, { routeConfig: '80', virtualHost: 'x:80', route: 'r0' }, 'outbound')).toEqual({
      mode: 'outbound',
      port: 80,
      path: '/',
      host: 'api.example.org',
      method: 'POST',
      headers: { 'end-user': 'jason', 'x-canary': 'x' },
    });
    expect(requestForRoute(rcx, { routeConfig: '80', virtualHost: 'x:80', route: 'r1' }, 'gateway')).toMatchObject({
      path: '/exact',
      mode: 'gateway',
    });
    // inbound| route configurations are received inbound, whatever the proxy's default mode.
    expect(
      requestForRoute(
        { virtual_hosts: [{ ...vh, name: 'inbound|http|80' }] },
        { routeConfig: 'inbound|80||', virtualHost: 'inbound|http|80' },
        'outbound',
      ),
    ).toMatchObject({
      mode: 'inbound',
      port: 80,
    });
    expect(requestForRoute(rcx, { routeConfig: '80', virtualHost: 'nope' }, 'outbound')).toBeUndefined();
  });
});

describe('traceRows', () => {
  it('two sides that differ only in the reviews weights: one differing row, the rest the same', () => {
    const req = { mode: 'outbound' as const, port: 9080, host: 'reviews:9080', path: '/reviews/1' };
    const mine = simulate(readConfigDump(translatedDump()).config, req);
    const envoys = simulate(readConfigDump(withReviewsWeights(translatedDump(), 50, 50)).config, req);
    const rows = traceRows(mine, envoys);
    expect(rows.filter((r) => r.differs).map((r) => r.field)).toEqual(['weightedClusters']);
    const w = rows.find((r) => r.field === 'weightedClusters')!;
    expect(w.expected).toBe('outbound|9080|v1|reviews.default.svc.cluster.local 80, outbound|9080|v2|reviews.default.svc.cluster.local 20');
    expect(w.actual).toBe('outbound|9080|v1|reviews.default.svc.cluster.local 50, outbound|9080|v2|reviews.default.svc.cluster.local 50');
    expect(rows.map((r) => r.field)).toEqual(expect.arrayContaining(['listener', 'routeConfig', 'virtualHost', 'route', 'error']));
    expect(rows.find((r) => r.field === 'error')).toMatchObject({ expected: 'routed', actual: 'routed', differs: false });
    expect(traceRows(mine, mine).some((r) => r.differs)).toBe(false);
  });
});
