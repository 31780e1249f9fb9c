// The catch-all virtual host closing every sidecar outbound route config
// (httproute.go:buildCatchAllVirtualHost): `allow_any` → PassthroughCluster (or the Sidecar's egressProxy)
// for ALLOW_ANY, `block_all` → 502 for REGISTRY_ONLY.
import type { VirtualHostJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { Destination } from '../../../model/istio';
import { ALLOW_ANY_VHOST, BLOCK_ALL_VHOST, PASSTHROUGH_CLUSTER } from '../../names';
import { destinationCluster } from './destination';

export function catchAllVirtualHost(
  policy: 'ALLOW_ANY' | 'REGISTRY_ONLY',
  egressProxy?: Destination,
  includeRequestAttemptCount = true,
): VirtualHostJson {
  if (policy === 'ALLOW_ANY') {
    const cluster = egressProxy ? destinationCluster(egressProxy, undefined, 0) : PASSTHROUGH_CLUSTER;
    const vh: VirtualHostJson = {
      name: ALLOW_ANY_VHOST,
      domains: ['*'],
      routes: [{ name: ALLOW_ANY_VHOST, match: { prefix: '/' }, route: { cluster, timeout: '0s', maxGrpcTimeout: '0s' } }],
    };
    if (includeRequestAttemptCount) vh.includeRequestAttemptCount = true;
    return vh;
  }
  const vh: VirtualHostJson = {
    name: BLOCK_ALL_VHOST,
    domains: ['*'],
    routes: [{ name: BLOCK_ALL_VHOST, match: { prefix: '/' }, directResponse: { status: 502 } }],
  };
  if (includeRequestAttemptCount) vh.includeRequestAttemptCount = true;
  return vh;
}
