// Inbound clusters of a sidecar (cluster.go:buildInboundClusters, buildInboundClustersFromServiceInstances,
// buildInboundClustersFromSidecar; cluster_builder.go:buildInboundCluster).
// With the default MeshConfig (inboundTrafficPolicy PASSTHROUGH) the bind is empty, so an inbound cluster is
// ORIGINAL_DST (CLUSTER_PROVIDED, cleanup disabled) bound from 127.0.0.6; with LOCALHOST it is STATIC to 127.0.0.1.
import type { ConnectionPoolSettings, IstioIngressListener } from '../../../model/istio';
import type { LoadError, ServiceModel } from '../../../model/mesh';
import { inboundCluster } from '../../names';
import { configPathOf } from '../../provenance';
import type { ClusterJson } from '../../types';
import type { ProxyView, ServiceTarget } from '../../view/types';
import { baseCluster, istioMetadata, upstreamBind } from './base';
import { applyTrafficPolicy } from './trafficPolicy/apply';
import type { PolicyContext } from './trafficPolicy/context';
import { portLevelPolicy, type Located, type SelectedPolicy } from './trafficPolicy/select';

/** time.Duration max in whole seconds, used to disable ORIGINAL_DST host cleanup on inbound clusters. */
export const MAX_CLEANUP_INTERVAL = '9223372035s';

interface InboundSpec {
  port: number;
  /** '' → ORIGINAL_DST; otherwise a STATIC endpoint address. */
  bind: string;
  endpointPort: number;
  targets: ServiceTarget[];
}

/** The rule for inbound clusters: like outbound, but workloadSelector rules are ignored (sidecar.go:DestinationRule). */
function inboundRule(view: ProxyView, hostname: string) {
  return view.inboundDestinationRule(hostname);
}

/** InboundConnectionPoolForPort: an ingress listener's connectionPool for the port, else inboundConnectionPool. */
function sidecarPool(view: ProxyView, port: number): Located<ConnectionPoolSettings> | undefined {
  const sc = view.sidecar;
  if (!sc) return undefined;
  const idx = (sc.spec.ingress ?? []).findIndex((i) => i.port?.number === port && i.connectionPool);
  const il = idx >= 0 ? sc.spec.ingress?.[idx] : undefined;
  if (il?.connectionPool) return { value: il.connectionPool, path: `spec.ingress[${idx}].connectionPool` };
  if (sc.spec.inboundConnectionPool) return { value: sc.spec.inboundConnectionPool, path: 'spec.inboundConnectionPool' };
  return undefined;
}

function buildOne(view: ProxyView, spec: InboundSpec, errors: LoadError[]): ClusterJson | undefined {
  const primary = spec.targets[0];
  if (!primary) return undefined;
  const name = inboundCluster(spec.port);
  const isStatic = spec.bind !== '';
  // telemetry metadata: every target on the primary's service port, one per hostname (not for dummy services)
  const services: ServiceModel[] = [];
  if (!primary.service.meshExternal)
    for (const t of spec.targets)
      if (t.port.port === primary.port.port && !services.some((s) => s.hostname === t.service.hostname)) services.push(t.service);
  const c = baseCluster({
    name,
    type: isStatic ? 'STATIC' : 'ORIGINAL_DST',
    proxy: view.proxy,
    services,
    ...(isStatic
      ? {
          localityLbEndpoints: [{ lbEndpoints: [{ endpoint: { address: endpointAddress(spec) } }] }],
        }
      : {}),
  });
  if (!c) return undefined;
  if (!isStatic) c.cleanupInterval = MAX_CLEANUP_INTERVAL;
  let policy: SelectedPolicy = {};
  const ctx: PolicyContext = { errors };
  const dr = inboundRule(view, primary.service.hostname);
  const rule = dr?.from[0];
  if (dr?.spec.trafficPolicy && rule) {
    policy = portLevelPolicy(dr.spec.trafficPolicy, 'spec.trafficPolicy', primary.port.port);
    istioMetadata(c)['config'] = configPathOf(rule);
    ctx.object = `DestinationRule ${rule.meta.namespace}/${rule.meta.name}`;
  }
  const pool = sidecarPool(view, spec.port);
  if (pool) {
    policy = { ...policy, connectionPool: pool };
    if (view.sidecar) ctx.object = `Sidecar ${view.sidecar.meta.namespace}/${view.sidecar.meta.name}`;
  }
  applyTrafficPolicy(
    c,
    { ...(policy.connectionPool ? { connectionPool: policy.connectionPool } : {}) },
    'inbound',
    view.options.connectTimeout,
    ctx,
  );
  if (spec.bind !== '127.0.0.1' && spec.bind !== '::1') c.upstreamBindConfig = upstreamBind(view.proxy);
  return c;
}

