'use client';
// The route graph with its filter bar, the routes it shows as a list, and the selected node's details.
// Presentational: the graph, filter, selection and trace come in as props (RouteGraphTab keeps them in the
// URL; TraceTab derives them from a trace). The canvas is browser-only (next/dynamic, ssr:false).
import dynamic from 'next/dynamic';
import { useMemo } from 'react';
import { type DiffMarks, toElements } from './model/elements';
import { filterChoices, filterGraph } from './model/filter';
import type { TracePath } from './model/trace';
import type { GraphFilter, RouteGraph } from './model/types';
import type { PatchRef } from '@/components/envoyfilter/patchMarks';
import { NodeDetails } from './NodeDetails';
import { RouteList } from './RouteList';
import './routeGraph.css';

const RouteGraphCanvas = dynamic(() => import('./RouteGraphCanvas'), {
  ssr: false,
  loading: () => (
    <div className="route-graph-canvas loading" data-testid="route-graph-loading">
      Laying out the graph…
    </div>
  ),
});

/** Beyond this many nodes the canvas is not drawn (the list and filters still work). */
export const MAX_DRAWN_NODES = 600;

export interface RouteGraphViewProps {
  graph: RouteGraph;
  filter: GraphFilter;
  /** Omit to hide the filter bar (the trace view fixes its own filter). */
  onFilterChange?: (f: GraphFilter) => void;
  selected?: string;
  onSelect: (id: string | undefined) => void;
  trace?: TracePath;
  proxyId: string | null;
  height?: number;
  /** Sandbox: colour what a draft adds, removes and changes. */
  diff?: DiffMarks;
  /** Nodes an EnvoyFilter patch changed (by node id), with the patches. */
  patched?: ReadonlyMap<string, PatchRef[]>;
}

