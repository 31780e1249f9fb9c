// Route graph components rendered on the server (the cytoscape canvas is browser-only; these check the
// filter bar, the route list with shadowed routes and the node details).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import { buildRouteGraph, nodeIds } from './model/build';
import { NodeDetails } from './NodeDetails';
import { RouteGraphView } from './RouteGraphView';

const wrap = (n: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{n}</QueryClientProvider>);
const VS = { filter_metadata: { istio: { config: '/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews' } } };
const config: EnvoyConfig = {
  listeners: [],
  routes: [
    {
      name: '9080',
      virtual_hosts: [
        {
          name: 'reviews:9080',
          domains: ['reviews'],
          routes: [
            {
              match: { prefix: '/' },
              route: {
                weighted_clusters: {
                  clusters: [
                    { name: 'outbound|9080|v1|reviews', weight: 90 },
                    { name: 'outbound|9080|v2|reviews', weight: 10 },
                  ],
                },
              },
              metadata: VS,
            },
            { match: { prefix: '/admin' }, route: { cluster: 'outbound|9080|v3|reviews' }, metadata: VS },
          ],
        },
      ],
    },
  ],
  clusters: [],
  endpoints: [],
};
const graph = buildRouteGraph(config);
const route1 = nodeIds.route(nodeIds.virtualHost(nodeIds.routeConfig('9080'), 0), 1);

describe('RouteGraphView', () => {
  it('lists routes with their split and marks the one after the catch-all as never matching', () => {
    const html = wrap(
      <RouteGraphView graph={graph} filter={{}} onFilterChange={() => undefined} onSelect={() => undefined} proxyId={null} />,
    );
    expect(html).toContain('data-shadowed-count="1"');
    expect(html).toContain('outbound|9080|v1|reviews<span class="weight"> 90%</span>');
    expect(html).toMatch(/data-node-id="[^"]*\/1" data-status="shadowed"/);
    expect(html).toContain('route #0 before it is a catch-all');
    expect(html).toContain('data-testid="graph-filter-rc"');
  });

  it('an empty config says what to do', () => {
    const html = wrap(<RouteGraphView graph={{ nodes: [], edges: [] }} filter={{}} onSelect={() => undefined} proxyId={null} />);
    expect(html).toContain('data-testid="graph-empty"');
    expect(html).toContain('Nothing to draw');
  });
});

describe('NodeDetails', () => {
  it('a shadowed route: the reason, its source VirtualService (uploaded dump: no fetch), its JSON', () => {
    const node = graph.nodes.find((n) => n.id === route1)!;
    const html = wrap(<NodeDetails graph={graph} node={node} proxyId={null} onSelect={() => undefined} onClose={() => undefined} />);
    expect(html).toContain('data-testid="graph-shadowed-reason"');
    expect(html).toContain('VirtualService default/reviews');
    expect(html).toContain('&quot;prefix&quot;: &quot;/admin&quot;');
  });
});
