'use client';
// The proxy page's "Route graph" tab (and the uploaded-dump page's): the whole config as a graph, with
// filter and selected node in the URL (?tab=graph&rc=9080&vh=…&node=…). Large configs start narrowed to
// one route configuration (suggestFilter) so the layout stays readable.
import { useMemo } from 'react';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { buildRouteGraph } from './model/build';
import { suggestFilter } from './model/filter';
import type { GraphFilter } from './model/types';
import { graphStateFromParams, graphStateToParams } from './model/urlState';
import { RouteGraphView } from './RouteGraphView';
import { useUrlState } from '@/components/common/useUrlState';
import { type PatchMarks, patchedNodes } from '@/components/envoyfilter/patchMarks';

export interface RouteGraphTabProps {
  /** `POD.NS` for a mesh proxy; null for an uploaded config dump. */
  proxyId: string | null;
  /** The proxy's config_dump JSON (envoy.admin.v3.ConfigDump). */
  dump: unknown;
  /** Resources EnvoyFilter patches changed (mesh proxies): their nodes are marked, with links to the patches. */
  marks?: PatchMarks;
}

export function RouteGraphTab({ proxyId, dump, marks }: RouteGraphTabProps) {
  const read = useMemo(() => readConfigDump(dump), [dump]);
  const graph = useMemo(() => buildRouteGraph(read.config), [read]);
  const suggested = useMemo(() => suggestFilter(graph), [graph]);
  const patched = useMemo(() => (marks ? patchedNodes(graph.nodes, marks) : undefined), [graph, marks]);
  const { params, write } = useUrlState();
  const state = graphStateFromParams(params);
  const filter: GraphFilter = state.filter ?? suggested;
  const setFilter = (f: GraphFilter) => write(graphStateToParams({ filter: f }, params));
  const select = (id: string | undefined) => write(graphStateToParams({ filter, ...(id ? { node: id } : {}) }, params));
  return (
    <section className="panel" data-testid="route-graph-tab">
      {read.errors.length ? (
        <p className="error-text small" data-testid="graph-dump-errors">
          Parts of the config could not be read: {read.errors.slice(0, 3).join('; ')}
          {read.errors.length > 3 ? ` (and ${read.errors.length - 3} more)` : ''}
        </p>
      ) : null}
      {!state.filter && Object.keys(suggested).length ? (
        <p className="muted small">
          This config is large: showing route configuration {suggested.routeConfig ?? ''} first. Use the filters to see more.
        </p>
      ) : null}
      <RouteGraphView
        graph={graph}
        filter={filter}
        onFilterChange={setFilter}
        {...(state.node ? { selected: state.node } : {})}
        onSelect={select}
        proxyId={proxyId}
        {...(patched?.size ? { patched } : {})}
      />
    </section>
  );
}
