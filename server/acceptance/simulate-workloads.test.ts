// `meshscope simulate` (the real CLI) on the workload-model goldens' inputs (server/translate/testdata/*/in.yaml).
// Each expectation is derived from Istio's rules, cited per block, not read off meshscope's output:
// - workloadentry: serviceentry/conversion.go (services(): a workloadSelector picks Pods and WorkloadEntries of the
//   entry's namespace; convertWorkloadInstanceToServiceInstance: port = the workload's port named like the
//   ServiceEntry port > targetPort > number) and kube/controller/controller.go serviceInstancesFromWorkloadInstances
//   (a Service selector picks WorkloadEntries; a named targetPort must be among the entry's ports).
// - serviceentry-cidr: listener.go buildSidecarOutboundListener (CIDR addresses → 0.0.0.0_<port> with a
//   prefix_ranges chain each) and Envoy's filter chain match (the longest matching destination prefix wins; no
//   match → the default PassthroughFilterChain); resolution NONE → ORIGINAL_DST, so the endpoint is the destination.
// - serviceentry-target: serviceentry/controller.go GetProxyServiceTargets (a ServiceEntry endpoint at the proxy IP
//   makes a target; inbound chain on the endpoint port) and gateway_simulation_test.go TestTargetPort.
// - sidecar-ingress: listener_inbound.go buildInboundChainConfigs + cluster.go buildInboundClustersFromSidecar.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/paths';
import { cliJson } from './cliRun';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const input = (name: string) => join(REPO_ROOT, 'server', 'translate', 'testdata', name, 'in.yaml');
const simulate = (name: string, proxy: string, args: string[], stdin?: string): Json =>
  cliJson(['simulate', '--config', input(name), ...(stdin ? ['--config', '-'] : []), '--proxy', proxy, ...args], stdin);

describe('meshscope simulate: WorkloadEntry endpoints', () => {
  it('a ServiceEntry workloadSelector sends to its WorkloadEntries and pods, each on its own port', () => {
    const r = simulate('workloadentry', 'sleep.shop', ['--mode', 'outbound', '--port', '8080', '--host', 'api.vm.internal']);
    expect(r.cluster).toBe('outbound|8080||api.vm.internal');
    // vm-1: ports.http 18080; vm-2: targetPort 9090; api-pod: named container port http 7070. vm-elsewhere
    // (namespace other) and vm-dns (hostname address, STATIC entry) are not selected.
    expect([...r.endpoints].sort()).toEqual(['10.0.0.6:7070', '10.10.0.1:18080', '10.10.0.2:9090']);
  });

  it('a subset of the ServiceEntry keeps the WorkloadEntries whose labels match', () => {
    const vs = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: api, namespace: shop}
spec:
  hosts: [api.vm.internal]
  http: [{route: [{destination: {host: api.vm.internal, subset: v1}}]}]
`;
    const r = simulate('workloadentry', 'sleep.shop', ['--mode', 'outbound', '--port', '8080', '--host', 'api.vm.internal'], vs);
    expect(r).toMatchObject({ cluster: 'outbound|8080|v1|api.vm.internal', endpoints: ['10.10.0.1:18080'] });
  });

  it('a Kubernetes Service selector picks WorkloadEntries: numeric targetPort unless the entry names the port, named targetPort or nothing', () => {
    const http = simulate('workloadentry', 'sleep.shop', ['--mode', 'outbound', '--port', '80', '--host', 'legacy.shop']);
    expect(http.cluster).toBe('outbound|80||legacy.shop.svc.cluster.local');
    expect([...http.endpoints].sort()).toEqual(['10.20.0.1:8080', '10.20.0.2:18080']);
    // Port name grpc → protocol GRPC: an HTTP/2 call through RDS 90.
    const grpc = simulate('workloadentry', 'sleep.shop', [
      '--mode',
      'outbound',
      '--port',
      '90',
      '--host',
      'legacy.shop',
      '--protocol',
      'http2',
    ]);
    expect(grpc).toMatchObject({ cluster: 'outbound|90||legacy.shop.svc.cluster.local', endpoints: ['10.20.0.1:50051'] });
  });
});

describe('meshscope simulate: CIDR ServiceEntry addresses', () => {
  const tcp = (address: string, port = 5000): Json =>
    simulate('serviceentry-cidr', 'client.app', ['--mode', 'outbound', '--address', address, '--port', String(port), '--protocol', 'tcp']);

  it('the longest matching prefix wins on the shared 0.0.0.0_5000 listener', () => {
    expect(tcp('10.1.2.3')).toMatchObject({ listener: '0.0.0.0_5000', cluster: 'outbound|5000||narrow.ext', endpoints: ['10.1.2.3:5000'] });
    expect(tcp('10.200.0.1')).toMatchObject({
      listener: '0.0.0.0_5000',
      cluster: 'outbound|5000||wide.ext',
      endpoints: ['10.200.0.1:5000'],
    });
  });

  it('an address outside every prefix takes the passthrough chain', () => {
    expect(tcp('11.0.0.1')).toMatchObject({
      listener: '0.0.0.0_5000',
      filterChain: 'PassthroughFilterChain',
      cluster: 'PassthroughCluster',
    });
  });

  it('a sniffed port: each prefix of the entry reaches it over TCP; HTTP elsewhere goes to the shared RDS 6000', () => {
    for (const address of ['172.16.9.9', '192.168.1.1'])
      expect(tcp(address, 6000)).toMatchObject({ cluster: 'outbound|6000||private.ext' });
    const r = simulate('serviceentry-cidr', 'client.app', [
      '--mode',
      'outbound',
      '--address',
      '8.8.8.8',
      '--port',
      '6000',
      '--host',
      'private.ext',
    ]);
    expect(r).toMatchObject({
      listener: '0.0.0.0_6000',
      routeConfig: '6000',
      virtualHost: 'private.ext:6000',
      cluster: 'outbound|6000||private.ext',
    });
  });
});

describe('meshscope simulate: ServiceEntry endpoints at a proxy IP', () => {
  it('the proxy serves the entry inbound on the endpoint ports', () => {
    const http = simulate('serviceentry-target', 'db-0.shop', ['--mode', 'inbound', '--port', '8080', '--host', 'db.shop.internal']);
    expect(http).toMatchObject({ listener: 'virtualInbound', filterChain: '0.0.0.0_8080', cluster: 'inbound|8080||' });
    const tcp = simulate('serviceentry-target', 'db-0.shop', ['--mode', 'inbound', '--port', '15432', '--protocol', 'tcp']);
    expect(tcp).toMatchObject({ filterChain: '0.0.0.0_15432', cluster: 'inbound|15432||' });
    // An entry of another namespace with an endpoint at the same IP makes no target: passthrough.
    const other = simulate('serviceentry-target', 'db-0.shop', ['--mode', 'inbound', '--port', '7000', '--protocol', 'tcp']);
    expect(other).toMatchObject({ cluster: 'InboundPassthroughCluster' });
  });

  it('a gateway port is followed through the ServiceEntry to its target port', () => {
    const r = simulate('serviceentry-target', 'edge-gw-0.istio-system', ['--mode', 'gateway', '--port', '80', '--host', 'db.example.com']);
    expect(r).toMatchObject({
      listener: '0.0.0.0_8080',
      routeConfig: 'http.8080',
      virtualHost: 'db.example.com:80',
      cluster: 'outbound|80||db.shop.internal',
    });
  });

  it("TestTargetPort 'basic': Gateway servers 80 (-> 8080 through a ServiceEntry at the gateway IP) and 8080 share 0.0.0.0_8080", () => {
    const yaml = `apiVersion: v1
kind: Pod
metadata: {name: gw-0, namespace: istio-system, labels: {istio: ingressgateway}}
spec: {containers: [{name: istio-proxy, image: proxyv2, args: [proxy, router]}]}
status: {podIP: 1.1.1.1, phase: Running, conditions: [{type: Ready, status: "True"}]}
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gateway80, namespace: istio-system}
spec: {selector: {istio: ingressgateway}, servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: [example.com]}]}
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gateway81, namespace: istio-system}
spec: {selector: {istio: ingressgateway}, servers: [{port: {number: 8080, name: http, protocol: HTTP}, hosts: [example.com]}]}
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: service-instance, namespace: istio-system}
spec:
  hosts: [istio-ingressgateway.istio-system.svc.cluster.local]
  ports: [{number: 80, targetPort: 8080, name: http, protocol: HTTP}]
  resolution: STATIC
  location: MESH_INTERNAL
  endpoints: [{address: 1.1.1.1}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: a, namespace: default}
