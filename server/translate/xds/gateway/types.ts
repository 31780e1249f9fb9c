// The merged view of every Gateway selecting one router (istiod's model.MergedGateway, model/gateway.go).
// Servers are wrapped so that the same server object identifies itself across the maps, as istiod's
// *networking.Server pointers do, and so that errors can point back at `spec.servers[i]`.
import type { Server } from '../../../model/istio';
import type { DownstreamTlsContextJson } from '../../../gen/envoy/extensions/transport_sockets/tls/v3/tls_pb';
import type { FilterJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { IstioConfig, Protocol } from '../../../model/mesh';
import type { ChainOpts } from '../listeners/chainOpts';

export interface GwServer {
  /** The server with its hosts sanitized (`./h` → `<gw ns>/h`, `*\/h` → `h`, `*\/*` → `*`). */
  server: Server;
  gateway: IstioConfig<'Gateway'>;
  /** Index in `spec.servers`. */
  index: number;
  /** `<gw ns>/<gw name>`. */
  gatewayName: string;
  protocol: Protocol;
}

/** model.ServerPort: the resolved (listened) port, the server's protocol as written, and its bind. */
export interface ServerPort {
  number: number;
  protocol: string;
  bind: string;
}

export const serverPortKey = (p: ServerPort): string => `${p.number}|${p.protocol}|${p.bind}`;

/** model.MergedServers. routeName is set for plaintext HTTP servers (`http.<port>`); TLS servers use tlsServerInfo. */
export interface MergedServers {
  servers: GwServer[];
  routeName: string;
}

export interface TlsServerInfo {
  routeName: string;
  sniHosts: string[];
}

export interface MergedGateway {
  /** Unique server ports in the order they were first seen. */
  serverPorts: ServerPort[];
  /** serverPortKey → servers. */
  mergedServers: Map<string, MergedServers>;
  serversByRouteName: Map<string, GwServer[]>;
  tlsServerInfo: Map<GwServer, TlsServerInfo>;
  /** The Gateways that selected the router, creation order. */
  gateways: IstioConfig<'Gateway'>[];
}

/** One filter chain before it becomes Envoy JSON (istiod's filterChainOpts, the parts gateways use). */
export interface GatewayChain {
  opts: Pick<ChainOpts, 'sniHosts' | 'applicationProtocols'>;
  tls?: DownstreamTlsContextJson;
  /** HCM chain: RDS name and (HTTPS) the server name as stat prefix. */
  hcm?: { rds: string; statPrefix?: string };
  filters?: FilterJson[];
}
