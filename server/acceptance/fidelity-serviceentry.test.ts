// ServiceEntry fidelity gaps closed in wave 2, checked on translator output (+ the simulator walking it):
// - several addresses → istiod makes one service per host × address (serviceentry/conversion.go:convertServices);
//   the egress listener keeps them all (sidecar.go:convertIstioListenerToWrapper/selectServices), so each TCP
//   address gets its own `<addr>_<port>` listener; CDS collapses them to one service per hostname
//   (sidecar.go:appendSidecarServices) → one cluster; RDS keeps the last one per hostname
//   (httproute.go:BuildSidecarOutboundVirtualHosts servicesByName) → only the last address is a vhost domain.
// - a later ServiceEntry repeating a host in the same namespace merges into the older one when
//   canMergeServices holds (same resolution, labels, selector, exportTo): new ports appended → clusters per port;
//   endpoints of both entries are indexed under the one (host, namespace) key. Otherwise its ports are ignored.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { proxyResources } from '../pipeline/proxyResources';
import { simulate } from '../simulate/index';
import { parseText } from '../sources/file/loadPaths';
import { translateProxy } from '../translate/index';

const MESH = `
apiVersion: v1
kind: Pod
metadata: {name: client, namespace: app, labels: {app: client}}
spec: {containers: [{name: app, image: a}, {name: istio-proxy, image: proxyv2, args: [proxy, sidecar]}]}
status: {podIP: 10.0.0.5, phase: Running, conditions: [{type: Ready, status: "True"}]}
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: db, namespace: app, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  hosts: [db.ext]
  addresses: [240.0.0.1, 240.0.0.2/32]
  location: MESH_INTERNAL
  resolution: STATIC
  ports: [{number: 5000, name: tcp, protocol: TCP}]
  endpoints: [{address: 10.2.0.1}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: web, namespace: app, creationTimestamp: "2026-01-01T00:00:01Z"}
spec:
  hosts: [web.ext]
  addresses: [240.0.1.1, 240.0.1.2]
  location: MESH_INTERNAL
  resolution: STATIC
  ports: [{number: 8080, name: http, protocol: HTTP}]
  endpoints: [{address: 10.2.1.1}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: nets, namespace: app, creationTimestamp: "2026-01-01T00:00:01Z"}
spec:
  hosts: [nets.ext]
  addresses: [10.50.0.0/16, 10.60.0.0/16]
  resolution: NONE
  ports: [{number: 6000, name: tcp, protocol: TCP}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: api-a, namespace: app, creationTimestamp: "2026-01-01T00:00:02Z"}
spec:
  hosts: [api.ext]
  resolution: DNS
  ports: [{number: 443, name: tls, protocol: TLS}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: api-b, namespace: app, creationTimestamp: "2026-01-01T00:00:03Z"}
spec:
  hosts: [api.ext]
  resolution: DNS
  ports: [{number: 8443, name: tls-alt, protocol: TLS}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: api-static, namespace: app, creationTimestamp: "2026-01-01T00:00:04Z"}
spec:
  hosts: [api.ext]
  resolution: STATIC
  ports: [{number: 9443, name: tls-static, protocol: TLS}]
  endpoints: [{address: 10.9.9.9}]
`;

