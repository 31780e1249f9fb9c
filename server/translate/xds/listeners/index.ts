// LDS for sidecar proxies (istiod: networking/core/listener.go buildSidecarListeners):
// per-port outbound listeners, virtualOutbound (15001) and virtualInbound (15006).
//
// Known deviations from istiod, all deliberate (see the file headers for details):
// - Sidecar egress listeners with an explicit port (and bind) are modelled (./egress), and Sidecar ingress
//   listeners (./inboundIngress); egress captureMode NONE and a bind on the catch-all egress listener are not.
// - Inbound chains model PERMISSIVE plaintext only (no mTLS chains / certificates).
// - Istio-private filters (metadata exchange, istio.alpn, istio.stats), grpc_stats/grpc_web, mongo_proxy,
//   tracing, access logs and the request-id extension are omitted (no generated schemas).
// - ALLOW_ANY_DYNAMIC_DNS, HTTP_PROXY listener (MeshConfig proxyHttpPort), HBONE/ambient listeners,
//   interception mode NONE/TPROXY, dual stack and DestinationRule tunnel settings are not modelled.
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import type { LoadError } from '../../../model/mesh';
import type { ProxyView } from '../../view/types';
import { configError, type BuildCtx } from './context';
import { buildInboundListeners } from './inbound';
import { buildOutboundListeners } from './outbound';
import type { RouteRefs } from './outboundListener';
import { buildVirtualOutboundListener } from './virtualOutbound';
import { byteCompare, byteCompareBy } from '../../../lib/compare';

export {
  isGrpcProtocol,
  isHttp2Protocol,
  isHttpProtocol,
  isSniffedProtocol,
  isTcpProtocol,
  isTlsProtocol,
  listenerProtocol,
} from '../../../model/protocol';

export interface SidecarListeners {
  /** Sorted by name. */
  listeners: ListenerJson[];
  /** Ports whose shared route config `<port>` the outbound HCM chains request over RDS (ascending). */
  httpRoutePorts: number[];
  /** Sniffed VIP listeners' per-service route configs `<hostname>:<port>` (sorted by that name). */
  sniffedRoutes: { hostname: string; port: number }[];
  errors: LoadError[];
}

const byName = byteCompareBy((l: ListenerJson) => l.name ?? '');

/** Says so when the Sidecar in force uses listener features meshscope does not translate. */
function unmodelledSidecarFeatures(ctx: BuildCtx): void {
  const sc = ctx.view.sidecar;
  if (!sc) return;
  (sc.spec.egress ?? []).forEach((e, i) => {
    if (e.captureMode === 'NONE') {
      ctx.errors.push(
        configError(
          sc,
          `spec.egress[${i}].captureMode`,
          'captureMode NONE (listeners bound to a physical port) is not modelled by meshscope: listeners are built as for iptables capture',
        ),
      );
    }
    if (e.bind && !(e.port?.number ?? 0)) {
      ctx.errors.push(
        configError(
          sc,
          `spec.egress[${i}].bind`,
          'bind on the catch-all egress listener is not modelled by meshscope: its listeners bind as without it',
        ),
      );
    }
  });
}

export function buildSidecarListeners(view: ProxyView): SidecarListeners {
  const ctx: BuildCtx = { view, errors: [] };
  unmodelledSidecarFeatures(ctx);
  const refs: RouteRefs = { ports: new Set(), sniffed: new Map() };
  const listeners: ListenerJson[] = [];
  // A translator never throws: a bug met on odd input is reported and the other listeners still ship.
  const guard = (what: string, build: () => ListenerJson[]) => {
    try {
      listeners.push(...build());
    } catch (e) {
      ctx.errors.push({ severity: 'error', message: `${what} listeners of ${view.proxy.id}: ${(e as Error).message}` });
    }
  };
  guard('outbound', () => buildOutboundListeners(ctx, refs));
  guard('virtualOutbound', () => [buildVirtualOutboundListener(view)]);
  guard('inbound', () => buildInboundListeners(ctx));
  listeners.sort(byName);
  return {
    listeners,
    httpRoutePorts: [...refs.ports].sort((a, b) => a - b),
    sniffedRoutes: [...refs.sniffed.entries()].sort(([a], [b]) => byteCompare(a, b)).map(([, v]) => v),
    errors: ctx.errors,
  };
}
