// A client's node → ClientInfo: id and metadata parsed by server/model/proxyIdentity (istiod's
// ParseServiceNodeWithMetadata), plus what the xDS server needs: GENERATOR "grpc" marks a proxyless gRPC
// client (istiod's grpcgen), CLUSTER_ID, locality, user agent.
import type { Node } from '../gen/envoy/config/core/v3/base_pb';
import { asNonEmptyString } from '../lib/json';
import { nodeLabels, parseNodeId } from '../model/proxyIdentity';
import type { ClientInfo } from './types';

const str = asNonEmptyString;

/** Parses a client's node (from the first request of a stream) into ClientInfo. Never throws. */
export function parseNode(node: Node | undefined, peer: string): ClientInfo {
  const nodeId = node?.id ?? '';
  const metadata: Record<string, unknown> = { ...(node?.metadata ?? {}) };
  const generator = str(metadata['GENERATOR']);
  const info: ClientInfo = {
    nodeId,
    proxyId: nodeId,
    ips: [],
    labels: nodeLabels(metadata),
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

  const id = parseNodeId(nodeId, metadata);
  info.proxyId = id.proxyId;
  info.ips = id.ips;
  if (id.error) info.parseError = id.error;
  if (id.type !== undefined) info.nodeType = id.type;
  if (id.namespace) info.namespace = id.namespace;
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
