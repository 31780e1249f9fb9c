'use client';
// "Trace a request": the form (state in the URL: ?tab=trace&host=reviews:9080&path=/reviews/1&h=end-user:jason),
// the simulator's answer hop by hop (POST /api/simulate with the proxy id, or with the uploaded dump), and
// the traced virtual host on the route graph with the path highlighted and the rejected routes marked.
import { useMemo, useState } from 'react';
import { useSimulation } from '@/components/data/useSimulation';
import { buildRouteGraph } from '@/components/routeGraph/model/build';
import { traceFilter, tracePath } from '@/components/routeGraph/model/trace';
import { RouteGraphView } from '@/components/routeGraph/RouteGraphView';
import { useUrlState } from '@/components/common/useUrlState';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { AmbientHops } from './AmbientHops';
import { HopList } from './HopList';
import { defaultMode, formFromParams, formToParams, formToRequest, hasTrace, type TraceForm } from './model/form';
import { traceView } from './model/hops';
import { TraceFormView } from './TraceFormView';
import './trace.css';

export interface TraceTabProps {
  /** `POD.NS` for a mesh proxy; null for an uploaded config dump. */
  proxyId: string | null;
  /** The proxy's config_dump JSON (envoy.admin.v3.ConfigDump). */
  dump: unknown;
}

export function TraceTab({ proxyId, dump }: TraceTabProps) {
  const read = useMemo(() => readConfigDump(dump), [dump]);
  const graph = useMemo(() => buildRouteGraph(read.config), [read]);
  const mode = defaultMode(read.config);
  const { params, write } = useUrlState();
  const form = formFromParams(params, mode);
  const active = hasTrace(params);
  const built = active ? formToRequest(form) : undefined;
  const sim = useSimulation({ proxyId, dump }, built?.request);
  const [selected, setSelected] = useState<string>();

  const result = sim.data;
  const path = useMemo(() => (result ? tracePath(graph, result) : undefined), [graph, result]);
  const filter = useMemo(() => (result ? traceFilter(result) : {}), [result]);
  const vhId = path ? graph.nodes.find((n) => n.kind === 'virtualHost' && path.nodes.has(n.id))?.id : undefined;
  const routeNode = (i: number) => graph.nodes.find((n) => n.kind === 'route' && n.virtualHostId === vhId && n.routeIndex === i);
  const routeLabel = (i: number) => routeNode(i)?.label.replace(/^#\d+ /, '');

  const submit = (f: TraceForm) => {
    setSelected(undefined);
    const next = formToParams(f, params, mode);
    // An empty host and port would mean "no trace": keep the request explicit.
    if (!next.get('host') && !next.get('port')) next.set('port', String(formToRequest(f).request?.port ?? 80));
    write(next, true);
  };

  return (
    <section className="panel trace" data-testid="trace-tab">
      <TraceFormView
        key={params.toString()}
        initial={form}
        onSubmit={submit}
        {...(built?.error ? { error: built.error } : {})}
        busy={sim.isFetching}
      />
      {!active ? (
        <p className="muted" data-testid="trace-empty">
          Describe a request and press Trace to see where this proxy sends it: listener, filter chain, route configuration, virtual host,
          route, cluster(s) and endpoints, with every candidate it passed over and why. The form is kept in the URL, so a trace is a link
          you can share.
        </p>
      ) : null}
      {sim.error ? (
        <p className="error-text" data-testid="trace-request-error">
          The simulation failed: {sim.error.message}
        </p>
      ) : null}
      {result ? (
        <div className="trace-body">
          {result.ambient ? <AmbientHops trace={result.ambient} /> : null}
          <HopList view={traceView(result, built?.request?.tls)} routeLabel={routeLabel} onRoute={(i) => setSelected(routeNode(i)?.id)} />
          {path && path.nodes.size > 0 ? (
            <div className="trace-graph">
              <h3>On the route graph</h3>
              <RouteGraphView
                graph={graph}
                filter={filter}
                {...(selected ? { selected } : {})}
                onSelect={setSelected}
                trace={path}
                proxyId={proxyId}
                height={420}
              />
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
