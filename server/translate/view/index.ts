// The proxy view: what applies to one proxy. See buildProxyView.ts.
export { buildProxyView, servicesVisibleTo } from './buildProxyView';
export { completeView } from './complete';
export { gatewaysForRouter, mergeGateways } from './gateway/merge';
export { servicesForClusters, destinationHosts } from './clusterServices';
export { virtualServicesForGateway, resolveGatewayName, resolveVirtualService, gatewayNames, MESH_GATEWAY } from './virtualServices';
export { hostSubsetOf, hostsMatch, resolveShortname } from '../../model/host';
export { isVisibleTo } from './hosts';
export type * from './types';
