// Limits on what one ADS client can make the server hold or do (issue 14 items 6 and 7), with defaults.
// istiod's equivalents where it has one: ISTIO_GPRC_MAXRECVMSGSIZE (4 MiB, pilot/pkg/features/tuning.go)
// for requests, the gRPC clients' 4 MiB default receive limit for responses, PILOT_XDS_SEND_TIMEOUT
// (pilot/pkg/features/pilot.go) for the per-push write deadline. The rest are meshscope's own bounds.
import { isIP } from 'node:net';
import type { Node } from '../gen/envoy/config/core/v3/base_pb';
import { TYPE } from '../envoy/typeUrls';
import { parseNodeId } from '../model/proxyIdentity';

export interface AdsLimits {
  /** Largest request message accepted (grpc.max_receive_message_length); larger ones end the stream. */
  maxRequestBytes: number;
  /** Largest response sent to a client (grpc's default receive limit). */
  maxResponseBytes: number;
  /** Resource names in one request, and subscribed per type on one stream. */
  maxResourceNames: number;
  /** Node metadata (google.protobuf.Struct) as JSON. */
  maxNodeMetadataBytes: number;
  /** node.id length. */
  maxNodeIdLength: number;
  /** NACK error_detail text kept per stream and type (longer text is cut, with a note). */
  maxNackMessageChars: number;
  /** Distinct unknown type URLs answered on one stream (each once). */
  maxUnknownTypes: number;
  /** How long a push waits for its writes before it gives its push slot back (the stream keeps them). */
  writeTimeoutMs: number;
  /** A stream whose oldest response has not been taken for this long is reset. */
  stalledStreamCloseMs: number;
  /**
   * Response bytes written to all streams and not yet taken by their clients before the server pauses
   * generating more (slices.ts): bounds the memory a connect wave holds at once. 0: no bound.
   */
  maxPendingSendBytes: number;
}

export const DEFAULT_LIMITS: Readonly<AdsLimits> = {
  maxRequestBytes: 4 * 1024 * 1024,
  maxResponseBytes: 4 * 1024 * 1024,
  maxResourceNames: 50_000,
  maxNodeMetadataBytes: 128 * 1024,
  maxNodeIdLength: 1024,
  maxNackMessageChars: 4096,
  maxUnknownTypes: 8,
  writeTimeoutMs: 1_000,
  stalledStreamCloseMs: 30_000,
  maxPendingSendBytes: 16 * 1024 * 1024,
};

/** The types meshscope serves (an empty answer when it has none, e.g. SDS); anything else is unknown. */
export const KNOWN_TYPES: ReadonlySet<string> = new Set(Object.values(TYPE));

/**
 * Why a stream's first request cannot identify a client, or undefined. istiod answers these with
 * INVALID_ARGUMENT (pilot/pkg/xds/ads.go receive: "missing node information"; initProxyMetadata: the
 * ParseServiceNodeWithMetadata error). meshscope also serves non-Istio ids, but only when NAMESPACE metadata
 * says which namespace's config applies: without it no proxy can ever be made and the stream would hang.
 */
export function nodeProblem(
  node: Node | undefined,
  limits: Pick<AdsLimits, 'maxNodeIdLength' | 'maxNodeMetadataBytes'>,
): string | undefined {
  if (!node || node.id === '') return 'missing node information: the first request of a stream must carry node.id';
  const id = node.id;
  if (id.length > limits.maxNodeIdLength) return `node.id is ${id.length} characters; the limit is ${limits.maxNodeIdLength}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\ufffd]/.test(id)) return `node.id ${JSON.stringify(id.slice(0, 80))} contains control or invalid characters`;
  const metaBytes = node.metadata ? Buffer.byteLength(JSON.stringify(node.metadata)) : 0;
  if (metaBytes > limits.maxNodeMetadataBytes) {
    return `node.metadata is ${metaBytes} bytes as JSON; the limit is ${limits.maxNodeMetadataBytes} (MESHSCOPE_XDS_MAX_NODE_METADATA)`;
  }
  const parts = id.split('~');
  const parsed = parseNodeId(id, node.metadata ?? {});
  if (parts.length === 4) {
    // parseNodeId reports an unknown node type (istiod: "invalid node type"); istiod refuses the stream.
    if (parsed.error) return parsed.error;
    if (parts[2] === '') return `node.id "${id}" has an empty POD.NAMESPACE part`;
    // istiod: INSTANCE_IPS metadata when every entry is an IP, else the id's IP; none is an error.
    const instanceIps = node.metadata?.['INSTANCE_IPS'];
    const fromMeta = typeof instanceIps === 'string' && instanceIps.split(',').every((ip) => isIP(ip.trim()) !== 0);
    if (!fromMeta && isIP(parts[1]!) === 0) return `no valid IP address in node.id "${id}" or INSTANCE_IPS metadata`;
    return undefined;
  }
  if (!parsed.namespace) return `${parsed.error} and the node has no NAMESPACE metadata: no proxy can be matched`;
  return undefined;
}

/** Cuts `text` to `max` characters, saying how much was left out. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
