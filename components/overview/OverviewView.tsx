'use client';
// Mesh overview: counts, source banner, the config-derived graph (filterable, URL state), its routes as a
// table, and the located input errors.
import { useRouter } from 'next/navigation';
import { useUrlState } from '@/components/common/useUrlState';
import { useCallback, useMemo } from 'react';
import type { ErrorsResponse } from '@/server/api/contract';
import { useMeshGraph } from '@/components/data/useMeshGraph';
import { useInputErrors } from '@/components/data/useProxies';
import { ProblemsTable } from '@/components/common/ProblemsTable';
import { collapseGraph, expandedFor, shouldCollapse } from '@/components/graph/collapse';
import { toElements, type NodeData } from '@/components/graph/elements';
import { filterGraph, filterToParams, kindsOf, namespacesOf, parseFilter, type GraphFilter } from '@/components/graph/filter';
import { MeshGraphCanvas } from '@/components/graph/GraphClient';
import { useRecentlyChanged } from '@/components/layout/LiveContext';
import { SourceBanner } from '@/components/layout/SourceBanner';
import type { Finding, GatewayApiResponse } from '@/server/api/contract';
import type { GraphType, TypedGraph } from '@/server/meshGraph/graphType';
import { nodeId } from '@/server/meshGraph/ids';
import { AmbientPanel } from './AmbientPanel';
import { CollapseBar } from './CollapseBar';
import { type ContractsSummary, ContractsLine } from './ContractsLine';
import { CountsBar } from './CountsBar';
import { FindingsPanel } from './FindingsPanel';
import { GatewayApiPanel } from './GatewayApiPanel';
import { UnappliedEnvoyFilters } from '@/components/envoyfilter/UnappliedEnvoyFilters';
import { GraphToolbar } from './GraphToolbar';
import { GraphTypeSwitch, graphTypeOfParams, withGraphType } from './GraphTypeSwitch';
import { routeRows, RoutesList } from './RoutesList';

