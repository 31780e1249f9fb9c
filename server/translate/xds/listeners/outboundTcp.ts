// Outbound TCP and TLS filter chains of a service port (tls.go: buildSidecarOutboundTLSFilterChainOpts,
// buildSidecarOutboundTCPFilterChainOpts, matchTCP, matchTLS, getConfigsForHost;
// listener.go: buildSidecarOutboundTCPListenerOpts).
import type { L4MatchAttributes } from '../../../model/istio';
import type { IstioConfig, ServiceModel, ServicePort } from '../../../model/mesh';
import { outboundCluster } from '../../names';
import { istioConfigMetadata } from '../../provenance';
import type { ChainOpts } from './chainOpts';
import { hostsMatch } from '../../../model/host';
import { isTlsProtocol } from '../../../model/protocol';
import type { BuildCtx } from './context';
import { routeFilters, singleDestinationFilters } from './tcpProxy';

export interface OutboundTarget {
  service: ServiceModel;
  /** The listener port (the service port). */
  port: ServicePort;
  /** Primary bind of the listener (VIP, pod IP or 0.0.0.0). */
  bind: string;
  /** Destination CIDRs the chains match (CIDR service addresses). */
  cidrs: string[];
}

const WILDCARD = '0.0.0.0';
const MESH_GATEWAY = 'mesh';

/** tls.go matchTCP / matchTLS: the static predicates (gateways, sourceLabels, port, sourceNamespace). */
function staticMatch(ctx: BuildCtx, m: L4MatchAttributes | undefined, port: number): boolean {
  if (!m) return true;
  const gatewayMatch = !m.gateways?.length || m.gateways.includes(MESH_GATEWAY);
  const labels = ctx.view.proxy.labels;
  const labelMatch = Object.entries(m.sourceLabels ?? {}).every(([k, v]) => labels[k] === v);
  const portMatch = !m.port || m.port === port;
  const nsMatch = !m.sourceNamespace || m.sourceNamespace === ctx.view.proxy.namespace;
  return gatewayMatch && labelMatch && portMatch && nsMatch;
}

/** tls.go getConfigsForHost: VirtualServices with a host overlapping the service (any namespace). */
function configsForHost(vss: readonly IstioConfig<'VirtualService'>[], hostname: string): IstioConfig<'VirtualService'>[] {
  return vss.filter((vs) => (vs.spec.hosts ?? []).some((h) => hostsMatch(h, hostname)));
}

/** Default chain to `outbound|<p>||<host>`: p is the service's only port if it has one, else the listener port. */
function defaultCluster(t: OutboundTarget): string {
  const port = t.service.ports.length === 1 ? (t.service.ports[0] as ServicePort).port : t.port.port;
  return outboundCluster(port, t.service.hostname);
}

function defaultFilters(ctx: BuildCtx, t: OutboundTarget) {
  return singleDestinationFilters(defaultCluster(t), '', ctx.view.destinationRule(t.service.hostname)?.spec);
}

export function tlsChains(ctx: BuildCtx, t: OutboundTarget, vss: readonly IstioConfig<'VirtualService'>[]): ChainOpts[] {
  if (!isTlsProtocol(t.port.protocol)) return [];
  const out: ChainOpts[] = [];
  const handled = new Set<string>();
  let hasTlsMatch = false;
  let cidrs = t.cidrs;
  for (const vs of vss) {
    (vs.spec.tls ?? []).forEach((tls, i) => {
      if (!tls.route?.length) return;
      for (const match of tls.match ?? []) {
        if (!staticMatch(ctx, match, t.port.port)) continue;
        // A VirtualService destinationSubnets match overrides the service CIDRs (and, as in tls.go, stays
        // in force for the following matches).
        if (match.destinationSubnets?.length && t.port.port > 0) cidrs = match.destinationSubnets;
        const hash = `${(match.sniHosts ?? []).join(',')}|${(match.destinationSubnets ?? []).join(',')}`;
        if (!handled.has(hash)) {
          const filters = routeFilters(ctx, tls.route, t.port.port, vs, `spec.tls[${i}].route`);
          if (filters) {
            out.push({
              metadata: istioConfigMetadata(vs),
              sniHosts: [...(match.sniHosts ?? [])],
              destinationCidrs: cidrs,
              networkFilters: filters,
            });
            hasTlsMatch = true;
          }
        }
        handled.add(hash);
      }
    });
  }
  if (!hasTlsMatch) {
    // SNI = the hostname only when the listener cannot tell services apart otherwise: CIDR destination,
    // no address, or a 0.0.0.0 address on a wildcard bind.
    const addr = t.service.address.includes('/') ? '' : t.service.address;
    const needSni = cidrs.length > 0 || addr === '' || (addr === WILDCARD && t.bind === WILDCARD);
    out.push({
      ...(needSni ? { sniHosts: [t.service.hostname] } : {}),
      destinationCidrs: cidrs,
      networkFilters: defaultFilters(ctx, t),
    });
  }
  return out;
}

export function tcpChains(ctx: BuildCtx, t: OutboundTarget, vss: readonly IstioConfig<'VirtualService'>[]): ChainOpts[] {
  if (isTlsProtocol(t.port.protocol)) return [];
  const out: ChainOpts[] = [];
  let defaultRouteAdded = false;
  outer: for (const vs of vss) {
    const tcps = vs.spec.tcp ?? [];
    for (let i = 0; i < tcps.length; i++) {
      const tcp = tcps[i];
      if (!tcp?.route?.length) continue;
      const path = `spec.tcp[${i}].route`;
      if (!tcp.match?.length) {
        const filters = routeFilters(ctx, tcp.route, t.port.port, vs, path);
        if (!filters) continue;
        out.push({ metadata: istioConfigMetadata(vs), destinationCidrs: t.cidrs, networkFilters: filters });
        defaultRouteAdded = true;
        break outer;
      }
      const vsSubnets: string[] = [];
      for (const match of tcp.match) {
        if (!staticMatch(ctx, match, t.port.port)) continue;
        // A matching block without destinationSubnets is terminal (the catch-all for this listener).
        if (!match.destinationSubnets?.length || t.port.port === 0) {
          const filters = routeFilters(ctx, tcp.route, t.port.port, vs, path);
          if (!filters) continue;
          out.push({ metadata: istioConfigMetadata(vs), destinationCidrs: t.cidrs, networkFilters: filters });
          defaultRouteAdded = true;
          break outer;
        }
        vsSubnets.push(...match.destinationSubnets);
      }
      if (vsSubnets.length > 0) {
        const filters = routeFilters(ctx, tcp.route, t.port.port, vs, path);
        if (filters) out.push({ destinationCidrs: vsSubnets, networkFilters: filters });
        // Same CIDRs as the service default would have: skip the default (Envoy rejects duplicate matches).
        const a = [...vsSubnets].sort();
        const b = [...t.cidrs].sort();
        if (a.length === b.length && a.every((x, k) => x === b[k])) defaultRouteAdded = true;
      }
    }
  }
  if (!defaultRouteAdded) out.push({ destinationCidrs: t.cidrs, networkFilters: defaultFilters(ctx, t) });
  return out;
}

/** listener.go buildSidecarOutboundTCPListenerOpts: TLS chains then TCP chains, from the service's VirtualServices. */
export function tcpListenerChains(ctx: BuildCtx, t: OutboundTarget): ChainOpts[] {
  const vss = configsForHost(ctx.view.virtualServices, t.service.hostname);
  return [...tlsChains(ctx, t, vss), ...tcpChains(ctx, t, vss)];
}