spec:
  hosts: [example.com]
  gateways: [istio-system/gateway80, istio-system/gateway81]
  http: [{match: [{uri: {prefix: /}}], route: [{destination: {host: a, port: {number: 80}}}]}]
`;
    const r = cliJson<Json>(
      [
        'simulate',
        '--config',
        '-',
        '--proxy',
        'gw-0.istio-system',
        '--mode',
        'outbound',
        '--address',
        '1.1.1.1',
        '--port',
        '8080',
        '--host',
        'example.com',
      ],
      yaml,
    );
    // Istio's fake environment has no domain suffix (`a.default`); meshscope's is cluster.local.
    expect(r).toMatchObject({
      listener: '0.0.0.0_8080',
      routeConfig: 'http.8080',
      virtualHost: 'example.com:80',
      cluster: 'outbound|80||a.default.svc.cluster.local',
    });
  });
});

describe('meshscope simulate: Sidecar ingress listeners', () => {
  const inbound = (args: string[]): Json => simulate('sidecar-ingress', 'app-0.shop', ['--mode', 'inbound', ...args]);

  it('each ingress port reaches its defaultEndpoint: localhost, the pod IP, a unix socket', () => {
    expect(inbound(['--port', '9080', '--host', 'app'])).toMatchObject({
      filterChain: '0.0.0.0_9080',
      routeConfig: 'inbound|9080||',
      virtualHost: 'inbound|http|9080',
      cluster: 'inbound|9080||',
      endpoints: ['127.0.0.1:8080'],
    });
    expect(inbound(['--port', '9443', '--protocol', 'tcp'])).toMatchObject({ cluster: 'inbound|9443||', endpoints: ['10.0.0.8:8443'] });
    expect(inbound(['--port', '9090', '--host', 'app'])).toMatchObject({
      cluster: 'inbound|9090||',
      endpoints: ['unix:///var/run/app.sock'],
    });
  });

  it("the Service's own target port no longer has a chain once ingress listeners exist", () => {
    expect(inbound(['--port', '8080', '--host', 'app'])).toMatchObject({
      filterChain: 'virtualInbound-catchall-http',
      cluster: 'InboundPassthroughCluster',
    });
  });
});
