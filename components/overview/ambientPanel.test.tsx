// The overview's ambient panel (GET /api/graph's `ambient`, server/meshGraph/ambient), rendered on the server: each
// waypoint links to its proxy page and to the ztunnel page's rows of the Services it serves (ZtunnelView's anchors).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AmbientOverview } from '@/server/api/contract';
import { AmbientPanel } from './AmbientPanel';

const ambient: AmbientOverview = {
  namespaces: ['orders'],
  pods: ['orders/orders-v1-a', 'orders/checkout-v1-b'],
  waypoints: [
    {
      key: 'orders/waypoint',
      address: 'orders/waypoint.orders.svc.cluster.local',
      trafficType: 'service',
      proxies: ['waypoint-x.orders'],
      services: ['orders/orders.orders.svc.cluster.local'],
      workloads: [],
    },
  ],
  pending: [{ key: 'orders/late', reason: 'its status has no address yet' }],
  skipped: [
    {
      kind: 'VirtualService',
      object: 'orders/payments',
      target: 'svc:orders/payments.orders.svc.cluster.local',
      reason: 'NoUseWaypoint',
      message: 'VirtualService orders/payments has no effect for ambient clients: no istio.io/use-waypoint label',
    },
  ],
};

describe('AmbientPanel', () => {
  const html = renderToStaticMarkup(<AmbientPanel ambient={ambient} />);
  it('lists the ambient namespaces and each waypoint with links to its proxy page and its Services on /ztunnel', () => {
    expect(html).toContain('data-testid="ambient-namespace">orders<');
    expect(html).toContain('2 enrolled pods');
    expect(html).toContain('href="/proxies/waypoint-x.orders"');
    expect(html).toContain('href="/ztunnel#svc-orders-orders-orders-svc-cluster-local"');
  });
  it('lists waypoints istiod does not count yet and L7 config no waypoint runs, with the reason', () => {
    expect(html).toContain('Gateway orders/late is not a waypoint yet: its status has no address yet');
    expect(html).toContain('<code>NoUseWaypoint</code>');
    expect(html).toContain('VirtualService orders/payments has no effect for ambient clients');
  });
  it('says so when there is no waypoint', () => {
    expect(renderToStaticMarkup(<AmbientPanel ambient={{ ...ambient, waypoints: [], pending: [], skipped: [] }} />)).toContain(
      'No waypoint: ztunnel carries every enrolled pod',
    );
  });
});
