// Secrets from a cluster: a metadata-only list/watch (PartialObjectMetadata) with istiod's field selector
// (pilot/pkg/credentials/kube/secrets.go SecretsFieldSelector), against the loopback fake API server; no
// Secret data is ever requested or held. Without RBAC for Secrets they are not watched and the status says how
// to opt in. Ingress and IngressClass are listed and watched like any built-in kind.
import { afterEach, describe, expect, it } from 'vitest';
import { startFake, startSource, type Harness } from './testing/harness';
import { waitFor } from './testing/recordingSink';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const secret = (ns: string, name: string, type?: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: ns },
  ...(type ? { type } : {}),
  data: { 'tls.key': 'S0VZLU1BVEVSSUFM' },
});

describe('Secrets: metadata only', () => {
  it('lists and watches Secret metadata with the metadata Accept headers and istiod field selector; data never arrives', async () => {
    const fake = await startFake();
    fake.create(secret('istio-system', 'shop-cert', 'kubernetes.io/tls'));
    fake.create(secret('istio-system', 'generic'));
    fake.create(secret('istio-system', 'sh.helm.release.v1.istio.v1', 'helm.sh/release.v1'));
    fake.create(secret('istio-system', 'token', 'kubernetes.io/service-account-token'));
    h = await startSource(fake);
    const { sink } = h;
    await waitFor(() => sink.objects.has('/Secret/istio-system/generic'), 'secrets listed');
    expect(sink.keys('/Secret/')).toEqual(['/Secret/istio-system/generic', '/Secret/istio-system/shop-cert']);
    expect(sink.objects.get('/Secret/istio-system/shop-cert')?.object).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: expect.objectContaining({ name: 'shop-cert', namespace: 'istio-system' }),
    });
    expect(sink.objects.get('/Secret/istio-system/shop-cert')?.origin.file).toBe('/api/v1/namespaces/istio-system/secrets/shop-cert');

    // A Secret created later arrives on the metadata-only watch; deleting it removes it.
    fake.create(secret('istio-system', 'late-cert', 'kubernetes.io/tls'));
    await waitFor(() => sink.objects.has('/Secret/istio-system/late-cert'), 'watched secret');
    expect(Object.keys(sink.objects.get('/Secret/istio-system/late-cert')?.object ?? {}).sort()).toEqual([
      'apiVersion',
      'kind',
      'metadata',
    ]);
    fake.delete({ apiVersion: 'v1', kind: 'Secret', namespace: 'istio-system', name: 'late-cert' });
    await waitFor(() => !sink.objects.has('/Secret/istio-system/late-cert'), 'deleted secret');

    const requests = fake.requests.filter((r) => r.path === '/api/v1/secrets');
    expect(
      requests.some((r) => r.query.watch === 'true' && r.accept === 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'),
    ).toBe(true);
    expect(
      requests.some((r) => r.query.watch === undefined && r.accept === 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1'),
    ).toBe(true);
    for (const r of requests) {
      expect(r.accept).toMatch(/^application\/json;as=PartialObjectMetadata(List)?;g=meta\.k8s\.io;v=v1$/);
      expect(r.query.fieldSelector).toBe('type!=helm.sh/release.v1,type!=kubernetes.io/service-account-token');
    }
    expect(JSON.stringify([...sink.objects.values()])).not.toContain('S0VZLU1BVEVSSUFM');
  });

  it('without RBAC for Secrets (403): not watched, the status says how to opt in, the source stays connected', async () => {
    const fake = await startFake();
    fake.create(secret('istio-system', 'shop-cert', 'kubernetes.io/tls'));
    fake.failNext(403, { path: '/secrets', count: 1 });
    h = await startSource(fake);
    const { sink } = h;
    await waitFor(() => sink.lastStatus?.state === 'connected', 'connected');
    expect(sink.lastStatus?.detail).toContain('Secrets not watched (RBAC; opt in with deploy/overlays/secrets)');
    expect(sink.lastStatus?.resources?.secrets).toBeUndefined();
    expect(sink.keys('/Secret/')).toEqual([]);
  });
});

describe('Ingress and IngressClass', () => {
  it('are listed and watched', async () => {
    const fake = await startFake();
    fake.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'istio' },
      spec: { controller: 'istio.io/ingress-controller' },
    });
    h = await startSource(fake);
    const { sink } = h;
    fake.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        ingressClassName: 'istio',
        rules: [
          {
            host: 'a.example',
            http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] },
          },
        ],
      },
    });
    await waitFor(() => sink.objects.has('networking.k8s.io/Ingress/default/web'), 'ingress watched');
    expect(sink.objects.has('networking.k8s.io/IngressClass//istio')).toBe(true);
  });
});
