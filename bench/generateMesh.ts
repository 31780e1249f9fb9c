// Synthetic meshes for benchmarks and scale tests: N services (each a Deployment with two versions,
// a Service, a DestinationRule with two subsets and optionally a 90/10 VirtualService), spread over
// namespaces. Deterministic; returns raw Kubernetes objects (what a source would hand the store).
import type { RawInput, RawObject } from '../server/sources/types';

export interface SyntheticMeshOptions {
  services: number;
  namespaces?: number;
  /** Emit a VirtualService per service (default true). */
  virtualServices?: boolean;
  /** Ports per service (default 1). */
  ports?: number;
  /** Emit a DestinationRule (two subsets) per service (default true). */
  destinationRules?: boolean;
  /**
   * issue 12's mesh: one Sidecar per namespace (egress: its own namespace and istio-system) and an ingress
   * gateway (a router pod, a Gateway for `*`, every VirtualService bound to it and to the mesh). Default false.
   */
  scoped?: boolean;
}

const origin = { source: 'demo' as const, file: 'synthetic' };

export function generateMesh(o: SyntheticMeshOptions): RawInput[] {
  const nsCount = o.namespaces ?? Math.max(1, Math.ceil(o.services / 100));
  const portsPer = o.ports ?? 1;
  const out: RawObject[] = [];
  for (let n = 0; n < nsCount; n++)
    out.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${n}`, labels: { 'istio-injection': 'enabled' } } });
  for (let i = 0; i < o.services; i++) {
    const ns = `ns-${i % nsCount}`;
    const name = `svc-${i}`;
    const ports = Array.from({ length: portsPer }, (_, p) => ({ name: `http-${p}`, port: 8080 + p, targetPort: 8080 + p }));
    out.push({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { selector: { app: name }, ports } });
    for (const v of ['v1', 'v2'])
      out.push({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: `${name}-${v}`, namespace: ns },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: name, version: v } },
          template: {
            metadata: { labels: { app: name, version: v } },
            spec: { containers: [{ name: 'app', image: 'example/app:1', ports: ports.map((p) => ({ containerPort: p.port })) }] },
          },
        },
      });
    if (o.destinationRules ?? true)
      out.push({
        apiVersion: 'networking.istio.io/v1',
        kind: 'DestinationRule',
        metadata: { name, namespace: ns },
        spec: { host: name, subsets: ['v1', 'v2'].map((v) => ({ name: v, labels: { version: v } })) },
      });
    if (o.virtualServices ?? true)
      out.push({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name, namespace: ns },
        spec: {
          hosts: [name],
          ...(o.scoped ? { gateways: ['mesh', 'istio-system/ingress'] } : {}),
          http: [
            {
              route: [
                { destination: { host: name, subset: 'v1' }, weight: 90 },
                { destination: { host: name, subset: 'v2' }, weight: 10 },
              ],
            },
          ],
        },
      });
  }
  if (o.scoped) out.push(...scopedExtras(nsCount));
  return out.map((object, doc) => ({ object, origin: { ...origin, doc } }));
}

/** One Sidecar per namespace and the ingress gateway (pod, Service, Gateway) in istio-system. */
function scopedExtras(nsCount: number): RawObject[] {
  const out: RawObject[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'istio-system' } }];
  for (let n = 0; n < nsCount; n++)
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Sidecar',
      metadata: { name: 'default', namespace: `ns-${n}` },
      spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
    });
  const labels = { app: 'istio-ingressgateway', istio: 'ingressgateway' };
  out.push(
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'istio-ingressgateway', namespace: 'istio-system' },
      spec: { selector: labels, ports: [{ name: 'http2', port: 80, targetPort: 8080 }] },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'istio-ingressgateway-0', namespace: 'istio-system', labels },
      spec: { containers: [{ name: 'istio-proxy', image: 'istio/proxyv2', args: ['proxy', 'router'], ports: [{ containerPort: 8080 }] }] },
      status: { podIP: '10.250.0.1', phase: 'Running' },
    },
    {
      apiVersion: 'networking.istio.io/v1',
      kind: 'Gateway',
      metadata: { name: 'ingress', namespace: 'istio-system' },
      spec: { selector: { istio: 'ingressgateway' }, servers: [{ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*/*'] }] },
    },
  );
  return out;
}
