// Istio's pilot/pkg/networking/core/serviceentry_simulation_test.go TestServiceEntry: two ServiceEntries on
// port 9999 whose addresses are IPv6 CIDRs, seen from a dual-stack sidecar (app: foo; 127.0.0.1, 1234::1234).
// The same inputs, translated by meshscope and walked by its simulator, give Istio's expected results:
// - identical prefixes (ignoring the host bits) keep only the first ServiceEntry;
// - overlapping CIDRs share the 0.0.0.0_9999 listener, one filter chain per prefix, and the longer prefix
//   wins (Envoy's destination_prefix_ranges: longest match first, before server_names);
// - with TLS and a VirtualService matching SNI on the wider prefix: IP first, then SNI — a mismatch of the two
//   falls through to PassthroughCluster (the case Istio's test records as istio/istio#52235);
// - partial overlap of plain IPs: each address keeps its own listener, the shared IP the first entry.
import { describe, expect, it } from 'vitest';
import { optionsOf } from '../model/mesh';
import { configDumpFor } from '../pipeline/configDump';
import { meshFromYaml, proxyWith } from '../translate/testing/yamlMesh';
import { simulateProxy } from './simulateProxy';

const pod = `apiVersion: v1
kind: Pod
metadata: {name: foo, namespace: default, labels: {app: foo}}
spec:
  containers: [{name: foo, image: foo}, {name: istio-proxy, image: istio/proxyv2, args: [proxy, sidecar]}]
status: {podIP: 127.0.0.1, podIPs: [{ip: 127.0.0.1}, {ip: "1234::1234"}]}
`;

const entry = (name: string, host: string, addresses: string[], protocol: string) => `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: ${name}, namespace: default}
spec:
  hosts: [${host}]
  addresses: ${JSON.stringify(addresses)}
  ports: [{number: 9999, name: port-9999, protocol: ${protocol}}]
`;

/** The test's `se` template. */
const se = (addresses: [string, string], protocol: string, virtualService = false) =>
  [
    entry('se1', 'blah1.somedomain', [addresses[0]], protocol),
    entry('se2', 'blah2.somedomain', [addresses[1]], protocol),
    ...(virtualService
      ? [
          `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: vs1, namespace: default}
spec:
  hosts: [blah1.somedomain]
  tls:
  - match: [{port: 9999, sniHosts: [blah1.somedomain]}]
    route: [{destination: {host: blah1.somedomain, port: {number: 9999}}}]
`,
        ]
      : []),
  ].join('---\n');

const run = (yaml: string, request: Record<string, unknown>) => {
  const mesh = meshFromYaml(`${pod}---\n${yaml}`);
  const p = proxyWith(mesh, 'default', { app: 'foo' }).id;
  return simulateProxy(mesh, p, { mode: 'outbound', port: 9999, protocol: 'tcp', ...request });
};

interface Chain {
  filter_chain_match?: { prefix_ranges?: Array<{ address_prefix: string; prefix_len: number }>; server_names?: string[] };
  filters: Array<{ typed_config?: { cluster?: string } }>;
}

/** The 0.0.0.0_9999 listener's filter chains as translated: prefix, SNI, cluster. */
function chains(yaml: string) {
  const mesh = meshFromYaml(`${pod}---\n${yaml}`);
  const dump = configDumpFor(mesh, proxyWith(mesh, 'default', { app: 'foo' }).id, { options: optionsOf(mesh) })?.dump as unknown as {
    configs: Array<{ dynamic_listeners?: Array<{ active_state: { listener: { name: string; filter_chains: Chain[] } } }> }>;
  };
  const listener = dump.configs
    .flatMap((c) => c.dynamic_listeners ?? [])
    .map((l) => l.active_state.listener)
    .find((l) => l.name === '0.0.0.0_9999');
  return (listener?.filter_chains ?? []).map((c) => {
    const r = c.filter_chain_match?.prefix_ranges?.[0];
    return {
      ...(r ? { prefix: `${r.address_prefix}/${r.prefix_len}` } : {}),
      ...(c.filter_chain_match?.server_names ? { sni: c.filter_chain_match.server_names } : {}),
      cluster: c.filters.map((f) => f.typed_config?.cluster).find(Boolean),
    };
  });
}

