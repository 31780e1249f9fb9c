// The mesh config ConfigMap through the real informer against the loopback fake API server: istiod reads the
// `mesh` key of ConfigMap `istio` in its namespace istio-system (pilot/pkg/bootstrap/mesh.go), watching it.
// Only that object is listed/watched (field-selected); other ConfigMaps are never requested into the store.
import { afterEach, describe, expect, it } from 'vitest';
import { optionsOf } from '../../model/mesh';
import { Store } from '../store';
import { KubeSource } from './kubeSource';
import { kubeConfigFor, namespace } from './testing/fixtures';
import { startFake, TEST_BACKOFF } from './testing/harness';
import { waitFor } from './testing/recordingSink';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const configMap = (ns: string, name: string, mesh: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: ns, name },
  data: { mesh },
});

describe('KubeSource: the mesh config ConfigMap', () => {
  it('watches istio-system/istio only, and the snapshot follows its mesh key (add, update, bad YAML, delete)', async () => {
    const fake = await startFake();
    fake.create(namespace('istio-system'));
    fake.create(namespace('default'));
    fake.create(configMap('istio-system', 'istio', 'outboundTrafficPolicy: {mode: REGISTRY_ONLY}\n'));
    fake.create(configMap('istio-system', 'other', 'outboundTrafficPolicy: {mode: ALLOW_ANY}\n'));
    fake.create(configMap('default', 'istio', 'enableAutoMtls: false\n'));
    const store = new Store({ debounceMs: 5 });
    // Restricted to `default`: the mesh ConfigMap is still read from istio-system, as istiod does.
    const source = new KubeSource('kube', { kubeConfig: kubeConfigFor(fake.url), backoff: TEST_BACKOFF, namespaces: ['default'] });
    cleanup = async () => {
      await source.stop();
      store.close();
      await fake.stop();
    };
    await source.start(store);
    store.flush();
    let snap = store.snapshot();
    expect(snap.mesh.origin).toEqual({
      source: 'configmap',
      file: '/api/v1/namespaces/istio-system/configmaps/istio',
      object: 'ConfigMap istio-system/istio',
    });
    expect(optionsOf(snap).outboundTrafficPolicy).toBe('REGISTRY_ONLY');
    expect(optionsOf(snap).enableAutoMtls).toBe(true);
    // Every ConfigMap request is namespaced to istio-system and field-selected to `istio`.
    const cmRequests = fake.requests.filter((r) => r.path.includes('configmaps'));
    expect(cmRequests.length).toBeGreaterThan(0);
    for (const r of cmRequests) {
      expect(r.path).toBe('/api/v1/namespaces/istio-system/configmaps');
      expect(r.query.fieldSelector).toBe('metadata.name=istio');
    }

    fake.update(configMap('istio-system', 'istio', 'outboundTrafficPolicy: {mode: ALLOW_ANY}\ninboundTrafficPolicy: {mode: LOCALHOST}\n'));
    await waitFor(() => (store.flush(), optionsOf(store.snapshot()).inboundTrafficPolicy === 'LOCALHOST'), 'mesh update');
    expect(optionsOf(store.snapshot()).outboundTrafficPolicy).toBe('ALLOW_ANY');

    // Bad YAML: located error, the last good mesh config keeps serving.
    fake.update(configMap('istio-system', 'istio', 'inboundTrafficPolicy: [oops\n'));
    await waitFor(() => (store.flush(), store.snapshot().errors.some((e) => e.object === 'ConfigMap istio-system/istio')), 'mesh error');
    snap = store.snapshot();
    expect(optionsOf(snap).inboundTrafficPolicy).toBe('LOCALHOST');

    fake.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'istio-system', name: 'istio' });
    await waitFor(() => (store.flush(), store.snapshot().mesh.origin.source === 'defaults'), 'mesh defaults after delete');
    expect(optionsOf(store.snapshot()).inboundTrafficPolicy).toBe('PASSTHROUGH');
    expect(source.status().resources?.['istio-system/configmaps']).toMatchObject({ state: 'connected' });
  });
});
