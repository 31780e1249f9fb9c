// The merged view of every Gateway selecting one router (istiod's model.MergedGateway, model/gateway.go).
// Servers are wrapped so that the same server object identifies itself across the maps, as istiod's
// *networking.Server pointers do, and so that errors can point back at `spec.servers[i]`.
import type { Server } from '../../../model/istio';
import type { IstioConfig, LoadError, Protocol } from '../../../model/mesh';
import type { BoundVirtualService } from '../boundVirtualService';

export interface GwServer {
  /** The server with its hosts sanitized (`./h` → `<gw ns>/h`, `*\/h` → `h`, `*\/*` → `*`). */
  server: Server;
  gateway: IstioConfig<'Gateway'>;
  /** Index in `spec.servers`. */
  index: number;
  /** `<gw ns>/<gw name>`. */
  gatewayName: string;
  protocol: Protocol;
  /** gateway.IsHTTPSServerWithTLSTermination: an HTTPS server that terminates TLS (HCM chain, not tcp_proxy). */
  httpsTermination: boolean;
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

/** A VirtualService bound to a gateway server for HTTP: the hosts both sides admit (Names.Intersection). */
export interface HttpBinding {
  vs: BoundVirtualService;
  hosts: readonly string[];
}

/**
 * What applies to a router (istiod's MergedGateway + PushContext.VirtualServicesForGateway): the Gateways
 * selecting it merged per port, and which VirtualServices bind to each server.
 */
export interface GatewayView {
  merged: MergedGateway;
  /** The merged servers of a server port. */
  serversAt(port: ServerPort): MergedServers | undefined;
  /** VirtualServices bound to a Gateway `ns/name`, as the router's namespace sees them, in import order. */
  virtualServices(gatewayName: string): readonly BoundVirtualService[];
  /** buildGatewayHTTPRouteConfig: every bound VirtualService sharing a host with the server, with those hosts. */
  httpBindings(server: GwServer): readonly HttpBinding[];
  /** pickMatchingGatewayHosts: the bound VirtualServices with a host overlapping the server's (TCP / TLS routes). */
  l4Bindings(server: GwServer): readonly BoundVirtualService[];
  /** Servers skipped while merging (conflicting ports, duplicate TLS hosts, …), located. */
  errors: readonly LoadError[];
}
