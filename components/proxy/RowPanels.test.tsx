// Route and cluster panels rendered on the server (no browser): what they show without a mesh (an
// uploaded dump) and for a route without provenance.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { clusterRows, routeRows } from '@/server/envoy/dumpModel/rows';
import { ClusterPanel, RoutePanel } from './RowPanels';

const wrap = (n: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{n}</QueryClientProvider>);
const VS = '/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews';
const [weighted, plain] = routeRows([
  {
    name: '9080',
    virtual_hosts: [
      {
        name: 'reviews.default.svc.cluster.local:9080',
        domains: ['reviews.default.svc.cluster.local'],
        routes: [
          {
            match: { prefix: '/' },
            route: {
              weighted_clusters: {
                clusters: [
                  { name: 'outbound|9080|v1|reviews.default.svc.cluster.local', weight: 75 },
                  { name: 'outbound|9080|v2|reviews.default.svc.cluster.local', weight: 25 },
                ],
              },
            },
            metadata: { filter_metadata: { istio: { config: VS } } },
          },
          { name: 'default', match: { prefix: '/' }, route: { cluster: 'PassthroughCluster' } },
        ],
      },
    ],
  },
]);

describe('RoutePanel', () => {
  it('weighted clusters with their share, and the source path for an uploaded dump (no mesh to ask)', () => {
    const html = wrap(<RoutePanel row={weighted!} proxyId={null} onClose={() => {}} />);
    expect(html).toContain('outbound|9080|v1|reviews.default.svc.cluster.local <span class="weight">75%</span>');
    expect(html).toContain('<span class="weight">25%</span>');
    expect(html).toContain(VS);
    expect(html).toContain('this dump was uploaded');
  });

  it('a route without provenance says where it came from', () => {
    const html = wrap(<RoutePanel row={plain!} proxyId="p.default" onClose={() => {}} />);
    expect(html).toContain('No provenance metadata');
    expect(html).toContain('Route #1 <span class="mono">default</span>');
  });

  it('a mesh route starts loading its VirtualService', () => {
    expect(wrap(<RoutePanel row={weighted!} proxyId="p.default" onClose={() => {}} />)).toContain(`Loading ${VS}`);
  });
});

describe('ClusterPanel', () => {
  it('shows the cluster JSON', () => {
    const [c] = clusterRows([{ name: 'outbound|9080|v1|reviews.default.svc.cluster.local', type: 'EDS' }]);
    const html = wrap(<ClusterPanel row={c!} proxyId={null} onClose={() => {}} />);
    expect(html).toContain('&quot;type&quot;: &quot;EDS&quot;');
  });
});
