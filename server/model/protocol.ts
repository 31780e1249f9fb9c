// Protocol classes of Istio's port protocols (pkg/config/protocol/instance.go: IsHTTP, IsTCP, IsTLS,
// IsHTTP2, IsGRPC, IsUnsupported) and the listener protocol they map to
// (pilot/pkg/networking/networking.go: ModelProtocolToListenerProtocol). `Unsupported` = sniffed.
import type { Protocol } from './mesh';

/** HTTP, HTTP2, HTTP_PROXY, GRPC, GRPC-Web (instance.go: IsHTTP). */
export function isHttpProtocol(p: Protocol): boolean {
  return p === 'HTTP' || p === 'HTTP2' || p === 'HTTP_PROXY' || p === 'GRPC' || p === 'GRPC-Web';
}

/** TCP, HTTPS, TLS, Mongo, Redis, MySQL (instance.go: IsTCP). */
export function isTcpProtocol(p: Protocol): boolean {
  return p === 'TCP' || p === 'HTTPS' || p === 'TLS' || p === 'Mongo' || p === 'Redis' || p === 'MySQL';
}

/** HTTPS, TLS (instance.go: IsTLS). */
export function isTlsProtocol(p: Protocol): boolean {
  return p === 'HTTPS' || p === 'TLS';
}

/** HTTP2, GRPC, GRPC-Web (instance.go: IsHTTP2). */
export function isHttp2Protocol(p: Protocol): boolean {
  return p === 'HTTP2' || p === 'GRPC' || p === 'GRPC-Web';
}

/** GRPC, GRPC-Web (instance.go: IsGRPC). */
export function isGrpcProtocol(p: Protocol): boolean {
  return p === 'GRPC' || p === 'GRPC-Web';
}

/** Auto-detected protocol: the port declared no (known) protocol (instance.go: IsUnsupported). */
export function isSniffedProtocol(p: Protocol): boolean {
  return p === 'Unsupported';
}

export type ListenerProtocol = 'HTTP' | 'TCP' | 'AUTO' | 'UNKNOWN';

/** networking.go: ModelProtocolToListenerProtocol. UDP → UNKNOWN (no listener). */
export function listenerProtocol(p: Protocol): ListenerProtocol {
  if (isHttpProtocol(p)) return 'HTTP';
  if (isTcpProtocol(p)) return 'TCP';
  if (p === 'UDP') return 'UNKNOWN';
  return 'AUTO';
}