/** util.BuildAddress: a socket address, or for a port-less (unix://) bind a pipe with the socket path. */
function endpointAddress(spec: InboundSpec) {
  if (spec.bind.startsWith(UNIX)) return { pipe: { path: spec.bind.slice(UNIX.length) } };
  return { socketAddress: { address: spec.bind, portValue: spec.endpointPort } };
}

/**
 * From the proxy's service targets: one cluster per distinct target port, the first target being primary.
 * MeshConfig inboundTrafficPolicy LOCALHOST binds them to localhost (STATIC 127.0.0.1:port, or ::1 for an
 * IPv6-only proxy): sidecar_simulation_test.go:TestInboundClusters "disableInboundPassthrough".
 */
function fromServiceTargets(view: ProxyView): InboundSpec[] {
  const byPort = new Map<number, ServiceTarget[]>();
  for (const t of view.serviceTargets) byPort.set(t.targetPort, [...(byPort.get(t.targetPort) ?? []), t]);
  const ipv6Only = view.proxy.ips.length > 0 && view.proxy.ips.every((ip) => ip.includes(':'));
  const bind = view.options.inboundTrafficPolicy === 'LOCALHOST' ? (ipv6Only ? '::1' : '127.0.0.1') : '';
  return [...byPort.entries()].map(([port, targets]) => ({ port, bind, endpointPort: port, targets }));
}

const UNIX = 'unix://';

/**
 * buildInboundClustersFromSidecar: defaultEndpoint `127.0.0.1:P` (localhost) / `0.0.0.0:P` (the pod's IPv4, else
 * 127.0.0.1) / `[::1]:P` / `[::]:P` (the pod's IPv6, else ::1) → STATIC; `unix://PATH` → STATIC on the socket;
 * empty → ORIGINAL_DST. An unparsable endpoint gets no cluster.
 */
function fromIngress(view: ProxyView, il: IstioIngressListener): InboundSpec | undefined {
  const port = il.port?.number;
  if (port === undefined) return undefined;
  let bind = '';
  let endpointPort = 0;
  const de = il.defaultEndpoint ?? '';
  if (de.startsWith(UNIX)) bind = de;
  else if (de !== '') {
    const colon = de.lastIndexOf(':');
    const host = de.slice(0, colon).replace(/^\[|\]$/g, '');
    endpointPort = Number(de.slice(colon + 1));
    if (colon < 0 || de.slice(colon + 1) === '' || !Number.isInteger(endpointPort)) return undefined;
    const v4 = view.proxy.ips.find((ip) => !ip.includes(':'));
    const v6 = view.proxy.ips.find((ip) => ip.includes(':'));
    if (host === '0.0.0.0') bind = v4 ?? '127.0.0.1';
    else if (host === '::') bind = v6 ?? '::1';
    else if (host === '127.0.0.1' || host === '::1') bind = host;
  }
  const real = view.serviceTargets.find((t) => t.targetPort === port);
  const sc = view.sidecar!;
  const service: ServiceModel = real?.service ?? {
    hostname: `${sc.meta.name}.${sc.meta.namespace}`,
    namespace: sc.meta.namespace,
    name: sc.meta.name,
    registry: 'Kubernetes',
    address: '0.0.0.0',
    addresses: [],
    ports: [],
    resolution: 'ClientSideLB',
    meshExternal: true,
    exportTo: [],
    labels: {},
    creationTimestamp: sc.meta.creationTimestamp,
    ref: { kind: 'Sidecar', group: 'networking.istio.io', version: 'v1', namespace: sc.meta.namespace, name: sc.meta.name },
  };
  const listenPort = { name: il.port.name, port, protocol: 'Unsupported' as const };
  return { port, bind, endpointPort, targets: [{ service, port: listenPort, targetPort: endpointPort }] };
}

export function buildInboundClusters(view: ProxyView, errors: LoadError[]): ClusterJson[] {
  const ingress = view.sidecar?.spec.ingress ?? [];
  const specs = ingress.length > 0 ? ingress.map((il) => fromIngress(view, il)).filter((s) => s !== undefined) : fromServiceTargets(view);
  return specs.map((s) => buildOne(view, s, errors)).filter((c) => c !== undefined);
}
