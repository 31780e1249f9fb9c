// Simulation tables for sidecars (in the style of Istio's pilot/pkg/networking/core/*simulation_test.go):
// request → listener / filter chain / route config / virtual host / route / cluster, on what the translator
// generates for testdata/simulate-sidecar.yaml (loaded through the real file parser and snapshot), walked by
// the simulator over the encoded Envoy JSON. Every expectation is derived from Istio's rules (cited per row;
// "§n" = ../shared/reference/istio-translation.md section n), not recorded from output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { proxyResources } from '../pipeline/proxyResources';
import { simulate, type EnvoyConfig, type SimRequest, type SimResult } from '../simulate/index';
import { parseText } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';

const FILE = join(REPO_ROOT, 'server/acceptance/testdata/simulate-sidecar.yaml');

function load(): MeshSnapshot {
  const { inputs, errors } = parseText(readFileSync(FILE, 'utf8'), FILE);
  return buildSnapshot(inputs, { version: 1, extraErrors: errors });
}

function configOf(snap: MeshSnapshot, app: string): EnvoyConfig {
  const proxy = snap.proxies.find((p) => p.labels['app'] === app);
  if (!proxy) throw new Error(`no proxy for app ${app}`);
  const r = proxyResources(snap, proxy.id);
  if (!r) throw new Error(`no resources for ${proxy.id}`);
  expect(r.errors.filter((e) => e.severity === 'error')).toEqual([]);
  return {
    listeners: r.listeners.map((e) => e.json),
    routes: r.routes.map((e) => e.json),
    clusters: r.clusters.map((e) => e.json),
    endpoints: r.endpoints.map((e) => e.json),
  };
}

const snap = load();
const ipOf = (app: string, version?: string) =>
  snap.proxies.find((p) => p.labels['app'] === app && (version === undefined || p.labels['version'] === version))?.ips[0] ?? 'missing';
const DB = 'db.shop.svc.cluster.local';
const LEGACY = 'legacy.shop.svc.cluster.local';

interface Row {
  name: string;
  request: SimRequest;
  want: Partial<SimResult>;
}

function table(app: string, rows: Row[]) {
  const cfg = configOf(snap, app);
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, row) => {
    const got = simulate(cfg, row.request);
    expect(got).toMatchObject(row.want);
    if (row.want.error === undefined) expect(got.error).toBeUndefined();
  });
}

describe('simulate-sidecar.yaml parses', () => {
  it('without errors', () => expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]));
});

