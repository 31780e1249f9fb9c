// GET /api/graph?traffic=1[&window=S]: the overview graph with observed traffic on its config-derived
// route edges (server/prometheus/observed.ts) and a `traffic` line saying where it came from. The graph
// never fails because of Prometheus: without it, or while it does not answer, the edges carry no
// `observed` and `traffic.error` says why (the traffic views degrade, nothing else).
import type { MeshGraph } from '../meshGraph/graph';
import { attachObserved, type ObservedMeshEdge, observedTraffic } from '../prometheus/observed';
import type { PrometheusSource } from '../prometheus/source';
import { NO_PROMETHEUS, parseWindow } from './traffic';
import { fail, ok, type ApiContext, type ApiResult } from './types';

export interface GraphTraffic {
  source: { kind: 'prometheus'; url: string; state: 'connected' | 'failing' } | null;
  windowSeconds: number;
  queries: string[];
  error?: string;
}

export type GraphWithTraffic = Omit<MeshGraph, 'edges'> & { edges: ObservedMeshEdge[]; traffic: GraphTraffic };

export async function graphWithTraffic(
  ctx: ApiContext,
  prom: PrometheusSource | undefined,
  params: URLSearchParams,
  base: MeshGraph,
): Promise<ApiResult<GraphWithTraffic | { error: string }>> {
  const window = parseWindow(params.get('window'));
  if (typeof window === 'string') return fail(400, window);
  if (!prom) return ok({ ...base, traffic: { source: null, windowSeconds: window, queries: [], error: NO_PROMETHEUS } });
  try {
    const { query, edges } = await observedTraffic(prom, ctx.snapshot, window, ctx.options.domainSuffix);
    const graph = attachObserved(base, ctx.snapshot, edges);
    return ok({
      ...graph,
      traffic: { source: { kind: 'prometheus', url: prom.url, state: 'connected' }, windowSeconds: window, queries: [query] },
    });
  } catch (e) {
    return ok({
      ...base,
      traffic: {
        source: { kind: 'prometheus', url: prom.url, state: prom.connected ? 'connected' : 'failing' },
        windowSeconds: window,
        queries: [],
        error: `Prometheus at ${prom.url}: ${(e as Error).message}`,
      },
    });
  }
}
