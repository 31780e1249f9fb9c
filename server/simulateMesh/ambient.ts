// "Does this request go through the waypoint?": a request from an ambient pod walked as ambient sends it — the
// client's ztunnel (which enforces no policy: ztunnel authorizes on the destination side), then, when the
// destination Service (or workload) is bound to a waypoint, that waypoint's Envoy from `main_internal` (chain,
// route, L7 policy), else straight on; then the destination's ztunnel with its L4 AuthorizationPolicy, the caller
// being the waypoint's identity after a waypoint and the client's otherwise. When the waypoint is skipped, the
// binding's reason says why (server/model/ambient). From a sidecar the same request bypasses the waypoint
// (a sidecar sends to the Service's endpoints itself: endpoint_builder.go buildEnvoyLbEndpoint's comment on
// service waypoints). Pure.
import type { AmbientIndex } from '../model/ambient/types';
import type { MeshSnapshot, PodModel, ServiceModel, TranslateOptions } from '../model/mesh';
import type { AmbientHop, AmbientTrace, SimRequest, SimResult } from '../simulate/types';
import { ztunnelPolicy } from './ztunnelPolicy';

export interface AmbientDestination {
  service?: ServiceModel;
  pod?: PodModel;
  address?: string;
}

const stripPort = (h: string): string => (h.startsWith('[') ? h.slice(1, h.indexOf(']')) : h.replace(/:\d+$/, ''));

/** The destination as ztunnel sees it: a Service VIP, a pod IP, or (no address) the host resolved as DNS would. */
export function resolveDestination(snapshot: MeshSnapshot, from: PodModel, request: SimRequest, domainSuffix: string): AmbientDestination {
  const address = request.address;
  if (address) {
    const services = snapshot.services.filter((s) => s.addresses.includes(address));
    const service = services.find((s) => s.namespace === from.namespace) ?? services[0];
    if (service) return { service, address };
    const pod = snapshot.pods.find((p) => p.ip === address);
    return pod ? { pod, address } : { address };
  }
  const host = stripPort(request.host ?? request.headers?.host ?? '');
  if (!host) return {};
  const parts = host.split('.');
  const candidates = [host, parts.length === 1 ? `${host}.${from.namespace}.svc.${domainSuffix}` : `${host}.svc.${domainSuffix}`];
  for (const h of candidates) {
    const list = snapshot.servicesByHost.get(h) ?? [];
    const service = list.find((s) => s.namespace === from.namespace) ?? list[0];
    if (service) return { service, ...(service.address !== '0.0.0.0' ? { address: service.address } : {}) };
  }
  return {};
}

const key = (p: PodModel) => `${p.namespace}/${p.name}`;

/** `envoy://connect_originate/10.0.0.1:9080` or `10.0.0.1:9080` → 10.0.0.1. */
const endpointIp = (e: string): string => {
  const tail = e.slice(e.lastIndexOf('/') + 1);
  const at = tail.lastIndexOf(':');
  return (at > 0 ? tail.slice(0, at) : tail).replace(/^\[|\]$/g, '');
};

function clientHop(from: PodModel): AmbientHop {
  return {
    hop: 'ztunnel',
    role: 'client',
    workload: key(from),
    ...(from.nodeName ? { node: from.nodeName } : {}),
    notes: ['the client ztunnel enforces no AuthorizationPolicy: ztunnel authorizes on the destination side'],
  };
}

function serverHops(snapshot: MeshSnapshot, pods: PodModel[], request: SimRequest, principal: string, rootNs: string): AmbientHop[] {
  return pods.map((pod) => {
    const policy = ztunnelPolicy(snapshot, pod, { ...request, sourcePrincipal: principal }, rootNs);
    const hop: AmbientHop = { hop: 'ztunnel', role: 'server', workload: key(pod), ...(pod.nodeName ? { node: pod.nodeName } : {}) };
    if (policy.policies.length) hop.policies = policy.policies;
    if (policy.authorization) hop.authorization = policy.authorization;
    if (policy.denied) hop.error = 'RBAC: access denied';
    if (!snapshot.ambient?.workloads.get(key(pod))?.ambient)
      hop.notes = [`${key(pod)} is not ambient (no ambient.istio.io/redirection: enabled): no ztunnel captures its inbound traffic`];
    return hop;
  });
}

const spiffe = (td: string, ns: string, sa: string) => `spiffe://${td}/ns/${ns}/sa/${sa}`;

/** The binding that decides a destination's waypoint: the Service's, else the workload's (pod IP). */
function bindingOf(index: AmbientIndex, dst: AmbientDestination) {
  if (dst.service) return index.services.get(`${dst.service.namespace}/${dst.service.hostname}`);
  if (dst.pod) return index.workloads.get(key(dst.pod));
  return undefined;
}

export type WaypointSimulator = (proxyId: string, request: SimRequest) => SimResult | undefined;

