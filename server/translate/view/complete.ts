// completeView: a ProxyViewBase (what applies to the proxy) → the ProxyView the xDS builders read, with the
// derived scopes computed on first use: Sidecar egress listeners (./egress), the view of each RDS port, the
// services that get clusters (./clusterServices) and the inbound DestinationRule lookup. Pure: the memos live
// in the view object, which lives for one translation.
import type { LoadError, ServiceModel } from '../../model/mesh';
import { servicesForClusters } from './clusterServices';
import { destinationRuleLookup } from './destinationRules';
import { clusterScopeServices, egressScopes, scopeForPort } from './egress';
import type { GatewayView } from './gateway/types';
import { podsByKey } from './snapshotIndex';
import type { EffectiveDestinationRule, EgressListener, ProxyView, ProxyViewBase } from './types';

export { podsByKey } from './snapshotIndex';

const once = <T>(f: () => T): (() => T) => {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = f();
      done = true;
    }
    return value;
  };
};

export function completeView(base: ProxyViewBase, extra: { errors?: readonly LoadError[]; gateway?: GatewayView } = {}): ProxyView {
  const scopes = once(() => egressScopes(base));
  const view: ProxyView = {
    ...base,
    errors: extra.errors ?? [],
    egressListeners: once((): EgressListener[] => {
      const s = scopes();
      if (!s) return [{ index: -1, view }];
      return s.map((e) => {
        const l: EgressListener = {
          index: e.index,
          view: completeView({ ...base, services: e.services, virtualServices: e.virtualServices }),
        };
        if (e.port) l.port = e.port;
        if (e.bind) l.bind = e.bind;
        return l;
      });
    }),
    routeView: (port) => {
      if (!scopes()) return view;
      return scopeForPort(view.egressListeners(), port)?.view ?? completeView({ ...base, services: [], virtualServices: [] });
    },
    clusterServices: once((): readonly ServiceModel[] => {
      const s = scopes();
      return s ? servicesForClusters({ ...base, services: clusterScopeServices(s) }) : view.destinationServices();
    }),
    destinationServices: once(() => servicesForClusters(base)),
    inboundDestinationRule: (hostname: string): EffectiveDestinationRule | undefined => inbound()(hostname),
    pods: once(() => podsByKey(base.snapshot)),
  };
  const inbound = once(() => destinationRuleLookup(base.snapshot, base.proxy, base.options, (h) => base.service(h)?.namespace, 'inbound'));
  if (extra.gateway) view.gateway = extra.gateway;
  return view;
}
