// The route graph on real Envoy config dumps (../shared/fixtures/envoy-config-dumps), read as uploaded dumps are.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { configDumpFixture } from '@/server/testing/paths';
import { buildRouteGraph, nodeIds } from './build';
import { filterGraph } from './filter';

const graphOf = (file: string) => buildRouteGraph(readConfigDump(JSON.parse(readFileSync(configDumpFixture(file), 'utf8'))).config);

describe('route graph of real config dumps', () => {
  it('gateway-routes: RDS http.8080 → httpbin.example.com:80 → /get → the httpbin cluster, from VirtualService default/httpbin', () => {
    const g = graphOf('gateway-routes-config_dump.json');
    const rc = nodeIds.routeConfig('http.8080');
    const vh = nodeIds.virtualHost(rc, 0);
    const route = nodeIds.route(vh, 0);
    expect(g.nodes.find((n) => n.id === vh)?.label).toBe('httpbin.example.com:80');
    const r = g.nodes.find((n) => n.id === route);
    expect(r?.label).toBe('#0 prefix /get');
    expect(r?.source).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'httpbin' });
    const cluster = 'outbound|8000||httpbin.default.svc.cluster.local';
    expect(g.edges.find((e) => e.source === route)?.target).toBe(nodeIds.cluster(cluster));
    // The dump holds routes only: the cluster is referenced but absent.
    expect(g.nodes.find((n) => n.id === nodeIds.cluster(cluster))?.missing).toBe(true);
    // Two unnamed static route configs (the bootstrap's prometheus and readiness routes) are roots of their own.
    expect(g.nodes.filter((n) => n.kind === 'routeConfig').map((n) => n.label)).toEqual(['(unnamed #0)', '(unnamed #1)', 'http.8080']);
    expect(filterGraph(g, { port: 8080 }).nodes.map((n) => n.kind)).toEqual(['routeConfig', 'virtualHost', 'route', 'cluster']);
  });

  it('sidecar (ambient) dump: an inline route_config in main_internal is drawn under its listener', () => {
    const g = graphOf('sidecar-config_dump.json');
    const listener = nodeIds.listener('main_internal');
    const inline = g.edges.find((e) => e.source === listener && e.kind === 'inline');
    expect(inline?.label).toBe('inbound-vip|9080||details.default.svc.cluster.local-http');
    expect(g.nodes.find((n) => n.id === inline?.target)?.label).toBe('inbound-vip|9080|http|details.default.svc.cluster.local');
    expect(g.edges.find((e) => e.source === nodeIds.listener('connect_originate'))?.kind).toBe('tcp');
  });

  it('waypoint dump builds without losing a listener', () => {
    const g = graphOf('waypoint-config_dump.json');
    expect(g.nodes.filter((n) => n.kind === 'listener').length).toBeGreaterThanOrEqual(2);
  });
});
