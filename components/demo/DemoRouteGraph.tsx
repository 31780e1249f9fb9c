'use client';
// The route graph on /demo: the calling proxy's config as the proxy page draws it, narrowed to the chosen
// service's virtual host, so a weight change is seen in the config (edge labels) beside the traffic that
// follows it. Refetched like the proxy page, when a mesh event names the proxy.
import { useMemo, useState } from 'react';
import { useProxy } from '@/components/data/useProxy';
import { buildRouteGraph } from '@/components/routeGraph/model/build';
import { RouteGraphView } from '@/components/routeGraph/RouteGraphView';
import { readConfigDump } from '@/server/envoy/dumpReader';

export function DemoRouteGraph({ proxyId, host, port }: { proxyId: string; host: string; port: number }) {
  const proxy = useProxy(proxyId);
  const dump = proxy.data?.configDump;
  const graph = useMemo(() => (dump ? buildRouteGraph(readConfigDump(dump).config) : undefined), [dump]);
  const [selected, setSelected] = useState<string>();
  const filter = useMemo(() => ({ routeConfig: String(port), virtualHost: `${host}:${port}` }), [host, port]);
  return (
    <section className="panel" aria-label="route graph" data-testid="demo-route-graph">
      <h2>
        Route graph <span className="muted small">as {proxyId} is configured</span>
      </h2>
      {graph ? (
        <RouteGraphView graph={graph} filter={filter} selected={selected} onSelect={setSelected} proxyId={proxyId} height={320} />
      ) : (
        <p className="muted small">{proxy.isError ? `could not load ${proxyId}` : 'loading…'}</p>
      )}
    </section>
  );
}
