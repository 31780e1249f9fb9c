'use client';
import type { MeshEdgeKind, MeshNodeKind } from '@/server/api/contract';
import { EDGE_KINDS, NODE_KINDS, type GraphFilter } from '@/components/graph/filter';

const EDGE_LABEL: Record<MeshEdgeKind, string> = {
  route: 'VirtualService routes',
  mirror: 'mirrors',
  default: 'default routes',
  endpoint: 'endpoints',
  waypoint: 'waypoints',
};

const KIND_LABEL: Record<MeshNodeKind, string> = {
  namespace: 'namespaces',
  service: 'services',
  app: 'apps',
  workload: 'workloads',
  proxy: 'proxies',
  pod: 'pods without proxy',
};

const toggle = <T,>(list: readonly T[], x: T): T[] => (list.includes(x) ? list.filter((y) => y !== x) : [...list, x]);

export function GraphToolbar({
  filter,
  namespaces,
  kinds = NODE_KINDS,
  focusLabel,
  onChange,
}: {
  filter: GraphFilter;
  namespaces: readonly string[];
  /** Node kinds the graph has (the graph type decides): only those are offered; absent: all. */
  kinds?: readonly MeshNodeKind[];
  focusLabel?: string;
  onChange: (f: GraphFilter) => void;
}) {
  return (
    <div className="toolbar" data-testid="graph-toolbar">
      <fieldset data-testid="ns-filter">
        <legend>namespace</legend>
        <button
          type="button"
          className="chip"
          aria-pressed={filter.namespaces.length === 0}
          onClick={() => onChange({ ...filter, namespaces: [] })}
        >
          all
        </button>
        {namespaces.map((ns) => (
          <button
            key={ns}
            type="button"
            className="chip"
            data-ns={ns}
            aria-pressed={filter.namespaces.includes(ns)}
            onClick={() => onChange({ ...filter, namespaces: toggle(filter.namespaces, ns) })}
          >
            {ns}
          </button>
        ))}
      </fieldset>
      <fieldset data-testid="kind-filter">
        <legend>show</legend>
        {NODE_KINDS.filter((k) => kinds.includes(k) || filter.hiddenKinds.includes(k)).map((k: MeshNodeKind) => (
          <button
            key={k}
            type="button"
            className="chip"
            data-kind={k}
            aria-pressed={!filter.hiddenKinds.includes(k)}
            onClick={() => onChange({ ...filter, hiddenKinds: toggle(filter.hiddenKinds, k) })}
          >
            {KIND_LABEL[k]}
          </button>
        ))}
      </fieldset>
      <fieldset data-testid="edge-filter">
        <legend>edges</legend>
        {EDGE_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            className="chip"
            data-edge={k}
            aria-pressed={filter.edgeKinds.includes(k)}
            onClick={() => onChange({ ...filter, edgeKinds: toggle(filter.edgeKinds, k) })}
          >
            {EDGE_LABEL[k]}
          </button>
        ))}
      </fieldset>
      {filter.focus ? (
        <span data-testid="focus">
          focused on <strong>{focusLabel ?? filter.focus}</strong>{' '}
          <button
            type="button"
            className="linklike"
            onClick={() => {
              const { focus: _drop, ...rest } = filter;
              onChange(rest);
            }}
          >
            clear
          </button>
        </span>
      ) : null}
    </div>
  );
}
