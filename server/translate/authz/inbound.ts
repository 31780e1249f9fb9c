// The RBAC filters of one proxy's inbound chains, computed once per listener build from its view.
import type { FilterJson } from '../../gen/envoy/config/listener/v3/listener_components_pb';
import type { HttpFilterJson } from '../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import type { ProxyViewBase } from '../view/types';
import { buildHttpRbacFilters, buildNetworkRbacFilters } from './builder';
import { selectPolicies } from './select';

export interface InboundAuthz {
  /** Put in the inbound HCM before the other HTTP filters. */
  http: HttpFilterJson[];
  /** Put on TCP chains before tcp_proxy. */
  network: FilterJson[];
}

export const NO_AUTHZ: InboundAuthz = Object.freeze({ http: [], network: [] }) as InboundAuthz;

export function inboundAuthz(view: Pick<ProxyViewBase, 'snapshot' | 'proxy' | 'options'>): InboundAuthz {
  const { applied } = selectPolicies(view.snapshot, view.proxy, view.options.rootNamespace);
  if (applied.length === 0) return NO_AUTHZ;
  const providers = view.options.extensionProviders;
  return { http: buildHttpRbacFilters(applied, undefined, providers), network: buildNetworkRbacFilters(applied, undefined, providers) };
}
