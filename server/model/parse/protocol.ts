// Istio's port protocol rules: pkg/config/protocol/instance.go:Parse and
// pkg/config/kube/conversion.go:ConvertProtocol (Kubernetes Service ports).
import type { Protocol } from '../mesh';

const BY_NAME: Readonly<Record<string, Protocol>> = {
  http: 'HTTP',
  http2: 'HTTP2',
  https: 'HTTPS',
  grpc: 'GRPC',
  'grpc-web': 'GRPC-Web',
  http_proxy: 'HTTP_PROXY',
  tcp: 'TCP',
  tls: 'TLS',
  mongo: 'Mongo',
  redis: 'Redis',
  mysql: 'MySQL',
  udp: 'UDP',
};

/** protocol.Parse: case-insensitive protocol name; anything else is Unsupported (sniffed). */
export function parseProtocol(s: string | undefined): Protocol {
  return (s && BY_NAME[s.toLowerCase()]) || 'Unsupported';
}

/** Ports whose unnamed/unknown protocol defaults to TCP (conversion.go wellKnownPorts). */
const WELL_KNOWN_TCP = new Set([25, 53, 3306, 27017]);

/** kube ConvertProtocol: UDP > appProtocol (with kubernetes.io/* names) > name prefix > well-known port. */
export function convertKubeProtocol(port: number, name: string | undefined, proto: string | undefined, appProtocol?: string): Protocol {
  if (proto?.toUpperCase() === 'UDP') return 'UDP';
  let n = name ?? '';
  if (appProtocol !== undefined) {
    if (appProtocol === 'kubernetes.io/h2c') return 'HTTP2';
    if (appProtocol === 'kubernetes.io/ws') return 'HTTP';
    if (appProtocol === 'kubernetes.io/wss') return 'HTTPS';
    n = appProtocol;
  }
  if (n.toLowerCase().startsWith('grpc-web')) return 'GRPC-Web';
  const dash = n.indexOf('-');
  const p = parseProtocol(dash >= 0 ? n.slice(0, dash) : n);
  if (p === 'Unsupported' && WELL_KNOWN_TCP.has(port)) return 'TCP';
  return p;
}
