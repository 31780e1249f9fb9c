// The Security tab's mTLS rows, in words: per inbound port the effective mode and which PeerAuthentication
// sets it (port-level / workload / namespace / mesh scope, as policy_applier.go ComposePeerAuthentication
// picks it) or the mesh default; per outbound cluster auto mTLS, the DestinationRule whose tls applies, or
// none. Pure; the data is ProxySecurity.mtls (server/translate/mtls.ts effectiveMtls).
import type { ClusterMtls, InboundPortMtls, MtlsSource } from '@/server/api/contract';

export interface PortMtlsRow {
  port: number;
  mode: InboundPortMtls['mode'];
  /** `from PeerAuthentication shop/strict (namespace)` or `mesh default`. */
  source: string;
  /** The config path to link to (absent for the mesh default). */
  config?: string;
  services: string[];
}

export interface ClusterMtlsRow {
  cluster: string;
  /** `auto mTLS`, `DestinationRule ns/name (MODE)` or `none`. */
  tls: string;
  config?: string;
  sni?: string;
}

export function sourceLabel(s: MtlsSource): string {
  if (s.kind === 'default') return 'mesh default';
  const scope = s.path.startsWith('spec.portLevelMtls.') ? 'port-level' : s.scope;
  return `from PeerAuthentication ${s.namespace}/${s.name} (${scope})`;
}

export function portRows(inbound: readonly InboundPortMtls[]): PortMtlsRow[] {
  return inbound.map((p) => ({
    port: p.port,
    mode: p.mode,
    source: sourceLabel(p.source),
    ...(p.source.kind === 'PeerAuthentication' ? { config: p.source.config } : {}),
    services: p.services,
  }));
}

/** `/apis/networking.istio.io/v1/namespaces/NS/destination-rule/NAME` → `NS/NAME`. */
function drName(config: string): string {
  const m = /\/namespaces\/([^/]+)\/destination-rule\/([^/]+)$/.exec(config);
  return m ? `${m[1]}/${m[2]}` : config;
}

export function clusterRows(clusters: readonly ClusterMtls[]): ClusterMtlsRow[] {
  return clusters.map((c) => {
    const tls =
      c.kind === 'auto'
        ? 'auto mTLS'
        : c.kind === 'DR'
          ? `DestinationRule ${c.destinationRule ? drName(c.destinationRule.config) : '?'}${c.mode ? ` (${c.mode})` : ''}`
          : 'none';
    return {
      cluster: c.cluster,
      tls,
      ...(c.kind === 'DR' && c.destinationRule ? { config: c.destinationRule.config } : {}),
      ...(c.sni ? { sni: c.sni } : {}),
    };
  });
}
