'use client';
// The overview's graph type (Kiali's graph types over the config graph, server/meshGraph/graphType.ts):
// a segmented switch, and its URL form `?graphType=` (absent = the default, versionedApp).
import { DEFAULT_GRAPH_TYPE, GRAPH_TYPES, type GraphType, isGraphType } from '@/server/meshGraph/graphType';

export const GRAPH_TYPE_LABEL: Record<GraphType, string> = {
  versionedApp: 'versioned app',
  app: 'app',
  workload: 'workload',
  service: 'service',
  proxy: 'per proxy',
};

const GRAPH_TYPE_TITLE: Record<GraphType, string> = {
  versionedApp: 'one node per workload, named by version and boxed by app; one edge per caller and service carrying the split',
  app: 'one node per app (all its versions); one edge per app and service',
  workload: 'one node per workload; one edge per workload and service',
  service: 'services only: service → service through the workloads behind them',
  proxy: 'one node per proxy, one edge per proxy, VirtualService rule and subset',
};

export const graphTypeOfParams = (params: Pick<URLSearchParams, 'get'>): GraphType => {
  const v = params.get('graphType');
  return isGraphType(v) ? v : DEFAULT_GRAPH_TYPE;
};

/** `params` with the graph type set (omitted when it is the default). */
export function withGraphType(params: URLSearchParams, type: GraphType): URLSearchParams {
  const p = new URLSearchParams(params);
  if (type === DEFAULT_GRAPH_TYPE) p.delete('graphType');
  else p.set('graphType', type);
  return p;
}

export function GraphTypeSwitch({ value, onChange }: { value: GraphType; onChange: (t: GraphType) => void }) {
  return (
    <fieldset className="toolbar graph-type" data-testid="graph-type">
      <legend>graph</legend>
      {GRAPH_TYPES.map((t) => (
        <button
          key={t}
          type="button"
          className="chip"
          data-graph-type={t}
          aria-pressed={value === t}
          title={GRAPH_TYPE_TITLE[t]}
          onClick={() => onChange(t)}
        >
          {GRAPH_TYPE_LABEL[t]}
        </button>
      ))}
    </fieldset>
  );
}
