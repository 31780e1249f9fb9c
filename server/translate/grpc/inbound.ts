// LDS for xDS-enabled gRPC servers (pilot/pkg/networking/grpcgen/lds.go: buildInboundListeners,
// buildInboundFilterChains, buildInboundFilterChain). A server asks for `xds.istio.io/grpc/lds/inbound/IP:PORT`;
// istiod answers for ports the proxy serves (a service target whose target port is PORT) with one filter
// chain whose HCM carries an inline route config `inbound` (domain `*`, prefix `/`, non-forwarding action)
// and the router filter. The port's PeerAuthentication mode decides TLS (buildInboundFilterChains): DISABLE and
// PERMISSIVE are served as plaintext — except PERMISSIVE on pods labelled security.istio.io/tlsMode=istio, which
// istiod turns into STRICT — and STRICT is mTLS with certificate-provider TLS: not generated yet (reported,
// listener omitted).
// AuthorizationPolicy RBAC filters are not generated either (not modelled).
import { EXT } from '../../envoy/typeUrls';
import type { LoadError } from '../../model/mesh';
import type { ListenerJson } from '../types';
import type { ProxyView } from '../view/types';
import { GRPC_INBOUND_PREFIX, splitHostPort } from './listenerNames';
import { modeForPort } from '../security/peerAuthentication';
import { workloadPeerAuthentication } from '../security/workload';

const TLS_MODE_LABEL = 'security.istio.io/tlsMode';

function inboundListener(name: string, host: string, port: number): ListenerJson {
  const json = {
    name,
    address: { socketAddress: { address: host, portValue: port } },
    filterChains: [
      {
        name: 'inbound-plaintext',
        filters: [
          {
            name: 'inbound-hcmplaintext',
            typedConfig: {
              '@type': EXT.hcm,
              routeConfig: {
                name: 'inbound',
                virtualHosts: [{ domains: ['*'], routes: [{ match: { prefix: '/' }, nonForwardingAction: {} }] }],
              },
              httpFilters: [{ name: 'envoy.filters.http.router', typedConfig: { '@type': EXT.router } }],
            },
          },
        ],
      },
    ],
  };
  return json as unknown as ListenerJson;
}

export function buildGrpcInboundListeners(view: ProxyView, names: readonly string[]): { listeners: ListenerJson[]; errors: LoadError[] } {
  const listeners: ListenerJson[] = [];
  const errors: LoadError[] = [];
  const mtls = workloadPeerAuthentication(view.snapshot, view.proxy, view.options);
  for (const name of names) {
    if (!name.startsWith(GRPC_INBOUND_PREFIX)) continue;
    const hp = splitHostPort(name.slice(GRPC_INBOUND_PREFIX.length));
    if (!hp) continue; // istiod: "failed parsing address from gRPC listener name"
    const target = view.serviceTargets.find((t) => t.targetPort === hp.port);
    if (!target) continue; // istiod: "has no service instance for port"
    const { mode } = modeForPort(mtls, hp.port);
    const labelled = view.proxy.labels[TLS_MODE_LABEL] === 'istio';
    if (mode === 'STRICT' || (mode === 'PERMISSIVE' && labelled)) {
      const why = mode === 'STRICT' ? 'PeerAuthentication mode STRICT' : `PERMISSIVE with pod label ${TLS_MODE_LABEL}=istio`;
      errors.push({
        severity: 'warning',
        object: `Proxy ${view.proxy.id}`,
        message: `gRPC server listener ${name}: istiod would serve STRICT mTLS (${why}); meshscope does not generate gRPC certificate-provider TLS yet`,
      });
      continue;
    }
    listeners.push(inboundListener(name, hp.host, hp.port));
  }
  return { listeners, errors };
}
