// effectiveMtls: the mTLS picture of one proxy, for the Security view and the CLI — what istiod decides on both
// sides, with provenance. Pure (snapshot, proxy, options) → data; it runs the same code translateProxy runs.
//
// Shape (keep stable; the Security tab reads it):
//   {
//     proxy: "POD.NS",
//     inbound: [                     // one entry per workload port with a filter chain, sorted by port;
//       { port: 9080,                //   port 0 = the passthrough chains (ports no Service declares)
//         mode: "STRICT" | "PERMISSIVE" | "DISABLE",
//         source: { kind: "default" }                      // mesh default (no PeerAuthentication sets a mode)
//               | { kind: "PeerAuthentication", namespace, name,
//                   scope: "mesh" | "namespace" | "workload",
//                   path: "spec.mtls.mode" | "spec.portLevelMtls.9080.mode",
//                   config: "/apis/security.istio.io/v1/namespaces/NS/peer-authentication/NAME" },
//         services: ["reviews.default.svc.cluster.local:9080"] }  // the service ports served there (none for 0)
//     ],
//     clusters: [                    // every outbound service cluster, sorted by name
//       { cluster: "outbound|9080|v1|reviews.default.svc.cluster.local",
//         kind: "auto" | "DR" | "none",          // auto mTLS, a DestinationRule tls, or plaintext
//         mode?: "ISTIO_MUTUAL" | "SIMPLE" | "MUTUAL" | "DISABLE",
//         sni?: "outbound_.9080_.v1_.reviews.default.svc.cluster.local",
//         subjectAltNames?: ["spiffe://cluster.local/ns/default/sa/bookinfo-reviews"],
//         destinationRule?: { config: "/apis/networking.istio.io/v1/namespaces/NS/destination-rule/NAME", path: "spec.trafficPolicy.tls" } }
//     ]
//   }
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import type { ClientTLSSettings } from '../model/istio';
import { byteCompare } from '../lib/compare';
import { type MtlsMode, type MtlsSource, modeForPort } from './security/peerAuthentication';
import { passthroughMtls, workloadPeerAuthentication } from './security/workload';
import { buildProxyView } from './view';
import { buildClusters, type ClusterTlsRecord } from './xds/clusters';

export type { MtlsMode, MtlsSource } from './security/peerAuthentication';
export type { ClusterTlsKind } from './security/clusterTls';

export interface InboundPortMtls {
  port: number;
  mode: MtlsMode;
  source: MtlsSource;
  services: string[];
}

export interface ClusterMtls {
  cluster: string;
  kind: ClusterTlsRecord['kind'];
  mode?: NonNullable<ClientTLSSettings['mode']>;
  sni?: string;
  subjectAltNames?: string[];
  destinationRule?: { config: string; path: string };
}

export interface EffectiveMtls {
  proxy: string;
  inbound: InboundPortMtls[];
  clusters: ClusterMtls[];
}

export function effectiveMtls(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions = DEFAULT_OPTIONS): EffectiveMtls {
  const view = buildProxyView(snapshot, proxy, options);
  const merged = workloadPeerAuthentication(snapshot, proxy, options);
  const inbound = new Map<number, InboundPortMtls>();
  if (proxy.type === 'sidecar') {
    for (const p of passthroughMtls(
      merged,
      view.serviceTargets.map((t) => t.targetPort),
    ))
      inbound.set(p.port, { port: p.port, mode: p.mode, source: p.source, services: [] });
    for (const t of view.serviceTargets) {
      const cur = inbound.get(t.targetPort) ?? { port: t.targetPort, ...modeForPort(merged, t.targetPort), services: [] };
      cur.services.push(`${t.service.hostname}:${t.port.port}`);
      inbound.set(t.targetPort, cur);
    }
  }
  const records: ClusterTlsRecord[] = [];
  const { clusters } = buildClusters(view, (r) => records.push(r));
  const configOf = new Map(
    clusters.map((c) => [c.name ?? '', (c.metadata?.filterMetadata as Record<string, { config?: string }> | undefined)?.['istio']?.config]),
  );
  const out: ClusterMtls[] = records.map((r) => {
    const m: ClusterMtls = { cluster: r.cluster, kind: r.kind };
    if (r.settings?.mode) m.mode = r.settings.mode;
    if (r.settings?.sni) m.sni = r.settings.sni;
    if (r.settings?.subjectAltNames?.length) m.subjectAltNames = [...r.settings.subjectAltNames];
    const config = configOf.get(r.cluster);
    if (r.kind === 'DR' && r.path && config) m.destinationRule = { config, path: r.path };
    return m;
  });
  return {
    proxy: proxy.id,
    inbound: [...inbound.values()].sort((a, b) => a.port - b.port),
    clusters: out.sort((a, b) => byteCompare(a.cluster, b.cluster)),
  };
}
