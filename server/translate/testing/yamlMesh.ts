// Test helper: a MeshSnapshot from YAML text written in the test (the product's own parse + snapshot path).
import type { MeshSnapshot, ProxyModel } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { parseText } from '../../sources/file/loadPaths';

export function meshFromYaml(text: string): MeshSnapshot {
  const { inputs, errors } = parseText(text, 'test.yaml');
  return buildSnapshot(inputs, { version: 1, extraErrors: errors });
}

/** The first proxy of a namespace whose labels include these. Throws when there is none (a broken test input). */
export function proxyWith(snapshot: MeshSnapshot, namespace: string, labels: Record<string, string>): ProxyModel {
  const p = snapshot.proxies.find((x) => x.namespace === namespace && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  if (!p) throw new Error(`no proxy in ${namespace} with ${JSON.stringify(labels)}`);
  return p;
}

/** A Deployment (one pod) with an injected sidecar, or a router when `router` is set. */
export function deployment(name: string, namespace: string, labels: Record<string, string>, router = false): string {
  const args = router ? `\n          args: ["proxy", "router"]` : '';
  const annotations = router ? `\n      annotations: {sidecar.istio.io/inject: "false"}` : '';
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  selector: {matchLabels: ${JSON.stringify(labels)}}
  template:
    metadata:
      labels: ${JSON.stringify(labels)}${annotations}
    spec:
      containers:
        - name: ${router ? 'istio-proxy' : name}
          image: example/${name}:1${args}
          ports: [{containerPort: 9080}, {containerPort: 8080}]
`;
}
