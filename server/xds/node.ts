// Node identification, as istiod does it (pilot/pkg/model/context.go ParseServiceNodeWithMetadata):
// id = TYPE~IP~POD.NAMESPACE~NAMESPACE.svc.DOMAIN; metadata NAMESPACE, LABELS, GENERATOR, CLUSTER_ID,
// INSTANCE_IPS. GENERATOR "grpc" marks a proxyless gRPC client (istiod's grpcgen).
import type { Node } from '../gen/envoy/config/core/v3/base_pb';
import type { ClientInfo } from './types';

/** Node types istiod accepts in the first id segment (model.IsApplicationNodeType). */
const NODE_TYPES = new Set(['sidecar', 'router', 'waypoint', 'ztunnel']);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function labelsOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  }
  return out;
}

/** Parses a client's node (from the first request of a stream) into ClientInfo. Never throws. */
export function parseNode(node: Node | undefined, peer: string): ClientInfo {
  const nodeId = node?.id ?? '';
  const metadata: Record<string, unknown> = { ...(node?.metadata ?? {}) };
  const generator = str(metadata['GENERATOR']);
  const info: ClientInfo = {
    nodeId,
    proxyId: nodeId,
    ips: [],
    labels: labelsOf(metadata['LABELS']),
    flavour: generator === 'grpc' ? 'grpc' : 'envoy',
    metadata,
    peer,
  };
  if (generator) info.generator = generator;
  const clusterId = str(metadata['CLUSTER_ID']);
  if (clusterId) info.clusterId = clusterId;
  if (node?.cluster) info.cluster = node.cluster;
  if (node?.locality) {
    info.locality = { region: node.locality.region, zone: node.locality.zone, subZone: node.locality.subZone };
  }
  if (node?.userAgentName) {
    const v = node.userAgentVersionType.case === 'userAgentVersion' ? node.userAgentVersionType.value : '';
    info.userAgent = v ? `${node.userAgentName}/${v}` : node.userAgentName;
  }

  const parts = nodeId.split('~');
  if (parts.length !== 4) {
    info.parseError = `node id "${nodeId}" is not TYPE~IP~POD.NAMESPACE~DOMAIN (${parts.length} parts)`;
  } else {
    const [type, ip, id, domain] = parts as [string, string, string, string];
    if (!NODE_TYPES.has(type)) info.parseError = `node id "${nodeId}": unknown node type "${type}"`;
    info.nodeType = type;
    if (id) info.proxyId = id;
    if (ip) info.ips = [ip];
    // istiod: the namespace comes from metadata; otherwise the id's suffix after the first "." and then the domain.
    const dot = id.indexOf('.');
    const fromId = dot > 0 ? id.slice(dot + 1) : undefined;
    const fromDomain = domain.split('.')[0] || undefined;
    const ns = str(metadata['NAMESPACE']) ?? fromId ?? fromDomain;
    if (ns) info.namespace = ns;
  }
  if (!info.namespace) {
    const ns = str(metadata['NAMESPACE']);
    if (ns) info.namespace = ns;
  }
  const instanceIps = str(metadata['INSTANCE_IPS']);
  if (instanceIps)
    info.ips = instanceIps
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return info;
}

/**
 * A client that asks LDS for `host:port` names (or gRPC server listener names) is a proxyless gRPC client
 * even without GENERATOR metadata: Envoys subscribe to LDS by wildcard and name listeners `IP_PORT`.
 */
export function isGrpcListenerRequest(wildcard: boolean, names: ReadonlySet<string>): boolean {
  if (wildcard || names.size === 0) return false;
  for (const n of names) {
    if (n.startsWith('xds.istio.io/grpc/lds/inbound/')) continue;
    if (!/^(?:\[[^\]]+\]|[^:[\]]+):\d+$/.test(n)) return false;
  }
  return true;
}
