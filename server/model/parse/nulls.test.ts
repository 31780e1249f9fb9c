// `null` is "unset" everywhere, as the Kubernetes API server reads it (a JSON null decodes to the Go zero
// value for built-in kinds; structural-schema pruning drops non-nullable null fields of CRDs): a realistic
// manifest full of `key:` (no value) loads every object, with no error, and means what it would mean without
// those keys. Regression: a Pod container with `args:` (null) used to drop the whole Pod, a Service with
// `selector:` / `ports:` null, an EndpointSlice with null conditions and metadata `labels:` null likewise.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPaths } from '../../sources/file/loadPaths';
import { parseText } from '../../sources/file/parseFile';
import { buildSnapshot } from '../snapshot';
import { validateRaw } from './objects';

const TD = join(import.meta.dirname, '..', 'testdata');
const load = () => {
  const r = loadPaths([join(TD, 'nulls.yaml')]);
  return buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
};

describe('null = unset', () => {
  it('every object of a manifest full of nulls loads without an error or warning', () => {
    const snap = load();
    expect(snap.errors).toEqual([]);
    expect(snap.namespaces.get('shop')).toEqual({ name: 'shop', labels: {}, declared: true });
    expect(snap.services.map((s) => s.name).sort()).toEqual(['cart', 'empty', 'ext']);
    expect(snap.virtualServices.map((c) => c.meta.name)).toEqual(['cart']);
    expect(snap.destinationRules.map((c) => c.meta.name)).toEqual(['cart']);
    expect(snap.gateways.map((c) => c.meta.name)).toEqual(['gw']);
    expect(snap.serviceEntries.map((c) => c.meta.name)).toEqual(['ext']);
    expect(snap.sidecars.map((c) => c.meta.name)).toEqual(['default']);
  });

  it('Pods with `args:` / `ports:` / `conditions:` null and Deployments with null template fields become pods', () => {
    const snap = load();
    const pods = snap.pods.map((p) => `${p.owner?.name ?? p.name}:${p.proxy}`).sort();
    // cart-pod and cart-v1 carry an istio-proxy container (proxyIdentity: injected sidecar); cart-v2 has none.
    expect(pods).toEqual(['cart-pod:sidecar', 'cart-v1:sidecar', 'cart-v2:none']);
    const v1 = snap.pods.find((p) => p.owner?.name === 'cart-v1')!;
    expect(v1.serviceAccount).toBe('default'); // serviceAccountName: null = unset → "default"
    expect(v1.containerPorts).toEqual([8080]);
    // replicas: null = unset → the apps/v1 default of 1.
    expect(snap.pods.filter((p) => p.owner?.name === 'cart-v1')).toHaveLength(1);
    // A Pod with `conditions:` null and phase Running is ready (no Ready condition to say otherwise).
    expect(snap.pods.find((p) => p.name === 'cart-pod')!.ready).toBe(true);
  });

  it('a Service with `selector:` / `ports:` null is a selector-less Service without ports; null port fields take their defaults', () => {
    const snap = load();
    const empty = snap.services.find((s) => s.name === 'empty')!;
    expect(empty.ports).toEqual([]);
    expect(empty.selector).toBeUndefined();
    const cart = snap.services.find((s) => s.name === 'cart')!;
    // targetPort: null = unset → the port itself (core/v1 defaulting); protocol null → sniffed (name "http" → HTTP).
    expect(cart.ports).toEqual([{ name: 'http', port: 8080, protocol: 'HTTP', targetPort: 8080 }]);
  });

  it('an EndpointSlice with null conditions is read (ready unset = ready, discovery/v1 EndpointConditions)', () => {
    const snap = load();
    const eps = snap.endpoints.get('shop/cart.shop.svc.cluster.local')?.get(8080) ?? [];
    expect(eps.map((e) => `${e.address}:${e.port}:${e.healthy}`)).toEqual(['10.0.0.9:8080:true']);
  });

  it('Istio specs: null lists and maps are absent (VirtualService match/gateways/tcp, DR trafficPolicy, SE endpoints, Sidecar selector)', () => {
    const snap = load();
    const vs = snap.virtualServices[0]!.spec;
    expect(vs).toEqual({ hosts: ['cart'], http: [{ route: [{ destination: { host: 'cart' } }] }] });
    expect(snap.destinationRules[0]!.spec).toEqual({ host: 'cart', subsets: [{ name: 'v1', labels: { version: 'v1' } }] });
    expect(snap.gateways[0]!.spec.servers[0]).toEqual({ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*'] });
    expect(snap.serviceEntries[0]!.spec.endpoints).toBeUndefined();
    expect(snap.sidecars[0]!.spec).toEqual({ egress: [{ hosts: ['./*'] }] });
  });

  it("validateRaw (the store's last-good check) agrees: no issue for null fields", () => {
    const r = parseText(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\nspec:\n  containers:\n  - name: c\n    args:\n',
      'p.yaml',
    );
    expect(validateRaw(r.inputs[0]!.object)).toEqual([]);
  });

  it('a null list item is still a located error (the API server rejects it too)', () => {
    const r = parseText(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    args: [a, null]\n',
      'p.yaml',
    );
    expect(validateRaw(r.inputs[0]!.object)).toEqual([{ path: 'spec.containers[0].args[1]', message: 'expected string, got null' }]);
  });
});
