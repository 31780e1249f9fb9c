// Route and cluster panels rendered on the server (no browser): what they show without a mesh (an
// uploaded dump), for a route without provenance, and the rule translation recorded for a mesh route.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { detailKeys } from '@/components/data/proxyDetailData';
import { queryKeys } from '@/components/data/queryKeys';
import type { RouteProvenance } from '@/server/api/contract';
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

describe('RoutePanel rule from provenance', () => {
  // The panel reads the proxy detail already in the query cache (translation's provenance), never counts routes.
  const withData = (provenance: RouteProvenance[], objects: Record<string, unknown>) => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.proxy('p.default'), { provenance });
    for (const [path, spec] of Object.entries(objects))
      client.setQueryData(detailKeys.config(path), {
        path,
        version: 1,
        object: { kind: 'VirtualService', metadata: { namespace: path.split('/')[5], name: path.split('/')[7] }, spec },
        origin: { source: 'file', file: 'vs.yaml' },
      });
    return (n: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={client}>{n}</QueryClientProvider>);
  };
  const at = { routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080', index: 0 };

  it('names spec.http[i].match[j] and shows that rule', () => {
    const render = withData(
      [{ ...at, source: { kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[1]', match: 0 } }],
      {
        [VS]: {
          http: [
            { route: [{ destination: { host: 'a' } }] },
            { match: [{ uri: { prefix: '/x' } }], route: [{ destination: { host: 'marker-host' } }] },
          ],
        },
      },
    );
    const html = render(<RoutePanel row={weighted!} proxyId="p.default" onClose={() => {}} />);
    expect(html).toContain('spec.http[1]</span><span class="mono">.match[0]');
    expect(html).toContain('marker-host');
    expect(html).toContain('from translation');
  });

  it('a delegated route names the delegate rule and shows it', () => {
    const DELEGATE = '/apis/networking.istio.io/v1/namespaces/team/virtual-service/users';
    const render = withData(
      [
        {
          ...at,
          source: {
            kind: 'VirtualService',
            namespace: 'default',
            name: 'reviews',
            rule: 'http[0]',
            delegate: { namespace: 'team', name: 'users', rule: 'http[1]' },
          },
        },
      ],
      {
        [VS]: { http: [{ delegate: { name: 'users', namespace: 'team' } }] },
        [DELEGATE]: { http: [{ route: [{ destination: { host: 'first' } }] }, { route: [{ destination: { host: 'delegate-marker' } }] }] },
      },
    );
    const html = render(<RoutePanel row={weighted!} proxyId="p.default" onClose={() => {}} />);
    expect(html).toContain('team/users spec.http[1]');
    expect(html).toContain('delegate-marker');
    expect(html).not.toContain('host: first');
  });

  it('a route translation recorded nothing for shows no rule', () => {
    const render = withData([], { [VS]: { http: [{ route: [{ destination: { host: 'a' } }] }] } });
    expect(render(<RoutePanel row={weighted!} proxyId="p.default" onClose={() => {}} />)).not.toContain('data-testid="source-rule"');
  });
});

describe('ClusterPanel', () => {
  it('shows the cluster JSON', () => {
    const [c] = clusterRows([{ name: 'outbound|9080|v1|reviews.default.svc.cluster.local', type: 'EDS' }]);
    const html = wrap(<ClusterPanel row={c!} proxyId={null} onClose={() => {}} />);
    expect(html).toContain('&quot;type&quot;: &quot;EDS&quot;');
  });
});
