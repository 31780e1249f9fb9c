// Inbound chain configs from a Sidecar's `ingress` listeners (listener_inbound.go buildInboundChainConfigs with
// SidecarScope.HasIngressListener, getBindToPort, model/context.go CanBindToPort / conflictWithReservedListener).
// With ingress listeners, only they make inbound chains (ENABLE_SIDECAR_SERVICE_INBOUND_LISTENER_MERGE is off by
// default): port = targetPort = the ingress port number, protocol from the port, bind as written or the wildcard,
// cluster `inbound|<port>||`, and the Sidecar's config path as chain metadata. captureMode NONE (or DEFAULT on a
// proxy without iptables capture, which meshscope does not model) binds a real listener `<bind>_<port>`.
// Ingress `tls` is ignored, as istiod does by default (ENABLE_TLS_ON_SIDECAR_INGRESS=false).
import { parseProtocol } from '../../../model/parse/protocol';
import { isHttpProtocol } from '../../../model/protocol';
import { inboundCluster } from '../../names';
import { istioConfigMetadata } from '../../provenance';
import type { BuildCtx } from './context';
import { configError } from './context';
import type { ChainConfig } from './inboundChainConfig';

const WILDCARD = '0.0.0.0';
/** The sidecar's static listeners (EnvoyStatusPort, EnvoyPrometheusPort); the virtual ones are not checked here (push is nil). */
const STATIC_LISTENER_PORTS: ReadonlySet<number> = new Set([15021, 15090]);

/** undefined when the Sidecar in force has no ingress listeners (then the service targets make the chains). */
export function sidecarIngressChainConfigs(ctx: BuildCtx): ChainConfig[] | undefined {
  const sc = ctx.view.sidecar;
  const ingress = sc?.spec.ingress ?? [];
  if (!sc || ingress.length === 0) return undefined;
  const byPort = new Map<number, ChainConfig>();
  ingress.forEach((il, i) => {
    const port = il.port?.number;
    if (port === undefined) return;
    const protocol = parseProtocol(il.port.protocol);
    const bind = il.bind ?? '';
    // conflictWithReservedListener: only a wildcard bind (or no bind on an HTTP port) collides.
    if ((bind === WILDCARD || (bind === '' && isHttpProtocol(protocol))) && STATIC_LISTENER_PORTS.has(port)) {
      ctx.errors.push(
        configError(sc, `spec.ingress[${i}].port.number`, `port ${port} conflicts with a static listener of the sidecar and is skipped`),
      );
      return;
    }
    if (byPort.has(port)) return; // the first listener of a port wins (validation forbids duplicates)
    byPort.set(port, {
      clusterName: inboundCluster(port),
      targetPort: port,
      servicePort: port,
      protocol,
      hostname: `${sc.meta.name}.${sc.meta.namespace}`,
      bind: bind || WILDCARD,
      bindToPort: il.captureMode === 'NONE',
      passthrough: false,
      metadata: istioConfigMetadata(sc),
    });
  });
  return [...byPort.values()].sort((a, b) => a.targetPort - b.targetPort);
}
