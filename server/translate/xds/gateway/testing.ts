// Test helpers for gateway translation: a mesh from YAML text (parsed by the real file source and snapshot
// builder) with Istio's ingress gateway workload (e2e/fixtures/ingressgateway.yaml: Service 80→8080,
// 443→8443, pods `istio: ingressgateway` running `proxy router`). Not used by the product.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../../../model/mesh';
import { buildSnapshot } from '../../../model/snapshot';
import { parseText } from '../../../sources/file/loadPaths';
import { REPO_ROOT } from '../../../testing/paths';
import { translateProxy, type ResourceTable } from '../../index';

export const INGRESS_YAML = readFileSync(join(REPO_ROOT, 'e2e', 'fixtures', 'ingressgateway.yaml'), 'utf8');

/** A Service `name` (port `port`, named `http` unless given) and one pod selected by it, with a sidecar. */
export function backend(name: string, ns: string, port = 80, portName = 'http'): string {
  return `
apiVersion: v1
kind: Service
metadata: { name: ${name}, namespace: ${ns} }
spec:
  selector: { app: ${name} }
  ports: [{ name: ${portName}, port: ${port}, targetPort: ${port} }]
---
apiVersion: v1
kind: Pod
metadata: { name: ${name}-0, namespace: ${ns}, labels: { app: ${name} }, annotations: { sidecar.istio.io/status: '{}' } }
spec: { containers: [{ name: app, image: x, ports: [{ containerPort: ${port} }] }, { name: istio-proxy, image: proxyv2, args: [proxy, sidecar] }] }
status: { podIP: 10.1.${ns.length}.${name.length}, phase: Running, conditions: [{ type: Ready, status: "True" }] }
`;
}

export interface GatewayMesh {
  snapshot: MeshSnapshot;
  router: ProxyModel;
  table: ResourceTable;
  listener(name: string): ListenerJson | undefined;
  route(name: string): RouteConfigurationJson | undefined;
}

/** Parses the documents (plus the ingress gateway unless `withIngress` is false) and translates the router. */
export function gatewayMesh(docs: string[], withIngress = true): GatewayMesh {
  const inputs = [];
  const texts = withIngress ? [INGRESS_YAML, ...docs] : docs;
  for (const [i, t] of texts.entries()) {
    const r = parseText(t, `doc${i}.yaml`);
    if (r.errors.length) throw new Error(`test YAML ${i}: ${r.errors.map((e) => e.message).join('; ')}`);
    inputs.push(...r.inputs);
  }
  const snapshot = buildSnapshot(inputs, { version: 1 });
  const bad = snapshot.errors.filter((e) => e.severity === 'error');
  if (bad.length) throw new Error(`test mesh rejected: ${bad.map((e) => `${e.object ?? ''} ${e.path ?? ''}: ${e.message}`).join('; ')}`);
  const router = snapshot.proxies.find((p) => p.type === 'router');
  if (!router) throw new Error('no router proxy in the test mesh');
  const table = translateProxy(snapshot, router, DEFAULT_OPTIONS);
  return {
    snapshot,
    router,
    table,
    listener: (n) => table.listeners.find((l) => l.name === n),
    route: (n) => table.routes.find((r) => r.name === n),
  };
}
