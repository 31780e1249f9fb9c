// One inbound filter chain's configuration before it becomes Envoy chains (listener_inbound.go inboundChainConfig,
// the parts meshscope models). Shared by the service-target chains (inbound.ts) and the Sidecar ingress ones
// (inboundIngress.ts).
import type { MetadataJson } from '../../../gen/envoy/config/core/v3/base_pb';
import type { Protocol } from '../../../model/mesh';
import type { ServiceTarget } from '../../view/types';

export interface ChainConfig {
  clusterName: string;
  targetPort: number;
  servicePort: number;
  protocol: Protocol;
  /** The service hostname, or `<sidecar>.<namespace>` for a Sidecar ingress listener (telemetry, trace decorator). */
  hostname: string;
  /** The chain's bind: names it (`<bind>_<port>`) and, when bindToPort, is the address of its own listener. */
  bind: string;
  /** captureMode NONE: a real listener on bind:port instead of a chain of virtualInbound. */
  bindToPort: boolean;
  passthrough: boolean;
  /** The service target the chain serves (absent for passthrough and Sidecar ingress chains). */
  target?: ServiceTarget;
  /** Sidecar ingress chains point back at their Sidecar (BuildConfigInfoMetadata). */
  metadata?: MetadataJson;
}
