// Issue #22's speed figure: sidecar translation (translate + the EnvoyFilter stage, buildProxyTable) of a proxy in a
// mesh of N services with 20 EnvoyFilters, against the same mesh without them. Goal: within 1.2×. Median of
// `reps` runs after warm-up, the two meshes interleaved so load changes hit both alike. Not a test.
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../server/model/mesh';
import { buildSnapshot } from '../server/model/snapshot';
import { buildProxyTable } from '../server/pipeline/stages';
import type { RawInput } from '../server/sources/types';
import { generateMesh } from './generateMesh';
import { load1, median, type BenchRow } from './table';

const origin = { source: 'demo' as const, file: 'synthetic-envoyfilters' };

/** 20 EnvoyFilters of the kinds the issue lists, in the root namespace and ns-0, half with selectors. */
export function syntheticEnvoyFilters(count = 20): RawInput[] {
  const patches = [
    {
      applyTo: 'HTTP_FILTER',
      match: {
        context: 'SIDECAR_OUTBOUND',
        listener: {
          filterChain: {
            filter: { name: 'envoy.filters.network.http_connection_manager', subFilter: { name: 'envoy.filters.http.router' } },
          },
        },
      },
      patch: {
        operation: 'INSERT_BEFORE',
        value: {
          name: 'envoy.lua',
          typed_config: {
            '@type': 'type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua',
            inline_code: 'function envoy_on_request(h) end',
          },
        },
      },
    },
    {
      applyTo: 'CLUSTER',
      match: { context: 'SIDECAR_OUTBOUND', cluster: { service: 'svc-1.ns-0.svc.cluster.local' } },
      patch: { operation: 'MERGE', value: { connect_timeout: '0.5s' } },
    },
    {
      applyTo: 'VIRTUAL_HOST',
      match: { context: 'SIDECAR_OUTBOUND', routeConfiguration: { vhost: { name: 'svc-2.ns-0.svc.cluster.local:8080' } } },
      patch: { operation: 'MERGE', value: { response_headers_to_add: [{ header: { key: 'x-a', value: 'b' } }] } },
    },
    {
      applyTo: 'NETWORK_FILTER',
      match: {
        context: 'SIDECAR_INBOUND',
        listener: { filterChain: { filter: { name: 'envoy.filters.network.http_connection_manager' } } },
      },
      patch: {
        operation: 'MERGE',
        value: {
          typed_config: {
            '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
            xff_num_trusted_hops: 1,
          },
        },
      },
    },
  ];
  return Array.from({ length: count }, (_, i) => ({
    origin,
    object: {
      apiVersion: 'networking.istio.io/v1alpha3',
      kind: 'EnvoyFilter',
      metadata: { name: `ef-${i}`, namespace: i % 2 ? 'istio-system' : 'ns-0' },
      spec: { ...(i % 4 === 0 ? { workloadSelector: { labels: { app: 'svc-0' } } } : {}), configPatches: [patches[i % patches.length]] },
    },
  }));
}

function time(reps: number, a: () => unknown, b: () => unknown): { a: number; b: number } {
  for (let i = 0; i < 3; i++) {
    a();
    b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < reps; r++) {
    let t0 = performance.now();
    a();
    ta.push(performance.now() - t0);
    t0 = performance.now();
    b();
    tb.push(performance.now() - t0);
  }
  return { a: median(ta), b: median(tb) };
}

export function benchEnvoyFilters(services: number, reps = 9): BenchRow {
  const plain = buildSnapshot(generateMesh({ services }), { version: 1 });
  const patched = buildSnapshot([...generateMesh({ services }), ...syntheticEnvoyFilters()], { version: 1 });
  const proxyOf = (s: MeshSnapshot): ProxyModel => s.proxies.find((p) => p.type === 'sidecar' && p.labels.app === 'svc-0') as ProxyModel;
  const t = time(
    reps,
    () => buildProxyTable(plain, proxyOf(plain), DEFAULT_OPTIONS),
    () => buildProxyTable(patched, proxyOf(patched), DEFAULT_OPTIONS),
  );
  const applied = buildProxyTable(patched, proxyOf(patched), DEFAULT_OPTIONS).envoyFilters?.filter((r) => r.applied).length ?? 0;
  return {
    figure: 'sidecar translation with 20 EnvoyFilters ÷ without',
    size: `${services} services`,
    value: Number((t.b / t.a).toFixed(2)),
    unit: '×',
    goal: 1.2,
    detail: `${t.b.toFixed(1)} ms with, ${t.a.toFixed(1)} ms without (median of ${reps}); ${applied} of 20 patches applied on the proxy`,
    load: load1(),
  };
}