describe('client sidecar (ALLOW_ANY), outbound', () => {
  table('client', [
    {
      // §3 TCP port: listener bound to the service VIP `<VIP>_<port>`; tcp route with two destinations →
      // weighted_clusters with the weights as written, cluster names outbound|<port>|<subset>|<fqdn>
      // (tls.go:buildSidecarOutboundTCPFilterChainOpts, route.GetDestinationCluster).
      name: 'TCP to db VIP:5432 → weighted tcp route 70/30 over subsets (VirtualService db-split)',
      request: { mode: 'outbound', address: '10.96.1.20', port: 5432, protocol: 'tcp' },
      want: {
        listener: '10.96.1.20_5432',
        weightedClusters: { [`outbound|5432|v1|${DB}`]: 70, [`outbound|5432|v2|${DB}`]: 30 },
        source: { kind: 'VirtualService', namespace: 'shop', name: 'db-split' },
        endpoints: [`${ipOf('db', 'v1')}:5432`, `${ipOf('db', 'v2')}:5432`],
      },
    },
    {
      // §3 sniffed port (name "legacy", no protocol prefix): VIP listener with an HCM chain matching ALPN
      // http/1.1,h2c whose RDS is `<fqdn>:<port>`; §4 sniffed RDS holds only that service's vhost (domains `*`).
      name: 'HTTP to a sniffed port → HCM chain, RDS "<fqdn>:7070", default route',
      request: { mode: 'outbound', address: '10.96.1.30', port: 7070, host: 'anything.example:7070' },
      want: {
        listener: '10.96.1.30_7070',
        routeConfig: `${LEGACY}:7070`,
        virtualHost: `${LEGACY}:7070`,
        route: 'default',
        cluster: `outbound|7070||${LEGACY}`,
        endpoints: [`${ipOf('legacy')}:7070`],
      },
    },
    {
      // §3 sniffed port: the tcp chain (no match) is the listener's default chain → tcp_proxy to the service.
      name: 'raw TCP to the sniffed port → the tcp (default) chain, same cluster',
      request: { mode: 'outbound', address: '10.96.1.30', port: 7070, protocol: 'tcp' },
      want: { listener: '10.96.1.30_7070', filterChain: 'default_filter_chain', cluster: `outbound|7070||${LEGACY}` },
    },
    {
      // §3 TLS port of a ServiceEntry without address → bind 0.0.0.0; a tls match makes a chain with
      // server_names = sniHosts routed to the tls route's destination.
      name: 'TLS with SNI api.example.com → tls route by SNI to mirror.example.com (VirtualService api-to-mirror)',
      request: { mode: 'outbound', address: '93.184.216.34', port: 443, tls: 'tls', protocol: 'tcp', sni: 'api.example.com' },
      want: {
        listener: '0.0.0.0_443',
        cluster: 'outbound|443||mirror.example.com',
        source: { kind: 'VirtualService', namespace: 'shop', name: 'api-to-mirror' },
        // DNS resolution: STRICT_DNS cluster with the host itself as its inline endpoint (§1 ServiceEntry, §7).
        endpoints: ['mirror.example.com:443'],
      },
    },
    {
      // §3: a TLS service without tls route on a wildcard bind gets a chain with server_names = [hostname].
      name: 'TLS with SNI mirror.example.com → its own chain (server_names [hostname])',
      request: { mode: 'outbound', address: '93.184.216.34', port: 443, tls: 'tls', protocol: 'tcp', sni: 'mirror.example.com' },
      want: { listener: '0.0.0.0_443', cluster: 'outbound|443||mirror.example.com' },
    },
    {
      // §3: a listener with no match-all chain gets PassthroughFilterChain (ALLOW_ANY → PassthroughCluster).
      name: 'TLS with an unknown SNI → PassthroughFilterChain → PassthroughCluster',
      request: { mode: 'outbound', address: '93.184.216.34', port: 443, tls: 'tls', protocol: 'tcp', sni: 'unknown.example.com' },
      want: { listener: '0.0.0.0_443', filterChain: 'PassthroughFilterChain', cluster: 'PassthroughCluster' },
    },
    {
      // ServiceEntry resolution DNS (§1, §7): vhost `<host>:80` in RDS "80" (HTTP port → 0.0.0.0_80), default
      // route to outbound|80||httpbin.org whose STRICT_DNS endpoint is httpbin.org:80.
      name: 'HTTP to httpbin.org (ServiceEntry DNS) → vhost httpbin.org:80 → outbound|80||httpbin.org',
      request: { mode: 'outbound', address: '3.3.3.3', port: 80, host: 'httpbin.org', path: '/get' },
      want: {
        listener: '0.0.0.0_80',
        routeConfig: '80',
        virtualHost: 'httpbin.org:80',
        route: 'default',
        cluster: 'outbound|80||httpbin.org',
        endpoints: ['httpbin.org:80'],
      },
    },
    {
      // ServiceEntry STATIC with address 240.0.0.10 (§1: IP → VIP; STATIC → EDS with the spec endpoints,
      // endpoint port = service port when none is given).
      name: 'TCP to a STATIC ServiceEntry VIP → its listener and EDS endpoints',
      request: { mode: 'outbound', address: '240.0.0.10', port: 9000, protocol: 'tcp' },
      want: { listener: '240.0.0.10_9000', cluster: 'outbound|9000||backend.internal', endpoints: ['10.1.1.1:9000', '10.1.1.2:9000'] },
    },
    {
      // ServiceEntry NONE with a CIDR address (§3: CIDR → bind 0.0.0.0 with prefix ranges; NONE →
      // ORIGINAL_DST, so the endpoint is the original destination).
      name: 'TCP into a NONE ServiceEntry CIDR → prefix-range chain → ORIGINAL_DST cluster',
      request: { mode: 'outbound', address: '10.50.3.4', port: 6000, protocol: 'tcp' },
      want: { listener: '0.0.0.0_6000', cluster: 'outbound|6000||legacy.net', endpoints: ['10.50.3.4:6000'] },
    },
    {
      name: 'TCP outside that CIDR on the same port → PassthroughFilterChain',
      request: { mode: 'outbound', address: '10.60.3.4', port: 6000, protocol: 'tcp' },
      want: { listener: '0.0.0.0_6000', filterChain: 'PassthroughFilterChain', cluster: 'PassthroughCluster' },
    },
    {
      // exportTo "." on secret.other hides it from shop (§2 IsServiceVisible): no vhost for it, so the
      // allow_any catch-all vhost (§4 buildCatchAllVirtualHost) takes the request.
      name: 'HTTP to a service hidden by exportTo → allow_any → PassthroughCluster',
      request: { mode: 'outbound', address: '10.96.2.10', port: 80, host: 'secret.other.svc.cluster.local' },
      want: { listener: '0.0.0.0_80', routeConfig: '80', virtualHost: 'allow_any', route: 'allow_any', cluster: 'PassthroughCluster' },
    },
    {
      // §3 headless (Passthrough, no VIP) TCP port: one listener per endpoint address `<podIP>_<port>`; §7
      // Passthrough → ORIGINAL_DST on sidecars, so the request goes to the pod it was addressed to.
      name: 'TCP to a headless service pod → its per-endpoint listener → ORIGINAL_DST cluster',
      request: { mode: 'outbound', address: ipOf('kafka', undefined), port: 9092, protocol: 'tcp' },
      want: {
        listener: `${ipOf('kafka', undefined)}_9092`,
        cluster: 'outbound|9092||kafka.shop.svc.cluster.local',
        endpoints: [`${ipOf('kafka', undefined)}:9092`],
      },
    },
    {
      // §3 virtualOutbound: no listener on ip:port → virtualOutbound-catchall-tcp → PassthroughCluster (ALLOW_ANY).
      name: 'TCP to an unknown ip:port → virtualOutbound → PassthroughCluster',
      request: { mode: 'outbound', address: '1.2.3.4', port: 8443, protocol: 'tcp' },
      want: { listener: 'virtualOutbound', filterChain: 'virtualOutbound-catchall-tcp', cluster: 'PassthroughCluster' },
    },
  ]);
});

