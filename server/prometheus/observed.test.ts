// Observed traffic on the config-derived graph (issue #23 §1) with Kiali's rules: a series' response code
// and error (kiali util.HandleResponseCode, graph.IsHTTPErr / IsGRPCErr), the edge percentage (the edge's
// requests over its source's outgoing requests, common.addEdgeTelemetry), subsets by DestinationRule labels.
import { describe, expect, it } from 'vitest';
import type { MeshGraph } from '../meshGraph/graph';
import type { PodModel } from '../model/mesh';
import { attachObserved, type ObservedMeshEdge, observedEdges } from './observed';
import { isErrorCode, responseCodeOf } from './traffic';

const H = 'products.catalog.svc.cluster.local';
const pod = (name: string, ns: string, owner: string, labels: Record<string, string>) =>
  ({ name, namespace: ns, owner: { kind: 'Deployment', name: owner }, labels }) as unknown as PodModel;
const pods = [
  pod('sf-0', 'shop', 'storefront-v1', { app: 'storefront' }),
  pod('p1-0', 'catalog', 'products-v1', { app: 'products', version: 'v1' }),
  pod('p2-0', 'catalog', 'products-v2', { app: 'products', version: 'v2' }),
];
const drs = [
  {
    meta: { namespace: 'catalog', name: 'products' },
    spec: {
      host: H,
      subsets: [
        { name: 'v1', labels: { version: 'v1' } },
        { name: 'v2', labels: { version: 'v2' } },
      ],
    },
  },
] as never;
const series = (dest: string, value: number, extra: Record<string, string> = {}) => ({
  metric: {
    source_workload: 'storefront-v1',
    source_workload_namespace: 'shop',
    destination_service: H,
    destination_workload: dest,
    destination_workload_namespace: dest === 'unknown' ? 'unknown' : 'catalog',
    request_protocol: 'grpc',
    response_code: '200',
    grpc_response_status: '0',
    response_flags: '-',
    ...extra,
  },
  value,
});
const graph = (edges: MeshGraph['edges']): MeshGraph => ({
  version: 1,
  nodes: [
    { id: 'proxy:sf-0.shop', kind: 'proxy', label: 'sf-0', namespace: 'shop', badges: [] },
    { id: `svc:catalog/${H}`, kind: 'service', label: 'products', namespace: 'catalog', hostname: H, badges: [] },
  ],
  edges,
  counts: {} as never,
});
const edge = (subset: string, percent: number, fault = false) => ({
  id: `route:${subset}`,
  kind: 'route' as const,
  source: 'proxy:sf-0.shop',
  target: `svc:catalog/${H}`,
  label: '',
  percent,
  subset,
  rule: 'http[0]',
  match: 'any',
  ...(fault ? { fault: true } : {}),
});

describe('Kiali response codes and errors', () => {
  it('gRPC: the grpc status unless the HTTP code is 4xx/5xx; 0 → no response (-)', () => {
    expect(responseCodeOf({ request_protocol: 'grpc', response_code: '200', grpc_response_status: '14' })).toBe('14');
    expect(responseCodeOf({ request_protocol: 'grpc', response_code: '503', grpc_response_status: '14' })).toBe('503');
    expect(responseCodeOf({ request_protocol: 'http', response_code: '0' })).toBe('-');
    expect([
      isErrorCode('grpc', '0'),
      isErrorCode('grpc', '14'),
      isErrorCode('grpc', '503'),
      isErrorCode('http', '302'),
      isErrorCode('http', '-'),
    ]).toEqual([false, true, true, false, true]);
  });
});

describe('observed edges on the graph', () => {
  it("maps workloads to subsets; percent is the share of the source workload's outgoing requests", () => {
    const obs = observedEdges(
      [
        series('products-v1', 6),
        series('products-v2', 2),
        series('products-v2', 0, {}),
        {
          ...series('x', 2),
          metric: {
            ...series('x', 2).metric,
            destination_service: 'ratings.catalog.svc.cluster.local',
            destination_workload: 'ratings-v1',
          },
        },
      ],
      { pods, destinationRules: drs },
      'cluster.local',
    );
    const g = attachObserved(graph([edge('v1', 80), edge('v2', 20), edge('v3', 0)]), { pods }, obs);
    const by = (s: string) => (g.edges as ObservedMeshEdge[]).find((e) => e.subset === s)?.observed;
    expect(by('v1')).toEqual({ requestsPerSecond: 6, percent: 60, errorPercent: 0 });
    expect(by('v2')).toEqual({ requestsPerSecond: 2, percent: 20, errorPercent: 0 });
    expect(by('v3')).toEqual({ requestsPerSecond: 0, percent: 0, errorPercent: 0 });
  });

  it('aborted requests (no workload) count as errors on the faulted rule; traffic with no config path is an unconfigured edge', () => {
    const obs = observedEdges(
      [series('products-v2', 5), series('unknown', 5, { response_code: '503', grpc_response_status: '14', response_flags: 'FI' })],
      { pods, destinationRules: drs },
      'cluster.local',
    );
    const g = attachObserved(graph([edge('v2', 100, true)]), { pods }, obs);
    expect(g.edges.find((e) => e.subset === 'v2')?.observed).toEqual({ requestsPerSecond: 10, percent: 100, errorPercent: 50 });
    expect(g.edges.filter((e) => e.unconfigured)).toEqual([]);
    const g2 = attachObserved(
      graph([edge('v2', 100)]),
      { pods },
      observedEdges([series('products-v1', 4), series('products-v2', 4)], { pods, destinationRules: drs }, 'cluster.local'),
    );
    const extra = g2.edges.filter((e) => e.unconfigured);
    expect(extra).toHaveLength(1);
    expect(extra[0]).toMatchObject({
      source: 'proxy:sf-0.shop',
      target: `svc:catalog/${H}`,
      subset: 'v1',
      observed: { requestsPerSecond: 4, percent: 50, errorPercent: 0 },
    });
  });
});
