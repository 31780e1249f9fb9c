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
  return out.map((object, doc) => ({ object, origin: { ...origin, doc } }));
}