describe('client sidecar, inbound (§8 listener_inbound.go)', () => {
  table('client', [
    {
      // virtualInbound chain for target port 8000 (service client port 80 → targetPort 8000), inline route config
      // inbound|8000|| with vhost inbound|http|80 and route default → cluster inbound|8000||.
      name: 'HTTP to the pod on its target port → virtualInbound → inbound|8000||',
      request: { mode: 'inbound', address: ipOf('client'), port: 8000, host: 'client.shop:80' },
      want: {
        listener: 'virtualInbound',
        routeConfig: 'inbound|8000||',
        virtualHost: 'inbound|http|80',
        route: 'default',
        cluster: 'inbound|8000||',
        endpoints: [`${ipOf('client')}:8000`],
      },
    },
    {
      // Unknown ports: the catch-all virtualInbound chain → InboundPassthroughCluster.
      name: 'TCP to a port no service targets → InboundPassthroughCluster',
      request: { mode: 'inbound', address: ipOf('client'), port: 9999, protocol: 'tcp' },
      want: { listener: 'virtualInbound', filterChain: 'virtualInbound', cluster: 'InboundPassthroughCluster' },
    },
  ]);
});

describe('jailed sidecar (Sidecar outboundTrafficPolicy REGISTRY_ONLY, §2/§4)', () => {
  table('jailed', [
    {
      // §4: REGISTRY_ONLY appends block_all (route block_all → direct_response 502) instead of allow_any.
      name: 'HTTP to an unknown host on port 80 → block_all 502',
      request: { mode: 'outbound', address: '1.2.3.4', port: 80, host: 'www.google.com' },
      want: { listener: '0.0.0.0_80', routeConfig: '80', virtualHost: 'block_all', route: 'block_all', directResponse: { status: 502 } },
    },
    {
      // §3: virtualOutbound-catchall-tcp goes to BlackHoleCluster under REGISTRY_ONLY.
      name: 'TCP to an unknown ip:port → virtualOutbound → BlackHoleCluster',
      request: { mode: 'outbound', address: '1.2.3.4', port: 8443, protocol: 'tcp' },
      want: { listener: 'virtualOutbound', filterChain: 'virtualOutbound-catchall-tcp', cluster: 'BlackHoleCluster' },
    },
    {
      // The Sidecar imports shop/*, so client.shop keeps its vhost on RDS 80.
      name: 'HTTP to an imported service still routes (egress shop/*)',
      request: { mode: 'outbound', address: '10.96.1.10', port: 80, host: 'client.shop' },
      want: { virtualHost: 'client.shop.svc.cluster.local:80', cluster: 'outbound|80||client.shop.svc.cluster.local' },
    },
    {
      // PassthroughFilterChain of an HTTP listener uses BlackHoleCluster under REGISTRY_ONLY (§3).
      name: 'raw TCP to port 80 of a hidden VIP → PassthroughFilterChain → BlackHoleCluster',
      request: { mode: 'outbound', address: '10.96.2.10', port: 80, protocol: 'tcp' },
      want: { listener: '0.0.0.0_80', filterChain: 'PassthroughFilterChain', cluster: 'BlackHoleCluster' },
    },
  ]);
});

