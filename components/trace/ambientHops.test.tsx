// AmbientHops rendered on the server from real ambient simulations of Bookinfo (server/simulateMesh/ambient.ts):
// through the waypoint (the HTTPRoute's 90/10) and, without use-waypoint, the bypass with istiod's reason.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { simulateProxy } from '@/server/simulateMesh/simulateProxy';
import { ambientBookinfo } from '@/server/translate/xds/waypoint/testing';
import { AmbientHops } from './AmbientHops';

const run = (useWaypoint: boolean) => {
  const s = ambientBookinfo({ useWaypoint });
  const pp = s.pods.find((p) => p.labels.app === 'productpage')!;
  return simulateProxy(s, `${pp.name}.${pp.namespace}`, { mode: 'outbound', host: 'reviews:9080', port: 9080, path: '/' })!;
};

describe('AmbientHops', () => {
  it('through the waypoint: client ztunnel, the waypoint with its chain and weights, the destination ztunnels', () => {
    const html = renderToStaticMarkup(<AmbientHops trace={run(true).ambient!} />);
    expect(html).toContain('Through waypoint <span class="mono">bookinfo/waypoint</span>');
    expect(html.match(/data-testid="ambient-hop"/g)).toHaveLength(4);
    expect(html).toContain('inbound-vip|9080|http|reviews.bookinfo.svc.cluster.local');
    expect(html).toContain('reviews-v1.bookinfo.svc.cluster.local <span class="weight">90%</span>');
  });
  it('bypassed: the reason and its message', () => {
    const html = renderToStaticMarkup(<AmbientHops trace={run(false).ambient!} />);
    expect(html).toContain('data-testid="ambient-bypass-reason">NoUseWaypoint<');
    expect(html).toContain('no istio.io/use-waypoint label on Service bookinfo/reviews or on namespace bookinfo');
  });
});