describe('TestServiceEntry', () => {
  it('identical CIDR (ignoring insignificant bits) is dropped', () => {
    const yaml = se(['1234:1f1:123:123:f816:3eff:feb8:2287/32', '1234:1f1:123:123:f816:3eff:febf:57ce/32'], 'TCP');
    expect(run(yaml, { address: '1234:1f1:1:1:1:1:1:1' })).toMatchObject({
      listener: '0.0.0.0_9999',
      cluster: 'outbound|9999||blah1.somedomain',
    });
    // An IPv6 /32 is a prefix, not a host: the listener is the shared wildcard one, with the first entry's chain only.
    expect(chains(yaml)).toEqual([{ prefix: '1234:1f1:123:123:f816:3eff:feb8:2287/32', cluster: 'outbound|9999||blah1.somedomain' }]);
  });

  describe('overlapping CIDR', () => {
    const yaml = se(['1234:1f1:123:123:f816:3eff:feb8:2287/16', '1234:1f1:123:123:f816:3eff:febf:57ce/32'], 'TCP');
    it('match the more precise one', () => {
      expect(run(yaml, { address: '1234:1f1:123:123:f816:3eff:febf:57ce' })).toMatchObject({
        listener: '0.0.0.0_9999',
        cluster: 'outbound|9999||blah2.somedomain',
      });
    });
    it('match the less precise one', () => {
      expect(run(yaml, { address: '1234::1' })).toMatchObject({ listener: '0.0.0.0_9999', cluster: 'outbound|9999||blah1.somedomain' });
    });
  });

  describe('overlapping CIDR with SNI', () => {
    const yaml = se(['1234:1f1:123:123:f816:3eff:feb8:2287/16', '1234:1f1:123:123:f816:3eff:febf:57ce/32'], 'TLS', true);
    it('IP and SNI match: longer IP', () => {
      expect(run(yaml, { tls: 'tls', sni: 'blah2.somedomain', address: '1234:1f1:123:123:f816:3eff:febf:57ce' })).toMatchObject({
        listener: '0.0.0.0_9999',
        cluster: 'outbound|9999||blah2.somedomain',
      });
    });
    // Istio's call gives an SNI without TLS (its simulator matches server_names on whatever SNI the call names);
    // Envoy reads an SNI only from a TLS ClientHello, so the call here is TLS — and plaintext finds no chain.
    it('IP and SNI match: shorter IP', () => {
      expect(run(yaml, { tls: 'tls', sni: 'blah1.somedomain', address: '1234::1' })).toMatchObject({
        listener: '0.0.0.0_9999',
        cluster: 'outbound|9999||blah1.somedomain',
      });
      expect(run(yaml, { sni: 'blah1.somedomain', address: '1234::1' })).toMatchObject({ cluster: 'PassthroughCluster' });
    });
    it('Mismatch IP and SNI match: longer IP (istio/istio#52235, as Istio records it)', () => {
      expect(run(yaml, { tls: 'tls', sni: 'blah1.somedomain', address: '1234:1f1:123:123:f816:3eff:febf:57ce' })).toMatchObject({
        listener: '0.0.0.0_9999',
        cluster: 'PassthroughCluster',
      });
    });
    it('Mismatch IP and SNI match: shorter IP', () => {
      expect(run(yaml, { tls: 'tls', sni: 'blah2.somedomain', address: '1234::1' })).toMatchObject({
        listener: '0.0.0.0_9999',
        cluster: 'PassthroughCluster',
      });
    });
    it('one filter chain per prefix on the shared listener, each with its SNI', () => {
      expect(chains(yaml)).toEqual([
        { prefix: '1234:1f1:123:123:f816:3eff:feb8:2287/16', sni: ['blah1.somedomain'], cluster: 'outbound|9999||blah1.somedomain' },
        { prefix: '1234:1f1:123:123:f816:3eff:febf:57ce/32', sni: ['blah2.somedomain'], cluster: 'outbound|9999||blah2.somedomain' },
      ]);
    });
  });

  describe('partial overlap of IP (istio/istio#52847)', () => {
    const yaml = [
      entry('se1', 'blah1.somedomain', ['1.1.1.1'], 'TCP'),
      entry('se2', 'blah2.somedomain', ['2.2.2.2', '1.1.1.1'], 'TCP'),
    ].join('---\n');
    it('unique IP', () => {
      expect(run(yaml, { address: '2.2.2.2' })).toMatchObject({ listener: '2.2.2.2_9999', cluster: 'outbound|9999||blah2.somedomain' });
    });
    it('shared IP', () => {
      expect(run(yaml, { address: '1.1.1.1' })).toMatchObject({ listener: '1.1.1.1_9999', cluster: 'outbound|9999||blah1.somedomain' });
    });
  });
});