/** Simulates `request` from the ambient pod `from`. */
export function simulateAmbient(
  snapshot: MeshSnapshot,
  from: PodModel,
  request: SimRequest,
  options: TranslateOptions,
  simulateWaypoint: WaypointSimulator,
): SimResult {
  const index = snapshot.ambient!;
  const dst = resolveDestination(snapshot, from, request, options.domainSuffix);
  const trace: AmbientTrace = {
    source: { workload: key(from), kind: 'ambient' },
    destination: {
      ...(dst.service ? { service: `${dst.service.namespace}/${dst.service.hostname}` } : {}),
      ...(dst.pod ? { workload: key(dst.pod) } : {}),
      ...(dst.address ? { address: dst.address } : {}),
      port: request.port,
    },
    waypoint: { used: false },
    hops: [clientHop(from)],
  };
  if (!dst.service && !dst.pod) {
    trace.waypoint = {
      used: false,
      reason: 'UnknownDestination',
      message: 'the destination is no Service or workload meshscope knows: ztunnel passes it through',
    };
    return { ambient: trace, rejected: [], error: 'no Service or workload at the destination' };
  }
  const binding = bindingOf(index, dst);
  const waypoint = binding?.waypoint ? index.waypoints.get(binding.waypoint) : undefined;
  const proxyId = waypoint?.proxies.find((p) => snapshot.proxiesById.has(p));
  const rootNs = options.rootNamespace;
  const portOf = (s: ServiceModel) => s.ports.find((p) => p.port === request.port);

  if (waypoint && proxyId && dst.address) {
    trace.waypoint = { used: true, name: waypoint.key };
    const wr = simulateWaypoint(proxyId, { ...request, mode: 'waypoint', address: dst.address });
    const hop: AmbientHop = { hop: 'waypoint', waypoint: waypoint.key, proxy: proxyId };
    for (const k of [
      'listener',
      'filterChain',
      'routeConfig',
      'virtualHost',
      'route',
      'cluster',
      'weightedClusters',
      'endpoints',
      'source',
      'authorization',
      'error',
    ] as const)
      if (wr?.[k] !== undefined) (hop as unknown as Record<string, unknown>)[k] = wr[k];
    trace.hops.push(hop);
    const ips = new Set((wr?.endpoints ?? []).map(endpointIp));
    const pods = snapshot.pods.filter((p) => ips.has(p.ip));
    const wpPod = snapshot.pods.find((p) => `${p.name}.${p.namespace}` === proxyId);
    if (!wr?.error)
      trace.hops.push(
        ...serverHops(snapshot, pods, request, spiffe(options.trustDomain, waypoint.namespace, wpPod?.serviceAccount ?? 'default'), rootNs),
      );
    return { ...(wr ?? { rejected: [] }), ambient: trace, ...finalError(wr?.error, trace.hops) };
  }

  // No waypoint on the path: why, then straight to the destination's ztunnel.
  if (waypoint && !proxyId)
    trace.waypoint = {
      used: false,
      name: waypoint.key,
      reason: 'NoWaypointProxy',
      message: `waypoint "${waypoint.key}" has no running proxy pod`,
    };
  else if (binding?.skip)
    trace.waypoint = {
      used: false,
      ...(binding.skip.waypoint ? { name: binding.skip.waypoint } : {}),
      reason: binding.skip.reason,
      message: binding.skip.message,
    };
  else trace.waypoint = { used: false, reason: 'NoUseWaypoint', message: 'the destination is bound to no waypoint' };
  const pods = dst.service
    ? (portOf(dst.service) ? (snapshot.endpoints.get(`${dst.service.namespace}/${dst.service.hostname}`)?.get(request.port) ?? []) : [])
        .filter((e) => e.healthy)
        .flatMap((e) => snapshot.pods.filter((p) => p.ip === e.address && p.namespace === e.namespace))
    : [dst.pod!];
  const endpoints = dst.service
    ? (snapshot.endpoints.get(`${dst.service.namespace}/${dst.service.hostname}`)?.get(request.port) ?? [])
        .filter((e) => e.healthy)
        .map((e) => `${e.address}:${e.port}`)
    : [`${dst.pod!.ip}:${request.port}`];
  trace.hops.push(...serverHops(snapshot, pods, request, spiffe(options.trustDomain, from.namespace, from.serviceAccount), rootNs));
  const notes =
    dst.service && !portOf(dst.service) ? [`Service ${dst.service.namespace}/${dst.service.name} has no port ${request.port}`] : [];
  return { endpoints, ambient: trace, rejected: [], ...(notes.length ? { notes } : {}), ...finalError(undefined, trace.hops) };
}

/** The request fails when the waypoint failed, or every destination ztunnel denies it. */
function finalError(waypointError: string | undefined, hops: AmbientHop[]): { error?: string } {
  if (waypointError) return { error: waypointError };
  const servers = hops.filter((h) => h.role === 'server');
  return servers.length > 0 && servers.every((h) => h.error) ? { error: 'RBAC: access denied' } : {};
}

/** A sidecar's outbound request to a Service bound to a waypoint: the sidecar goes to the endpoints itself. */
export function sidecarBypass(
  snapshot: MeshSnapshot,
  from: PodModel,
  request: SimRequest,
  options: TranslateOptions,
): AmbientTrace | undefined {
  const index = snapshot.ambient;
  if (!index || request.mode !== 'outbound') return undefined;
  const dst = resolveDestination(snapshot, from, request, options.domainSuffix);
  const binding = bindingOf(index, dst);
  if (!binding?.waypoint) return undefined;
  return {
    source: { workload: key(from), kind: 'sidecar' },
    destination: {
      ...(dst.service ? { service: `${dst.service.namespace}/${dst.service.hostname}` } : {}),
      ...(dst.pod ? { workload: key(dst.pod) } : {}),
      ...(dst.address ? { address: dst.address } : {}),
      port: request.port,
    },
    waypoint: {
      used: false,
      name: binding.waypoint,
      reason: 'SidecarCaller',
      message: `the caller is a sidecar, which bypasses destination waypoints: waypoint "${binding.waypoint}"'s routes and L7 policy do not apply to this request`,
    },
    hops: [],
  };
}
