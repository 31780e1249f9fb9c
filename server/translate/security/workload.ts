// The mTLS settings of one sidecar's inbound side (plugin/authn/authentication.go Builder: ForPort,
// ForPassthrough, needPerPortPassthroughFilterChain).
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../../model/mesh';
import {
  composePeerAuthentication,
  type MergedPeerAuthentication,
  type ModeWithSource,
  modeForPort,
  peerAuthenticationsFor,
} from './peerAuthentication';

/** The PeerAuthentications selecting the proxy's workload, composed (ComposePeerAuthentication). */
export function workloadPeerAuthentication(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): MergedPeerAuthentication {
  const policies = peerAuthenticationsFor(snapshot, proxy.namespace, proxy.labels, options.rootNamespace);
  return composePeerAuthentication(policies, options.rootNamespace);
}

export interface PassthroughMtls extends ModeWithSource {
  /** 0 = the port-less passthrough chains; else a port-level PeerAuthentication port nothing serves. */
  port: number;
}

/**
 * ForPassthrough: the port-less passthrough mode, then one entry per port-level setting whose port is not served
 * (needPerPortPassthroughFilterChain: the Sidecar's ingress ports when it has some, else the service target
 * ports). istiod iterates a Go map there; meshscope sorts the ports so output is stable.
 */
export function passthroughMtls(merged: MergedPeerAuthentication, servedPorts: readonly number[]): PassthroughMtls[] {
  const out: PassthroughMtls[] = [{ port: 0, mode: merged.mode, source: merged.source }];
  const covered = new Set(servedPorts);
  for (const port of [...merged.perPort.keys()].sort((a, b) => a - b)) {
    if (covered.has(port)) continue;
    out.push({ port, ...modeForPort(merged, port) });
  }
  return out;
}