describe('three VirtualServices for one host on a sidecar (§4: first imported VirtualService owns the vhost, no merging)', () => {
  // testdata of the sidecar-vs-conflict golden: api-v1-only (oldest, all → v1), api-admin (/admin → v2),
  // api-catchall (newest, / → v2). On a sidecar the oldest owns vhost api.shop.svc.cluster.local:8080, so even
  // /admin lands on v1 (a gateway would merge the three and route /admin to v2).
  const file = join(REPO_ROOT, 'server/translate/testdata/sidecar-vs-conflict/in.yaml');
  const { inputs, errors } = parseText(readFileSync(file, 'utf8'), file);
  const s = buildSnapshot(inputs, { version: 1, extraErrors: errors });
  const web = s.proxies.find((p) => p.labels['app'] === 'web')!;
  const r = proxyResources(s, web.id)!;
  const cfg: EnvoyConfig = {
    listeners: r.listeners.map((e) => e.json),
    routes: r.routes.map((e) => e.json),
    clusters: r.clusters.map((e) => e.json),
    endpoints: r.endpoints.map((e) => e.json),
  };
  it.each(['/admin/users', '/anything'])('GET %s on api:8080 → subset v1 of the oldest VirtualService', (path) => {
    expect(simulate(cfg, { mode: 'outbound', address: '10.96.0.1', port: 8080, host: 'api:8080', path })).toMatchObject({
      virtualHost: 'api.shop.svc.cluster.local:8080',
      cluster: 'outbound|8080|v1|api.shop.svc.cluster.local',
      source: { kind: 'VirtualService', namespace: 'shop', name: 'api-v1-only' },
    });
  });
});
