// virtualOutbound (listener_builder.go buildVirtualOutboundListener, buildOutboundCatchAllNetworkFilterChains).
import { describe, expect, it } from 'vitest';
import { buildSidecarListeners } from './index';
import { encodeAll, listener, terminal } from './testing';
import { makeView, svc } from './testView';

describe('virtualOutbound', () => {
  it('listens on 0.0.0.0:15001 with use_original_dst and the blackhole + catch-all chains (ALLOW_ANY → PassthroughCluster)', () => {
    const out = buildSidecarListeners(makeView());
    encodeAll(out.listeners);
    const l = listener(out.listeners, 'virtualOutbound');
    expect(l.address).toEqual({ socketAddress: { address: '0.0.0.0', portValue: 15001 } });
    expect(l.useOriginalDst).toBe(true);
    expect(l.trafficDirection).toBe('OUTBOUND');
    // The virtual listener binds the port: no bind_to_port=false, no listener filters (use_original_dst instead).
    expect(l.bindToPort).toBeUndefined();
    expect(l.listenerFilters).toBeUndefined();
    expect(l.filterChains?.map((c) => c.name)).toEqual(['virtualOutbound-blackhole', 'virtualOutbound-catchall-tcp']);
    expect(l.filterChains?.[0]?.filterChainMatch).toEqual({ destinationPort: 15001 });
    expect(terminal(l.filterChains?.[0])).toMatchObject({ cluster: 'BlackHoleCluster', statPrefix: 'BlackHoleCluster' });
    expect(l.filterChains?.[1]?.filterChainMatch).toBeUndefined();
    expect(terminal(l.filterChains?.[1])).toMatchObject({ cluster: 'PassthroughCluster', statPrefix: 'PassthroughCluster' });
  });

  it('REGISTRY_ONLY sends the catch-all chain and every per-port PassthroughFilterChain to BlackHoleCluster', () => {
    const web = svc('web', 'default', [[8080, 'HTTP']], { address: '10.96.0.3' });
    const out = buildSidecarListeners(makeView({ services: [web], outboundTrafficPolicy: 'REGISTRY_ONLY' }));
    encodeAll(out.listeners);
    const vo = listener(out.listeners, 'virtualOutbound');
    expect(terminal(vo.filterChains?.[1])).toMatchObject({ cluster: 'BlackHoleCluster', statPrefix: 'BlackHoleCluster' });
    expect(terminal(listener(out.listeners, '0.0.0.0_8080').defaultFilterChain)).toMatchObject({ cluster: 'BlackHoleCluster' });
  });

  it('a Sidecar egressProxy takes the ALLOW_ANY catch-all (route.go GetDestinationCluster with no service)', () => {
    const out = buildSidecarListeners(
      makeView({
        sidecar: {
          outboundTrafficPolicy: {
            mode: 'ALLOW_ANY',
            egressProxy: { host: 'egress.istio-system.svc.cluster.local', port: { number: 443 } },
          },
        },
      }),
    );
    expect(terminal(listener(out.listeners, 'virtualOutbound').filterChains?.[1]).cluster).toBe(
      'outbound|443||egress.istio-system.svc.cluster.local',
    );
  });

  it('Sidecar egress captureMode NONE is reported as not modelled, located (egress ports and ingress listeners are modelled)', () => {
    const out = buildSidecarListeners(
      makeView({
        sidecar: {
          egress: [
            { port: { number: 9080, protocol: 'HTTP', name: 'http' }, hosts: ['./*'] },
            { hosts: ['*/*'], captureMode: 'NONE' },
          ],
          ingress: [{ port: { number: 80, protocol: 'HTTP', name: 'http' } }],
        },
      }),
    );
    expect(out.errors.map((e) => [e.object, e.path])).toEqual([['Sidecar default/default', 'spec.egress[1].captureMode']]);
  });
});
