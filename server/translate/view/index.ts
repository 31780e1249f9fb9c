// The proxy view: what applies to one proxy. See buildProxyView.ts.
export { buildProxyView, gatewaysForRouter, servicesVisibleTo } from './buildProxyView';
export { servicesForClusters, destinationHosts } from './clusterServices';
export { virtualServicesForGateway, resolveGatewayName, resolveVirtualService, gatewayNames, MESH_GATEWAY } from './virtualServices';
export { hostSubsetOf, hostsMatch, resolveShortname } from '../../model/host';
export { isVisibleTo } from './hosts';
export type { ProxyView, ServiceTarget, EffectiveDestinationRule, BoundVirtualService } from './types';
