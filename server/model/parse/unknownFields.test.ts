// Unknown fields are located warnings and are ignored, as the Kubernetes API server does with
// `fieldValidation=Warn` (KEP-2885: "unknown field \"spec.ports[0].targetport\""); the object still loads.
// Regression: a misspelt field inside a Kubernetes object (below its top level) used to pass silently.
import { describe, expect, it } from 'vitest';
import { parseText } from '../../sources/file/parseFile';
import { buildSnapshot } from '../snapshot';

const snap = (yaml: string) => {
  const r = parseText(yaml, 'in.yaml');
  return { snapshot: buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors }), inputs: r.inputs };
};
const warnings = (s: ReturnType<typeof snap>['snapshot']) => s.errors.map((e) => [e.severity, e.object, e.path, e.message]);

describe('unknown fields', () => {
  it('inside the Kubernetes kinds meshscope reads: warned at their path, ignored, the object loads', () => {
    const { snapshot } = snap(`
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: shop}
spec:
  selector: {app: cart}
  ports:
  - name: http
    port: 80
    targetport: 8080
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cart, namespace: shop}
spec:
  selector: {matchLabels: {app: cart}}
  template:
    metadata: {labels: {app: cart}}
    spec:
      serviceAcountName: cart
      containers:
      - name: cart
        image: cart:1
        imagePullPolicy: IfNotPresent
        ports:
        - {containerPort: 8080, nmae: http}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: cart-1, namespace: shop, labels: {kubernetes.io/service-name: cart}}
addressType: IPv4
endpoints:
- addresses: [10.0.0.1]
  condition: {ready: false}
ports:
- {name: http, port: 8080}
`);
    expect(warnings(snapshot)).toEqual([
      ['warning', 'Service shop/cart', 'spec.ports[0].targetport', 'unknown field "targetport" (ignored)'],
      ['warning', 'Deployment shop/cart', 'spec.template.spec.serviceAcountName', 'unknown field "serviceAcountName" (ignored)'],
      ['warning', 'Deployment shop/cart', 'spec.template.spec.containers[0].ports[0].nmae', 'unknown field "nmae" (ignored)'],
      ['warning', 'EndpointSlice shop/cart-1', 'endpoints[0].condition', 'unknown field "condition" (ignored)'],
    ]);
    // Ignored: targetPort unset → the port; serviceAccountName unset → "default"; `condition` is not `conditions`
    // (ready unset → ready).
    expect(snapshot.services[0]!.ports).toEqual([{ name: 'http', port: 80, protocol: 'HTTP', targetPort: 80 }]);
    expect(snapshot.pods.map((p) => p.serviceAccount)).toEqual(['default']);
    expect(
      snapshot.endpoints
        .get('shop/cart.shop.svc.cluster.local')
        ?.get(80)
        ?.map((e) => e.healthy),
    ).toEqual([true]);
  });

  it('inside an Istio spec: pruned with a warning, the rest validates, and the raw input is left as it was', () => {
    const { snapshot, inputs } = snap(`
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: cart, namespace: shop}
spec:
  host: cart
  trafficPolicy:
    connectionPool:
      tcp: {maxConnections: 5, maxConnection: 6}
  subsets:
  - name: v1
    labels: {version: v1}
    label: {version: v2}
`);
    expect(warnings(snapshot)).toEqual([
      [
        'warning',
        'DestinationRule shop/cart',
        'spec.trafficPolicy.connectionPool.tcp.maxConnection',
        'unknown field "maxConnection" (ignored)',
      ],
      ['warning', 'DestinationRule shop/cart', 'spec.subsets[0].label', 'unknown field "label" (ignored)'],
    ]);
    expect(snapshot.destinationRules[0]!.spec.subsets).toEqual([{ name: 'v1', labels: { version: 'v1' } }]);
    // The store keeps the raw object to compare versions: pruning works on a copy.
    expect((inputs[0]!.object.spec as { subsets: unknown[] }).subsets[0]).toHaveProperty('label');
  });
});
