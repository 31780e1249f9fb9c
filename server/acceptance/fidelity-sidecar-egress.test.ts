// Sidecar egress listeners with an explicit port (Istio networking/core/listener.go:buildSidecarOutboundListeners,
// model/sidecar.go:convertIstioListenerToWrapper / needsPortMatch / serviceMatchingListenerPort /
// GetEgressListenerForRDS, httproute.go:BuildSidecarOutboundVirtualHosts):
// - a port-specific egress listener imports only its hosts' services that have that port, and builds its
//   listener(s) on that port first; the catch-all egress listener then adds every other service port, but
//   never adds to or merges into a listener key built before it (entries are locked);
// - RDS for that port is built from the port-specific egress listener's services and VirtualServices only,
//   so a service imported only by the catch-all is not a vhost of that route config (→ allow_any);
// - a service without that port is not imported by the port-specific listener at all.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { proxyResources } from '../pipeline/proxyResources';
import { simulate } from '../simulate/index';
import { parseText } from '../sources/file/loadPaths';
import { translateProxy } from '../translate/index';

const svc = (name: string, ip: string, port: number, portName: string) => `
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: shop}
spec: {selector: {app: ${name}}, clusterIP: ${ip}, ports: [{name: ${portName}, port: ${port}}]}
---`;

const MESH = `
${svc('reviews', '10.96.3.1', 9080, 'http')}
${svc('ratings', '10.96.3.2', 9080, 'http')}
${svc('db', '10.96.3.3', 5432, 'tcp-pg')}
${svc('cache', '10.96.3.4', 6379, 'tcp-redis')}
apiVersion: v1
kind: Service
metadata: {name: multi, namespace: shop}
spec: {selector: {app: multi}, clusterIP: 10.96.3.5, ports: [{name: http, port: 9080}, {name: http-admin, port: 9090}]}
---
apiVersion: v1
kind: Pod
metadata: {name: client, namespace: shop, labels: {app: client}}
spec: {containers: [{name: app, image: a}, {name: istio-proxy, image: proxyv2, args: [proxy, sidecar]}]}
status: {podIP: 10.0.0.5, phase: Running, conditions: [{type: Ready, status: "True"}]}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: ratings-timeout, namespace: shop}
spec:
  hosts: [ratings]
  http: [{timeout: 7s, route: [{destination: {host: ratings}}]}]
---
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata: {name: default, namespace: shop}
spec:
  egress:
  - port: {number: 9080, protocol: HTTP, name: http-egress}
    hosts: [./reviews.shop.svc.cluster.local, ./db.shop.svc.cluster.local, ./multi.shop.svc.cluster.local]
  - port: {number: 6379, protocol: TCP, name: tcp-cache}
    hosts: [./cache.shop.svc.cluster.local]
  - hosts: [./ratings.shop.svc.cluster.local, ./db.shop.svc.cluster.local]
`;

describe('Sidecar egress listeners with explicit ports', () => {
  const { inputs, errors } = parseText(MESH, 'egress.yaml');
  const snap = buildSnapshot(inputs, { version: 1, extraErrors: errors });
  const proxy = snap.proxiesById.get('client.shop')!;
  const table = translateProxy(snap, proxy, DEFAULT_OPTIONS);
  const res = proxyResources(snap, 'client.shop')!;
  const cfg = {
    listeners: res.listeners.map((e) => e.json),
    routes: res.routes.map((e) => e.json),
    clusters: res.clusters.map((e) => e.json),
    endpoints: res.endpoints.map((e) => e.json),
  };

  it('translates without errors and without "not modelled" warnings for the egress ports', () => {
    expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
    expect(table.errors.filter((e) => e.severity === 'error')).toEqual([]);
    expect(table.errors.filter((e) => e.path?.startsWith('spec.egress'))).toEqual([]);
  });

  it('listeners: 0.0.0.0_9080 (HTTP egress port), the cache VIP on 6379 (TCP egress port), the db VIP from the catch-all', () => {
    const names = table.listeners.map((l) => l.name);
    expect(names).toEqual(
      expect.arrayContaining(['0.0.0.0_9080', '10.96.3.4_6379', '10.96.3.3_5432', 'virtualOutbound', 'virtualInbound']),
    );
  });

  it('RDS 9080 comes from the port-specific egress listener: multi + reviews (db has no 9080, ratings is not imported there)', () => {
    const rc = table.routes.find((r) => r.name === '9080')!;
    expect(rc.virtualHosts!.map((v) => v.name)).toEqual([
      'multi.shop.svc.cluster.local:9080',
      'reviews.shop.svc.cluster.local:9080',
      'allow_any',
    ]);
  });

  it('CDS: a multi-port service imported only by the 9080 egress listener gets the 9080 cluster only (serviceMatchingListenerPort)', () => {
    const names = table.clusters.map((c) => c.name);
    expect(names).toContain('outbound|9080||multi.shop.svc.cluster.local');
    expect(names).not.toContain('outbound|9090||multi.shop.svc.cluster.local');
    // the catch-all's services keep all their ports; ratings (catch-all only) still has its cluster
    expect(names).toContain('outbound|9080||ratings.shop.svc.cluster.local');
    expect(names).toContain('outbound|5432||db.shop.svc.cluster.local');
  });

  it('no listener for the 9090 port of multi (not imported on that port by any egress listener)', () => {
    expect(table.listeners.map((l) => l.name)).not.toContain('0.0.0.0_9090');
  });

  it('simulated: reviews:9080 → reviews cluster; ratings:9080 → allow_any (its VirtualService is not in that scope)', () => {
    expect(simulate(cfg, { mode: 'outbound', address: '10.96.3.1', port: 9080, host: 'reviews:9080' })).toMatchObject({
      listener: '0.0.0.0_9080',
      routeConfig: '9080',
      cluster: 'outbound|9080||reviews.shop.svc.cluster.local',
    });
    expect(simulate(cfg, { mode: 'outbound', address: '10.96.3.2', port: 9080, host: 'ratings:9080' })).toMatchObject({
      listener: '0.0.0.0_9080',
      virtualHost: 'allow_any',
      cluster: 'PassthroughCluster',
    });
  });

  it('simulated: TCP to cache:6379 → cache cluster; TCP to db:5432 → db cluster (catch-all)', () => {
    expect(simulate(cfg, { mode: 'outbound', address: '10.96.3.4', port: 6379, protocol: 'tcp' })).toMatchObject({
      listener: '10.96.3.4_6379',
      cluster: 'outbound|6379||cache.shop.svc.cluster.local',
    });
    expect(simulate(cfg, { mode: 'outbound', address: '10.96.3.3', port: 5432, protocol: 'tcp' })).toMatchObject({
      listener: '10.96.3.3_5432',
      cluster: 'outbound|5432||db.shop.svc.cluster.local',
    });
  });

  it('without the Sidecar, ratings gets its vhost on RDS 9080 with the VirtualService timeout (control)', () => {
    const noSidecar = parseText(MESH.slice(0, MESH.indexOf('apiVersion: networking.istio.io/v1\nkind: Sidecar')), 'egress.yaml');
    const s2 = buildSnapshot(noSidecar.inputs, { version: 1 });
    const t2 = translateProxy(s2, s2.proxiesById.get('client.shop')!, DEFAULT_OPTIONS);
    const vh = t2.routes.find((r) => r.name === '9080')!.virtualHosts!.find((v) => v.name === 'ratings.shop.svc.cluster.local:9080')!;
    expect(vh.routes![0]!.route!.timeout).toBe('7s');
  });
});
