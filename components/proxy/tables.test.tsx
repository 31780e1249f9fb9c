// The proxy page tables rendered (server-side, no browser) from a real Envoy dump's rows.
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { tablesFromConfigDump } from '@/server/api/summary/index';
import { configDumpFixture } from '@/server/testing/paths';
import { ClustersTable } from './ClustersTable';
import { EndpointsTable } from './EndpointsTable';
import { ListenersTable } from './ListenersTable';
import { RoutesTable } from './RoutesTable';

const tables = (name: string) => tablesFromConfigDump(JSON.parse(readFileSync(configDumpFixture(name), 'utf8')));

describe('proxy tables', () => {
  it('routes: route config → virtual host domains → route match and target cluster', () => {
    const html = renderToStaticMarkup(<RoutesTable routes={tables('gateway-routes-config_dump.json').routes} />);
    expect(html).toContain('http.8080');
    expect(html).toContain('httpbin.example.com:80');
    expect(html).toContain('prefix /get');
    expect(html).toContain('outbound|8000||httpbin.default.svc.cluster.local');
  });

  it('routes: weighted clusters show their share in percent', () => {
    const html = renderToStaticMarkup(
      <RoutesTable
        routes={[
          {
            name: '9080',
            virtualHosts: [
              {
                name: 'reviews.default.svc.cluster.local:9080',
                domains: ['reviews.default.svc.cluster.local'],
                routes: [{ match: 'prefix /', action: 'route', details: [], clusters: [{ name: 'a', weight: 80, percent: 80 }, { name: 'b', weight: 20, percent: 20 }] }],
              },
            ],
          },
        ]}
      />,
    );
    expect(html).toMatch(/a<span class="weight"> 80%<\/span>/);
    expect(html).toMatch(/b<span class="weight"> 20%<\/span>/);
  });

  it('listeners, clusters and endpoints: one row per chain / cluster / endpoint', () => {
    const side = tables('sidecar-config_dump.json');
    const l = renderToStaticMarkup(<ListenersTable listeners={side.listeners} />);
    expect(l.match(/<tr class="group-start">/g)).toHaveLength(3);
    expect(l).toContain('0.0.0.0:15008');
    expect(l).toContain('TCP → <span class="mono">connect_originate</span>');
    const c = renderToStaticMarkup(<ClustersTable clusters={side.clusters} />);
    expect(c.match(/<tr /g)).toHaveLength(side.clusters.length);
    const eps = tables('endpoints-config_dump.json').endpoints;
    const e = renderToStaticMarkup(<EndpointsTable endpoints={eps} />);
    expect(e).toContain('10.244.0.192:9080');
    expect(e.match(/<tr class="group-(start|cont)">/g)).toHaveLength(eps.reduce((n, x) => n + Math.max(1, x.endpoints.length), 0));
  });
});