function FilterBar({ graph, filter, onChange }: { graph: RouteGraph; filter: GraphFilter; onChange: (f: GraphFilter) => void }) {
  const choices = useMemo(() => filterChoices(graph, filter), [graph, filter]);
  const set = (patch: Partial<GraphFilter>, drop: (keyof GraphFilter)[] = []) => {
    const next: GraphFilter = { ...filter, ...patch };
    for (const k of drop) delete next[k];
    for (const [k, v] of Object.entries(next)) if (v === undefined || v === '') delete next[k as keyof GraphFilter];
    onChange(next);
  };
  return (
    <fieldset className="rg-filters" aria-label="Route graph filters">
      <label>
        listener{' '}
        <select
          data-testid="graph-filter-listener"
          value={filter.listener ?? ''}
          onChange={(e) => set({ listener: e.target.value || undefined }, ['routeConfig', 'virtualHost'])}
        >
          <option value="">all ({choices.listeners.length})</option>
          {choices.listeners.map((l) => (
            <option key={l}>{l}</option>
          ))}
        </select>
      </label>
      <label>
        route config{' '}
        <select
          data-testid="graph-filter-rc"
          value={filter.routeConfig ?? ''}
          onChange={(e) => set({ routeConfig: e.target.value || undefined }, ['virtualHost'])}
        >
          <option value="">all ({choices.routeConfigs.length})</option>
          {choices.routeConfigs.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      <label>
        virtual host{' '}
        <select
          data-testid="graph-filter-vh"
          value={filter.virtualHost ?? ''}
          onChange={(e) => set({ virtualHost: e.target.value || undefined })}
        >
          <option value="">all ({choices.virtualHosts.length})</option>
          {choices.virtualHosts.map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </label>
      <label>
        port{' '}
        <input
          type="number"
          min={0}
          max={65535}
          className="rg-port"
          data-testid="graph-filter-port"
          value={filter.port ?? ''}
          onChange={(e) => set({ port: e.target.value === '' ? undefined : Number(e.target.value) })}
        />
      </label>
      <label>
        find{' '}
        <input
          type="search"
          data-testid="graph-filter-text"
          placeholder="host, cluster, VirtualService…"
          value={filter.text ?? ''}
          onChange={(e) => set({ text: e.target.value })}
        />
      </label>
      <button type="button" onClick={() => onChange({})} data-testid="graph-filter-clear">
        show all
      </button>
    </fieldset>
  );
}

export function RouteGraphView({
  graph,
  filter,
  onFilterChange,
  selected,
  onSelect,
  trace,
  proxyId,
  height,
  diff,
  patched,
}: RouteGraphViewProps) {
  const shown = useMemo(() => filterGraph(graph, filter), [graph, filter]);
  const elements = useMemo(
    () => toElements(shown, { ...(trace ? { trace } : {}), ...(diff ? { diff } : {}), ...(patched ? { patched } : {}) }),
    [shown, trace, diff, patched],
  );
  const patchedShown = patched ? shown.nodes.filter((n) => patched.has(n.id)).length : 0;
  const node = selected ? graph.nodes.find((n) => n.id === selected) : undefined;
  const shadowed = shown.nodes.filter((n) => n.shadowed).length;
  const tooBig = shown.nodes.length > MAX_DRAWN_NODES;
  return (
    <div
      className="route-graph"
      data-testid="route-graph"
      data-node-count={shown.nodes.length}
      data-shadowed-count={shadowed}
      data-patched-count={patchedShown}
    >
      {onFilterChange ? <FilterBar graph={graph} filter={filter} onChange={onFilterChange} /> : null}
      <p className="muted small rg-summary">
        {shown.nodes.length} of {graph.nodes.length} nodes · listener → route config → virtual host → route → cluster (edge width and % =
        traffic share) → endpoints
        {shadowed ? (
          <span className="rg-shadowed" data-testid="graph-shadowed-count">
            {' '}
            · {shadowed} route{shadowed === 1 ? '' : 's'} can never match (dashed)
          </span>
        ) : null}
        {patchedShown ? (
          <span className="rg-patched" data-testid="graph-patched-count">
            {' '}
            · {patchedShown} changed by EnvoyFilter patches (double border; select one for the patch)
          </span>
        ) : null}
      </p>
      {graph.nodes.length === 0 ? (
        <p className="rg-empty" data-testid="graph-empty">
          Nothing to draw: this config has no listeners or route configurations. Sidecars get them once a Service selects their pod; a
          gateway once a Gateway selects it and a VirtualService binds to that Gateway. For an uploaded dump, include its
          ListenersConfigDump and RoutesConfigDump.
        </p>
      ) : shown.nodes.length === 0 ? (
        <p className="rg-empty" data-testid="graph-empty">
          No node matches this filter.{' '}
          {onFilterChange ? (
            <button type="button" className="link" onClick={() => onFilterChange({})}>
              Show everything
            </button>
          ) : null}
        </p>
      ) : tooBig ? (
        <p className="rg-empty" data-testid="graph-too-big">
          {shown.nodes.length} nodes are too many to draw usefully: pick a route configuration or virtual host, or search for a host.
        </p>
      ) : (
        <div className={`rg-main${node ? ' with-details' : ''}`}>
          <RouteGraphCanvas
            elements={elements}
            {...(selected ? { selected } : {})}
            onSelect={(id) => onSelect(id)}
            {...(height ? { height } : {})}
          />
          {node ? (
            <NodeDetails
              graph={graph}
              node={node}
              proxyId={proxyId}
              {...(patched?.get(node.id) ? { patches: patched.get(node.id) } : {})}
              {...(trace
                ? {
                    trace: {
                      onPath: trace.nodes.has(node.id),
                      ...(trace.rejected.has(node.id) ? { rejected: trace.rejected.get(node.id) as string } : {}),
                    },
                  }
                : {})}
              onSelect={(id) => onSelect(id)}
              onClose={() => onSelect(undefined)}
            />
          ) : null}
        </div>
      )}
      {shown.nodes.length > 0 ? (
        <RouteList graph={shown} {...(selected ? { selected } : {})} {...(trace ? { trace } : {})} onSelect={(id) => onSelect(id)} />
      ) : null}
      {tooBig && node ? (
        <NodeDetails
          graph={graph}
          node={node}
          proxyId={proxyId}
          {...(patched?.get(node.id) ? { patches: patched.get(node.id) } : {})}
          onSelect={(id) => onSelect(id)}
          onClose={() => onSelect(undefined)}
        />
      ) : null}
    </div>
  );
}
