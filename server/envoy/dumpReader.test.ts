// readConfigDump over every ConfigDump section shape (envoy/admin/v3/{listeners,routes,clusters,endpoints,
// config_dump_shared,config_dump}.proto) and the four real dumps in ../shared/fixtures/envoy-config-dumps/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigDump } from './dumpReader';
import { buildConfigDump } from './configDump';
import { encodeResource } from './encode';
import { TYPE } from './typeUrls';
import { fixturesDir } from '../testing/paths';

const FIXTURES = join(fixturesDir(), 'envoy-config-dumps');
const load = (f: string): unknown => JSON.parse(readFileSync(`${FIXTURES}/${f}`, 'utf8'));
const names = (xs: { [k: string]: unknown }[], key = 'name') => xs.map((x) => x[key]);
const T = (s: string) => `type.googleapis.com/envoy.admin.v3.${s}`;

describe('readConfigDump on the real dumps (counts read from each file by hand)', () => {
  it('endpoints-config_dump.json: 5 static + 32 dynamic ClusterLoadAssignments', () => {
    const { config, errors } = readConfigDump(load('endpoints-config_dump.json'));
    expect(errors).toEqual([]);
    expect(config.endpoints).toHaveLength(37);
    expect(config.endpoints[0]?.['cluster_name']).toBe('zipkin');
    expect(config.endpoints[0]?.['@type']).toBeUndefined();
    expect(names(config.endpoints, 'cluster_name')).toContain('outbound|9080||reviews.default.svc.cluster.local');
    expect(config.listeners.length + config.routes.length + config.clusters.length).toBe(0);
  });
  it('gateway-routes-config_dump.json: 2 static (unnamed) + 1 dynamic route config', () => {
    const { config, errors } = readConfigDump(load('gateway-routes-config_dump.json'));
    expect(errors).toEqual([]);
    expect(config.routes).toHaveLength(3);
    expect(config.routes[2]?.['name']).toBe('http.8080');
  });
  it('sidecar-config_dump.json: 1 cluster, 3 dynamic listeners, 1 route config', () => {
    const { config, errors } = readConfigDump(load('sidecar-config_dump.json'));
    expect(errors).toEqual([]);
    expect(names(config.listeners)).toEqual(['connect_terminate', 'main_internal', 'connect_originate']);
    expect(names(config.clusters)).toEqual(['inbound-vip|9080|http|ratings.default.svc.cluster.local']);
    expect(names(config.routes)).toEqual(['inbound-vip|9080|http|reviews-v3.default.svc.cluster.local']);
  });
  it('waypoint-config_dump.json: bootstrap, static + dynamic sections; scoped routes and secrets ignored', () => {
    const { config, errors } = readConfigDump(load('waypoint-config_dump.json'));
    expect(errors).toEqual([]);
    expect(config.listeners).toHaveLength(2);
    expect(config.listeners[1]?.['name']).toBe('main_internal');
    expect(names(config.clusters)).toEqual(['agent', 'prometheus_stats', 'inbound-vip|8000|http|httpbin.default.svc.cluster.local']);
    expect(config.endpoints).toHaveLength(2);
    expect(names(config.routes)).toEqual(['inbound-vip|8000|http|httpbin.default.svc.cluster.local']);
  });
});

describe('readConfigDump section shapes', () => {
  it('listeners: static, active, warming (when not active), draining-only skipped', () => {
    const { config, errors } = readConfigDump({
      configs: [
        {
          '@type': T('ListenersConfigDump'),
          static_listeners: [{ listener: { '@type': 'x', name: 's' } }],
          dynamic_listeners: [
            { name: 'a', active_state: { listener: { name: 'a' } }, warming_state: { listener: { name: 'a', v: 2 } } },
            { name: 'w', warming_state: { listener: { name: 'w' } } },
            { name: 'd', draining_state: { listener: { name: 'd' } } },
          ],
        },
      ],
    });
    expect(errors).toEqual([]);
    expect(config.listeners).toEqual([{ name: 's' }, { name: 'a' }, { name: 'w' }]);
  });
  it('clusters: static, dynamic active and warming; bootstrap static resources de-duplicated by name', () => {
    const { config } = readConfigDump({
      configs: [
        {
          '@type': T('BootstrapConfigDump'),
          bootstrap: {
            static_resources: { clusters: [{ name: 'agent', from: 'bootstrap' }, { name: 'boot-only' }], listeners: [{ name: 'bl' }] },
          },
        },
        {
          '@type': T('ClustersConfigDump'),
          static_clusters: [{ cluster: { name: 'agent' } }],
          dynamic_active_clusters: [{ cluster: { name: 'c1' } }],
          dynamic_warming_clusters: [{ cluster: { name: 'c2' } }],
        },
      ],
    });
    expect(config.clusters).toEqual([{ name: 'agent' }, { name: 'c1' }, { name: 'c2' }, { name: 'boot-only' }]);
    expect(config.listeners).toEqual([{ name: 'bl' }]);
  });
  it('round-trips what buildConfigDump (istiod-style dynamic sections) prints', () => {
    const l = encodeResource(TYPE.listener, 'l', { name: 'l', address: { socketAddress: { address: '0.0.0.0', portValue: 80 } } });
    const r = encodeResource(TYPE.route, 'r', { name: 'r' });
    const c = encodeResource(TYPE.cluster, 'c', { name: 'c', type: 'EDS' });
    const e = encodeResource(TYPE.endpoint, 'c', { clusterName: 'c' });
    const dump = buildConfigDump({ version: '1', listeners: [l], routes: [r], clusters: [c], endpoints: [e] });
    const { config, errors } = readConfigDump(JSON.parse(JSON.stringify(dump)));
    expect(errors).toEqual([]);
    expect(config).toEqual({ listeners: [l.json], routes: [r.json], clusters: [c.json], endpoints: [e.json] });
  });
  it('accepts JSON text and a bare configs array; ignores unknown @types', () => {
    const text = JSON.stringify({
      configs: [
        { '@type': 'type.googleapis.com/some.Unknown', x: 1 },
        { '@type': T('RoutesConfigDump'), static_route_configs: [{ route_config: { name: 'x' } }] },
      ],
    });
    expect(readConfigDump(text)).toEqual({ config: { listeners: [], routes: [{ name: 'x' }], clusters: [], endpoints: [] }, errors: [] });
    expect(
      readConfigDump([{ '@type': T('EndpointsConfigDump'), dynamic_endpoint_configs: [{ endpoint_config: { cluster_name: 'c' } }] }]).config
        .endpoints,
    ).toEqual([{ cluster_name: 'c' }]);
  });
  it('bad input gives located errors, never throws', () => {
    expect(readConfigDump('{nope').errors[0]).toMatch(/^config dump is not JSON/);
    expect(readConfigDump(42).errors).toEqual(['config dump has no "configs" array']);
    const { errors } = readConfigDump({
      configs: [7, { no: 'type' }, { '@type': T('RoutesConfigDump'), dynamic_route_configs: [{}, 3, { route_config: 'str' }] }],
    });
    expect(errors).toEqual([
      'configs[0]: expected an object',
      'configs[1]: missing "@type"',
      'configs[2].dynamic_route_configs[0]: no route_config',
      'configs[2].dynamic_route_configs[1]: expected an object',
      'configs[2].dynamic_route_configs[2].route_config: expected a route object',
    ]);
  });
});
