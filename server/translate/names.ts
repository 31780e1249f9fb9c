// Istio-compatible resource names (pilot/pkg/model/service.go BuildSubsetKey, networking/util).
// Pure string functions; every builder names things through here.

export type Direction = 'outbound' | 'inbound';

/** `outbound|9080|v1|reviews.default.svc.cluster.local` (model.BuildSubsetKey). */
export const clusterName = (direction: Direction, port: number, subset: string, hostname: string): string =>
  `${direction}|${port}|${subset}|${hostname}`;

export const outboundCluster = (port: number, hostname: string, subset = ''): string => clusterName('outbound', port, subset, hostname);

/** Inbound clusters carry the target port and no host: `inbound|9080||`. */
export const inboundCluster = (targetPort: number): string => `inbound|${targetPort}||`;

export interface ParsedClusterName {
  direction: Direction;
  port: number;
  subset: string;
  hostname: string;
}
/** Inverse of clusterName; undefined for BlackHoleCluster & co. */
export function parseClusterName(name: string): ParsedClusterName | undefined {
  const parts = name.split('|');
  if (parts.length !== 4) return undefined;
  const [direction, port, subset, hostname] = parts as [string, string, string, string];
  if (direction !== 'outbound' && direction !== 'inbound') return undefined;
  const n = Number(port);
  if (!Number.isInteger(n)) return undefined;
  return { direction, port: n, subset, hostname };
}

export const BLACKHOLE_CLUSTER = 'BlackHoleCluster';
export const PASSTHROUGH_CLUSTER = 'PassthroughCluster';
export const INBOUND_PASSTHROUGH_CLUSTER = 'InboundPassthroughCluster';

export const VIRTUAL_OUTBOUND_LISTENER = 'virtualOutbound';
export const VIRTUAL_INBOUND_LISTENER = 'virtualInbound';
export const VIRTUAL_OUTBOUND_PORT = 15001;
export const VIRTUAL_INBOUND_PORT = 15006;

/** Listener names are `<bind>_<port>`: `0.0.0.0_9080`, `10.96.0.12_3306`. */
export const listenerName = (bind: string, port: number): string => `${bind}_${port}`;

/** Sidecar outbound HTTP route config: the port number (`9080`); sniffed VIP listeners use `<fqdn>:<port>`. */
export const sidecarRouteName = (port: number): string => `${port}`;
export const sniffedRouteName = (hostname: string, port: number): string => `${hostname}:${port}`;

/** Gateway plaintext HTTP route config `http.<port>`. */
export const gatewayHttpRouteName = (port: number): string => `http.${port}`;
/** Gateway HTTPS route config `https.<port>.<portName>.<gatewayName>.<gatewayNamespace>`. */
export const gatewayHttpsRouteName = (port: number, portName: string, gwName: string, gwNamespace: string): string =>
  `https.${port}.${portName}.${gwName}.${gwNamespace}`;

/** Virtual host names `host:port` (util.DomainName; IPv6 addresses bracketed). */
export function domainName(host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${h}:${port}`;
}

export const ALLOW_ANY_VHOST = 'allow_any';
export const BLOCK_ALL_VHOST = 'block_all';
export const DEFAULT_ROUTE_NAME = 'default';