export function OverviewView({
  initialGraph,
  initialErrors,
  initialFindings,
  initialGatewayApi,
  contracts,
}: {
  /** The server render's graph (of the type in the page URL). */
  initialGraph: TypedGraph;
  initialErrors: ErrorsResponse;
  /** `meshscope analyze` findings (GET /api/analyze), when the page passes them. */
  initialFindings?: readonly Finding[];
  /** Gateway API objects and their status (GET /api/gateway-api), when the page passes them. */
  initialGatewayApi?: GatewayApiResponse;
  /** `serve --contracts FILE` results on the live mesh, when a file is loaded. */
  contracts?: ContractsSummary;
}) {
  const { params, write } = useUrlState();
  const graphType = graphTypeOfParams(params);
  const errors = useInputErrors(initialErrors).data ?? initialErrors;
  // With a Prometheus source (serve --prometheus), the edges carry observed traffic.
  const traffic = errors.sources.some((s) => (s.kind as string) === 'prometheus');
  const fetched = useMeshGraph(graphType, initialGraph, traffic).data;
  // While another type (or the observed traffic) loads, the graph drawn so far stays (never an empty frame).
  const graph = fetched ?? initialGraph;
  const router = useRouter();
  const filter = useMemo(() => parseFilter(params), [params]);
  const setFilter = useCallback((f: GraphFilter) => write(withGraphType(filterToParams(f), graphType)), [write, graphType]);
  const setGraphType = useCallback(
    (t: GraphType) => {
      // Node ids differ between types: a focus does not carry over.
      const { focus: _drop, ...rest } = filter;
      write(withGraphType(filterToParams(rest), t));
    },
    [write, filter],
  );
  const changed = useRecentlyChanged();
  const filtered = useMemo(() => filterGraph(graph, filter), [graph, filter]);
  // Above COLLAPSE_THRESHOLD services + workloads, namespaces not expanded are drawn as one node each.
  const large = useMemo(() => shouldCollapse(filtered), [filtered]);
  const shown = useMemo(
    () => collapseGraph(filtered, expandedFor(filtered, filter.expand ?? [], filter.namespaces)),
    [filtered, filter.expand, filter.namespaces],
  );
  const collapsedNs = useMemo(() => [...shown.collapsed.values()].map((s) => s.namespace), [shown]);
  const elements = useMemo(() => toElements(shown), [shown]);
  // Recently changed proxies: their own nodes, or (graph types) the nodes standing for them.
  const highlight = useMemo(
    () => [
      ...[...changed].map((id) => nodeId.proxy(id)),
      ...(changed.size ? graph.nodes.filter((n) => n.proxyIds?.some((p) => changed.has(p))).map((n) => n.id) : []),
    ],
    [changed, graph],
  );
  const rows = useMemo(() => routeRows(filtered.edges, filtered.nodes), [filtered]);
  const focusNode = filter.focus ? graph.nodes.find((n) => n.id === filter.focus) : undefined;

  const onNodeTap = useCallback(
    (n: NodeData) => {
      if (n.href) return router.push(n.href);
      if (n.collapsed) return setFilter({ ...filter, expand: [...(filter.expand ?? []), n.label.split('\n')[0]!] });
      if (n.kind === 'namespace') return setFilter({ ...filter, namespaces: [n.label.split('\n')[0]!] });
      const { focus: current, ...rest } = filter;
      setFilter(current === n.id ? rest : { ...rest, focus: n.id });
    },
    [router, filter, setFilter],
  );

  return (
    <>
      <h1>Mesh overview</h1>
      <SourceBanner sources={errors.sources} xds={errors.xds} errorCount={errors.errors.length} version={graph.version} />
      <CountsBar counts={graph.counts} />
      {contracts ? <ContractsLine summary={contracts} /> : null}
      {graph.nodes.length === 0 ? (
        <p className="empty" data-testid="graph-empty">
          The inputs define no namespaces, services or workloads yet. Start meshscope with <code>meshscope serve --config DIR</code>{' '}
          (Kubernetes and Istio YAML) or against a cluster with <code>--kubeconfig</code>; input problems are listed below.
        </p>
      ) : (
        <section className="panel">
          <GraphTypeSwitch value={graphType} onChange={setGraphType} />
          <GraphToolbar
            filter={filter}
            namespaces={namespacesOf(graph)}
            kinds={kindsOf(graph)}
            onChange={setFilter}
            {...(focusNode ? { focusLabel: focusNode.hostname ?? focusNode.label } : {})}
          />
          {large ? (
            <CollapseBar
              graph={filtered}
              collapsed={collapsedNs}
              expand={filter.expand ?? []}
              onExpand={(expand) => setFilter({ ...filter, expand })}
            />
          ) : null}
          {filtered.nodes.length === 0 ? (
            <p className="empty" data-testid="graph-filtered-empty">
              Nothing matches this filter.{' '}
              <button
                type="button"
                className="linklike"
                onClick={() => setFilter({ namespaces: [], hiddenKinds: [], edgeKinds: filter.edgeKinds })}
              >
                Show everything
              </button>
            </p>
          ) : (
            <MeshGraphCanvas elements={elements} onNodeTap={onNodeTap} highlight={highlight} />
          )}
          <p className="graph-legend">
            <span>
              <span className="swatch" />
              VirtualService route (width = share of a split)
            </span>
            <span>
              <span className="swatch fault" />
              route with fault injection
            </span>
            <span>
              <span className="swatch mirror" />
              mirror
            </span>
            <span>
              <span className="swatch default" />
              default route
            </span>
            <span>
              <span className="swatch endpoint" />
              service → pod (endpoint)
            </span>
            <span>
              click a proxy to open it, a service or workload to focus it, a namespace to filter by it (a collapsed namespace to expand it)
            </span>
          </p>
        </section>
      )}
      {graph.nodes.length > 0 ? (
        <section className="panel">
          <h2>Routes in view</h2>
          <RoutesList rows={rows} />
        </section>
      ) : null}
      {graph.ambient ? <AmbientPanel ambient={graph.ambient} /> : null}
      {initialGatewayApi ? <GatewayApiPanel initial={initialGatewayApi} /> : null}
      <UnappliedEnvoyFilters />
      {initialFindings ? (
        <section className="panel" id="findings">
          <FindingsPanel findings={initialFindings} />
        </section>
      ) : null}
      <section className="panel" id="input-errors">
        {errors.errors.length === 0 ? (
          <p className="muted">No input errors.</p>
        ) : (
          <ProblemsTable problems={errors.errors} caption="Input errors" />
        )}
      </section>
    </>
  );
}