describe('ServiceEntry fidelity: several addresses, repeated hosts', () => {
  const { inputs, errors } = parseText(MESH, 'se.yaml');
  const snap = buildSnapshot(inputs, { version: 1, extraErrors: errors });
  const proxy = snap.proxiesById.get('client.app')!;
  const table = translateProxy(snap, proxy, DEFAULT_OPTIONS);
  const res = proxyResources(snap, 'client.app')!;
  const cfg = {
    listeners: res.listeners.map((e) => e.json),
    routes: res.routes.map((e) => e.json),
    clusters: res.clusters.map((e) => e.json),
    endpoints: res.endpoints.map((e) => e.json),
  };

  it('one service per (namespace, host); /32 becomes a plain IP (convertServices)', () => {
    expect(snap.services.map((s) => s.hostname).sort()).toEqual(['api.ext', 'db.ext', 'nets.ext', 'web.ext']);
    expect(snap.services.find((s) => s.hostname === 'db.ext')!.addresses).toEqual(['240.0.0.1', '240.0.0.2']);
  });

  it('each address of a TCP port gets its own VIP listener; both reach the single cluster', () => {
    const names = table.listeners.map((l) => l.name);
    expect(names).toContain('240.0.0.1_5000');
    expect(names).toContain('240.0.0.2_5000');
    expect(table.clusters.filter((c) => c.name === 'outbound|5000||db.ext')).toHaveLength(1);
    for (const address of ['240.0.0.1', '240.0.0.2']) {
      const r = simulate(cfg, { mode: 'outbound', address, port: 5000, protocol: 'tcp' });
      expect(r).toMatchObject({ listener: `${address}_5000`, cluster: 'outbound|5000||db.ext', endpoints: ['10.2.0.1:5000'] });
    }
  });

  it('several CIDRs (NONE): one 0.0.0.0_6000 listener, a prefix-range chain per CIDR (TCP chains merged), ORIGINAL_DST', () => {
    for (const address of ['10.50.1.1', '10.60.1.1']) {
      const r = simulate(cfg, { mode: 'outbound', address, port: 6000, protocol: 'tcp' });
      expect(r).toMatchObject({ listener: '0.0.0.0_6000', cluster: 'outbound|6000||nets.ext', endpoints: [`${address}:6000`] });
      expect(r.filterChain).not.toBe('PassthroughFilterChain');
    }
    expect(simulate(cfg, { mode: 'outbound', address: '10.70.1.1', port: 6000, protocol: 'tcp' })).toMatchObject({
      filterChain: 'PassthroughFilterChain',
    });
  });

  it('HTTP port: vhost web.ext:8080 carries only the last address as a domain (servicesByName keeps the last)', () => {
    const vh = table.routes.find((r) => r.name === '8080')!.virtualHosts!.find((v) => v.name === 'web.ext:8080')!;
    // generateVirtualHostDomains: hostname, the absolute `hostname.` (on by default), then the address.
    expect(vh.domains).toEqual(['web.ext', 'web.ext.', '240.0.1.2']);
  });

  it('a later ServiceEntry repeating the host merges its ports (api-b) → a cluster and listener per port', () => {
    const api = snap.services.find((s) => s.hostname === 'api.ext')!;
    expect(api.ports.map((p) => p.port)).toEqual([443, 8443]);
    expect(api.name).toBe('api-a');
    const clusters = table.clusters.map((c) => c.name);
    expect(clusters).toContain('outbound|443||api.ext');
    expect(clusters).toContain('outbound|8443||api.ext');
    // DNS: STRICT_DNS with the host as inline endpoint on each port (§7).
    const c8443 = table.clusters.find((c) => c.name === 'outbound|8443||api.ext')!;
    expect(c8443.type).toBe('STRICT_DNS');
    const r = simulate(cfg, { mode: 'outbound', address: '1.1.1.1', port: 8443, tls: 'tls', protocol: 'tcp', sni: 'api.ext' });
    expect(r).toMatchObject({ listener: '0.0.0.0_8443', cluster: 'outbound|8443||api.ext', endpoints: ['api.ext:8443'] });
  });

  it('a repeating entry that cannot merge (different resolution) adds no ports and is reported, located', () => {
    expect(table.clusters.map((c) => c.name)).not.toContain('outbound|9443||api.ext');
    const w = snap.errors.find((e) => e.object === 'ServiceEntry app/api-static');
    expect(w).toMatchObject({ severity: 'warning', path: 'spec.hosts[0]', file: 'se.yaml', doc: 6 });
  });
});
