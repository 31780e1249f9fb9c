// A gateway filter chain before it becomes Envoy JSON: built by listeners.ts (HTTP / HTTPS servers) and
// network.ts (TCP / TLS servers). Its own file so the two do not import each other.
import type { DownstreamTlsContextJson } from '../../../gen/envoy/extensions/transport_sockets/tls/v3/tls_pb';
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ChainOpts } from '../listeners/chainOpts';

/** One filter chain before it becomes Envoy JSON (istiod's filterChainOpts, the parts gateways use). */
export interface GatewayChain {
  opts: Pick<ChainOpts, 'sniHosts' | 'applicationProtocols'>;
  tls?: DownstreamTlsContextJson;
  /** HCM chain: RDS name and (HTTPS) the server name as stat prefix. */
  hcm?: { rds: string; statPrefix?: string };
  filters?: FilterJson[];
  /** TCP chain of an ISTIO_MUTUAL server: metadata exchange first (gateway.go includeMx). */
  mx?: boolean;
}
