// Integration: real files → loadPaths → buildSnapshot → buildProxyView → buildSidecarListeners.
// No module of the project is mocked; Bookinfo is Istio's sample as it is.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../../model/mesh';
import { buildSnapshot } from '../../../model/snapshot';
import { loadPaths } from '../../../sources/file/loadPaths';
import { buildProxyView } from '../../view';
import { buildSidecarListeners } from './index';
import { chainNamed, encodeAll, listener, terminal } from './testing';
import { bookinfo } from '../../../testing/paths';

function listenersFor(paths: string[], appLabel: string) {
  const loaded = loadPaths(paths);
  const snap = buildSnapshot(loaded.inputs, { version: 1, extraErrors: loaded.errors });
  const proxy = snap.proxies.find((p) => p.labels.app === appLabel);
  if (!proxy) throw new Error(`no ${appLabel} proxy among ${snap.proxies.map((p) => p.id).join(', ')}`);
  return buildSidecarListeners(buildProxyView(snap, proxy, DEFAULT_OPTIONS));
}

describe('pipeline: Bookinfo', () => {
  it('productpage: 0.0.0.0_9080 on RDS 9080, inbound chain for 9080, all encodable', () => {
    const out = listenersFor([bookinfo('platform', 'bookinfo.yaml')], 'productpage');
    encodeAll(out.listeners);
    expect(out.listeners.map((l) => l.name)).toEqual(['0.0.0.0_9080', 'virtualInbound', 'virtualOutbound']);
    expect(out.httpRoutePorts).toEqual([9080]);
    expect(terminal(listener(out.listeners, '0.0.0.0_9080').filterChains?.[0]).rds.routeConfigName).toBe('9080');
    const [chain] = chainNamed(listener(out.listeners, 'virtualInbound'), '0.0.0.0_9080');
    expect(terminal(chain).routeConfig.virtualHosts[0].routes[0].route.cluster).toBe('inbound|9080||');
  });

  it('ratings with a MySQL service and a tcp VirtualService: <VIP>_3306 with weighted clusters to the subsets', () => {
    const out = listenersFor([bookinfo('platform', 'bookinfo.yaml'), join(import.meta.dirname, 'testdata/mysql.yaml')], 'ratings');
    encodeAll(out.listeners);
    const l = listener(out.listeners, '10.96.0.50_3306');
    expect(terminal(l.filterChains?.[0])).toMatchObject({
      statPrefix: 'mysqldb.default',
      weightedClusters: {
        clusters: [
          { name: 'outbound|3306|v1|mysqldb.default.svc.cluster.local', weight: 90 },
          { name: 'outbound|3306|v2|mysqldb.default.svc.cluster.local', weight: 10 },
        ],
      },
    });
  });
});
