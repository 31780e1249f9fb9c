// Destination → cluster name (istio route.go:GetDestinationCluster).
import type { Destination } from '../../../model/istio';
import type { ServiceModel } from '../../../model/mesh';
import { outboundCluster } from '../../names';

/**
 * `outbound|<port>|<subset>|<host>`: port = destination port, else the service's only port, else the
 * listener port. Alias (ExternalName) services point at their concrete host. Empty host → `UnknownService`.
 */
export function destinationCluster(dst: Destination, service: ServiceModel | undefined, listenerPort: number): string {
  const dstHost = typeof dst?.host === 'string' ? dst.host : '';
  if (!dstHost) return 'UnknownService';
  const host = service?.externalName ? service.externalName : dstHost;
  let port = listenerPort;
  if (dst.port !== undefined && dst.port !== null) {
    const n = typeof dst.port === 'object' ? Number(dst.port.number ?? 0) : NaN;
    port = Number.isInteger(n) && n >= 0 ? n : 0;
  } else if (service && service.ports.length === 1) port = (service.ports[0] as ServiceModel['ports'][number]).port;
  const subset = typeof dst.subset === 'string' || typeof dst.subset === 'number' ? String(dst.subset) : '';
  return outboundCluster(port, host, subset);
}
