// istio.workload.Service for every Kubernetes Service ztunnel is told about (istiod
// pilot/pkg/serviceregistry/ambient/services.go serviceServiceBuilder + constructService), and the port mapping
// a workload carries per Service (workloads.go constructServices).
import type { GatewayAddressModel } from '../../model/ambient/types';
import type { MeshSnapshot, PodModel, Protocol, ServiceModel, ServicePort } from '../../model/mesh';
import { ipJson } from './ip';

type Json = Record<string, unknown>;

/** services.go toAppProtocolFromProtocol: HTTP → HTTP11, HTTP2, GRPC, TLS and HTTPS → TLS, TCP; else UNKNOWN (omitted). */
export function appProtocol(p: Protocol): string | undefined {
  switch (p) {
    case 'HTTP':
      return 'HTTP11';
    case 'HTTP2':
      return 'HTTP2';
    case 'GRPC':
      return 'GRPC';
    case 'TLS':
    case 'HTTPS':
      return 'TLS';
    case 'TCP':
      return 'TCP';
    default:
      return undefined;
  }
}

/** workloadapi.GatewayAddress as proto3 JSON (bytes in base64). */
export function gatewayAddressJson(a: GatewayAddressModel): Json {
  if ('hostname' in a)
    return { hostname: { namespace: a.hostname.namespace, hostname: a.hostname.hostname }, hboneMtlsPort: a.hboneMtlsPort };
  const address: Json = { address: ipJson(a.address.ip) ?? '' };
  if (a.address.network) address['network'] = a.address.network;
  return { address, hboneMtlsPort: a.hboneMtlsPort };
}

/** The waypoint address a Service or pod is bound to in the ambient index, if any. */
export function waypointOf(snapshot: MeshSnapshot, key: string, kind: 'services' | 'workloads'): Json | undefined {
  const idx = snapshot.ambient;
  const name = idx?.[kind].get(key)?.waypoint;
  const wp = name ? idx?.waypoints.get(name) : undefined;
  return wp ? gatewayAddressJson(wp.address) : undefined;
}

/**
 * waypointOf for one view: each waypoint's GatewayAddress JSON (and its text, the memo's input) is made once and
 * shared by every Service and workload bound to it. Never mutated by anyone (translation output is read-only).
 */
export class WaypointAddresses {
  private readonly byName = new Map<string, { json: Json; text: string } | undefined>();
  constructor(private readonly snapshot: MeshSnapshot) {}

  private entry(key: string, kind: 'services' | 'workloads'): { json: Json; text: string } | undefined {
    const idx = this.snapshot.ambient;
    const name = idx?.[kind].get(key)?.waypoint;
    if (!name) return undefined;
    if (this.byName.has(name)) return this.byName.get(name);
    const wp = idx?.waypoints.get(name);
    const json = wp ? gatewayAddressJson(wp.address) : undefined;
    const e = json ? { json, text: JSON.stringify(json) } : undefined;
    this.byName.set(name, e);
    return e;
  }

  of(key: string, kind: 'services' | 'workloads'): Json | undefined {
    return this.entry(key, kind)?.json;
  }

  /** The bound address as text ('' when unbound): what a memoized Address depends on. */
  textOf(key: string, kind: 'services' | 'workloads'): string {
    return this.entry(key, kind)?.text ?? '';
  }
}

/** Kubernetes Services only (ServiceEntries are not converted yet); ExternalName services are skipped (serviceServiceBuilder). */
export const isZtunnelService = (s: ServiceModel): boolean => s.registry === 'Kubernetes' && s.ref.kind === 'Service' && !s.externalName;

/** services.go constructService `TargetPort: uint32(p.TargetPort.IntVal)`: 0 for a named target port. */
const numericTargetPort = (p: ServicePort): number =>
  typeof p.targetPort === 'number' ? p.targetPort : p.targetPort === undefined ? p.port : 0;

/** services.go getVIPs: the cluster IPs, without `None` or empty ones. */
function vips(s: ServiceModel): string[] {
  return (s.addresses.length ? s.addresses : [s.address]).filter((ip) => ip !== '' && ip !== 'None' && ip !== '0.0.0.0');
}

export function serviceJson(snapshot: MeshSnapshot, s: ServiceModel, waypoints: WaypointAddresses): Json {
  const ports = s.ports.map((p) => {
    const out: Json = { servicePort: p.port };
    const tp = numericTargetPort(p);
    if (tp) out['targetPort'] = tp;
    const ap = appProtocol(p.protocol);
    if (ap) out['appProtocol'] = ap;
    return out;
  });
  const addresses = vips(s).flatMap((ip) => {
    const b = ipJson(ip);
    return b ? [{ address: b }] : [];
  });
  const svc: Json = { name: s.name, namespace: s.namespace, hostname: s.hostname };
  if (addresses.length) svc['addresses'] = addresses;
  if (ports.length) svc['ports'] = ports;
  const key = `${s.namespace}/${s.hostname}`;
  const wp = waypoints.of(key, 'services');
  if (wp) svc['waypoint'] = wp;
  // A Kubernetes Service is always canonical (constructService `Canonical: true`).
  svc['canonical'] = true;
  if (snapshot.ambient?.services.get(key)?.ingressUseWaypoint) svc['ingressUseWaypoint'] = true;
  return svc;
}

/**
 * workloads.go constructServices: per selecting Service, its ports with the pod's target port. A named Kubernetes
 * targetPort is looked up in the pod's container ports; a pod without that port name leaves the port out.
 */
export function workloadServicePorts(pod: Pick<PodModel, 'namedPorts'>, s: ServiceModel): Json {
  const ports: Json[] = [];
  for (const p of s.ports) {
    let target = numericTargetPort(p);
    if (typeof p.targetPort === 'string') {
      const named = pod.namedPorts[p.targetPort];
      if (named === undefined) continue;
      target = named;
    }
    const out: Json = { servicePort: p.port };
    if (target) out['targetPort'] = target;
    ports.push(out);
  }
  return ports.length ? { ports } : {};
}
