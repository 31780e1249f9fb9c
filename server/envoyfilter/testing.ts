// Test support: Istio's Bookinfo (../shared fixtures, as they are) plus an ingress gateway and EnvoyFilters
// written in the test, built through the product's own parse → snapshot → translate → EnvoyFilter stage.
import { readFileSync } from 'node:fs';
import { optionsOf, type MeshSnapshot, type ProxyModel } from '../model/mesh';
import { buildProxyTable } from '../pipeline/stages';
import { bookinfo } from '../testing/paths';
import { deployment, meshFromYaml, proxyWith } from '../translate/testing/yamlMesh';
import type { ResourceTable } from '../translate/types';

export const INGRESS = `${deployment('istio-ingressgateway', 'istio-system', { istio: 'ingressgateway', app: 'istio-ingressgateway' }, true)}
---
apiVersion: v1
kind: Service
metadata: {name: istio-ingressgateway, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  ports: [{name: http2, port: 80, targetPort: 8080}]
`;

/** Bookinfo + its DestinationRules and Gateway/VirtualService + an ingress gateway + `extra` YAML. */
export function bookinfoMesh(extra = ''): MeshSnapshot {
  const docs = [
    readFileSync(bookinfo('platform', 'bookinfo.yaml'), 'utf8'),
    readFileSync(bookinfo('networking', 'destination-rule-all.yaml'), 'utf8'),
    readFileSync(bookinfo('networking', 'bookinfo-gateway.yaml'), 'utf8'),
    INGRESS,
    extra,
  ];
  return meshFromYaml(docs.join('\n---\n'));
}

export function tableOf(snapshot: MeshSnapshot, proxy: ProxyModel): ResourceTable {
  return buildProxyTable(snapshot, proxy, optionsOf(snapshot));
}

export const sidecar = (s: MeshSnapshot, labels: Record<string, string>) => proxyWith(s, 'default', labels);
export const ingress = (s: MeshSnapshot) => proxyWith(s, 'istio-system', { istio: 'ingressgateway' });

// Loose JSON accessors for assertions.
export type J = any;
export const listenerNamed = (t: ResourceTable, name: string): J => t.listeners.find((l) => l.name === name);
export const clusterNamed = (t: ResourceTable, name: string): J => t.clusters.find((c) => c.name === name);
export const routeNamed = (t: ResourceTable, name: string): J => t.routes.find((r) => r.name === name);
/** The HCM typed config of every chain of a listener that has one. */
export const hcms = (l: J): J[] =>
  [...(l?.filterChains ?? []), ...(l?.defaultFilterChain ? [l.defaultFilterChain] : [])]
    .flatMap((fc: J) => fc.filters ?? [])
    .filter((f: J) => f.name === 'envoy.filters.network.http_connection_manager')
    .map((f: J) => f.typedConfig);
export const httpFilterNames = (hcm: J): string[] => (hcm?.httpFilters ?? []).map((f: J) => f.name);
