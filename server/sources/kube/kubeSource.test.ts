import { afterEach, describe, expect, it } from 'vitest';
import { bookinfo } from '../../testing/paths';
import { DEFAULT_FAKE_RESOURCES, type FakeResource } from './testing/fakeApiServer';
import { namespace, pod, secret, service, sidecar, virtualService } from './testing/fixtures';
import { loadManifest, startFake, startSource, type Harness } from './testing/harness';
import { waitFor } from './testing/recordingSink';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('KubeSource: initial sync and watch events', () => {
  it('lists Bookinfo (real manifests) into the sink with apiVersion/kind filled in and managedFields stripped', async () => {
    const fake = await startFake();
    fake.create(namespace('default'));
    const services = loadManifest(bookinfo('platform', 'bookinfo.yaml'), fake);
    loadManifest(bookinfo('networking', 'destination-rule-all.yaml'), fake);
    loadManifest(bookinfo('networking', 'virtual-service-reviews-80-20.yaml'), fake);
    loadManifest(bookinfo('networking', 'bookinfo-gateway.yaml'), fake);
    fake.create(pod('default', 'reviews-v1-abc', 'reviews', '10.0.0.7'));
    fake.create(service('default', 'with-managed-fields'));
    fake.create(secret('default', 'db-password'));
    h = await startSource(fake);
    const { sink } = h;
    // Every Service of bookinfo.yaml (details, ratings, reviews, productpage) and the extra one.
    expect(services.map((s) => (s.metadata as { name: string }).name).sort()).toEqual(['details', 'productpage', 'ratings', 'reviews']);
    expect(sink.keys('/Service/')).toEqual([
      '/Service/default/details',
      '/Service/default/productpage',
      '/Service/default/ratings',
      '/Service/default/reviews',
      '/Service/default/with-managed-fields',
    ]);
    expect(sink.keys('networking.istio.io/')).toEqual([
      'networking.istio.io/DestinationRule/default/details',
      'networking.istio.io/DestinationRule/default/productpage',
      'networking.istio.io/DestinationRule/default/ratings',
      'networking.istio.io/DestinationRule/default/reviews',
      'networking.istio.io/Gateway/default/bookinfo-gateway',
      'networking.istio.io/VirtualService/default/bookinfo',
      'networking.istio.io/VirtualService/default/reviews',
    ]);
    expect(sink.keys('/Namespace/')).toEqual(['/Namespace//default']);
    expect(sink.keys('/Pod/')).toEqual(['/Pod/default/reviews-v1-abc']);
    // A typed LIST has no apiVersion/kind on its items; the source sets them from the resource.
    const svc = sink.objects.get('/Service/default/with-managed-fields');
    expect(svc?.object.apiVersion).toBe('v1');
    expect(svc?.object.kind).toBe('Service');
    expect(svc?.object.metadata).not.toHaveProperty('managedFields');
    expect(svc?.origin).toEqual({ source: 'kube', file: '/api/v1/namespaces/default/services/with-managed-fields' });
    const vs = sink.objects.get('networking.istio.io/VirtualService/default/reviews');
    expect(vs?.object.apiVersion).toBe('networking.istio.io/v1');
    expect(vs?.origin.file).toBe('/apis/networking.istio.io/v1/namespaces/default/virtualservices/reviews');
    // Secrets: metadata only (DESIGN §3, §6): every request for them asks for the PartialObjectMetadata view,
    // and what the sink holds has no data (kubeSecrets.test.ts covers the rest).
    const secretRequests = fake.requests.filter((r) => r.path.includes('secrets'));
    expect(secretRequests.length).toBeGreaterThan(0);
    for (const r of secretRequests) expect(r.accept).toMatch(/as=PartialObjectMetadata(List)?;g=meta\.k8s\.io;v=v1/);
    expect(sink.objects.get('/Secret/default/db-password')?.object).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: expect.objectContaining({ name: 'db-password', namespace: 'default' }),
    });
    await waitFor(() => h?.sink.lastStatus?.state === 'connected', 'connected status');
    expect(sink.lastStatus?.resources?.services).toEqual({ state: 'connected', count: 5 });
    expect(sink.lastStatus?.resources?.['virtualservices.networking.istio.io']).toEqual({ state: 'connected', count: 2 });
  });

  it('watch ADDED/MODIFIED/DELETED become upsert/upsert/remove', async () => {
    const fake = await startFake();
    fake.create(service('default', 'reviews'));
    h = await startSource(fake);
    const { sink } = h;
    fake.create(virtualService('default', 'reviews', 'reviews'));
    await waitFor(() => sink.objects.has('networking.istio.io/VirtualService/default/reviews'), 'VS add');
    const updated = fake.update(virtualService('default', 'reviews', 'reviews', 'v2'));
    await waitFor(
      () =>
        (sink.objects.get('networking.istio.io/VirtualService/default/reviews')?.object.metadata as { resourceVersion?: string })
          ?.resourceVersion === updated.metadata.resourceVersion,
      'VS update',
    );
    const spec = sink.objects.get('networking.istio.io/VirtualService/default/reviews')?.object.spec as {
      http: { route: { destination: { subset: string } }[] }[];
    };
    expect(spec.http[0]?.route[0]?.destination.subset).toBe('v2');
    fake.delete({ apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'reviews' });
    await waitFor(() => !sink.objects.has('/Service/default/reviews'), 'Service delete');
    expect(sink.calls.filter((c) => c.op === 'remove')).toEqual([{ op: 'remove', key: '/Service/default/reviews' }]);
    // No list after the first: events came over the watch.
    expect(fake.requests.filter((r) => r.path === '/api/v1/services' && !r.query.watch)).toHaveLength(1);
  });
});

describe('KubeSource: status', () => {
  it('reports per-resource state and object counts, and follows changes', async () => {
    const fake = await startFake();
    fake.create(service('default', 'reviews'));
    h = await startSource(fake);
    const hh = h;
    await waitFor(() => hh.sink.lastStatus?.state === 'connected', 'connected');
    const st = hh.sink.lastStatus;
    expect(st).toMatchObject({ id: 'kube', kind: 'kube', state: 'connected' });
    expect(Object.keys(st?.resources ?? {}).sort()).toEqual([
      'authorizationpolicies.security.istio.io',
      'destinationrules.networking.istio.io',
      'endpointslices.discovery.k8s.io',
      'envoyfilters.networking.istio.io',
      'gatewayclasses.gateway.networking.k8s.io',
      'gateways.gateway.networking.k8s.io',
      'gateways.networking.istio.io',
      'grpcroutes.gateway.networking.k8s.io',
      'httproutes.gateway.networking.k8s.io',
      'ingressclasses.networking.k8s.io',
      'ingresses.networking.k8s.io',
      // the mesh config ConfigMap (istio-system/istio only)
      'istio-system/configmaps',
      'namespaces',
      'peerauthentications.security.istio.io',
      'pods',
      'referencegrants.gateway.networking.k8s.io',
      'secrets',
      'serviceentries.networking.istio.io',
      'services',
      'sidecars.networking.istio.io',
      'tcproutes.gateway.networking.k8s.io',
      'tlsroutes.gateway.networking.k8s.io',
      'virtualservices.networking.istio.io',
      'workloadentries.networking.istio.io',
    ]);
    expect(st?.resources?.services).toEqual({ state: 'connected', count: 1 });
    fake.create(service('default', 'ratings'));
    fake.create(service('default', 'details'));
    await waitFor(() => hh.sink.lastStatus?.resources?.services?.count === 3, 'count 3');
    expect(hh.source.status().resources?.services).toEqual({ state: 'connected', count: 3 });
  });
});

describe('KubeSource: Istio API versions and missing CRDs', () => {
  const istioAt = (versions: string[], without: string[] = []): FakeResource[] =>
    DEFAULT_FAKE_RESOURCES.filter((r) => !without.includes(r.plural)).map((r) =>
      r.group === 'networking.istio.io' ? { ...r, versions } : r,
    );

  it('falls back to v1alpha3 when the cluster serves only that version', async () => {
    const fake = await startFake(istioAt(['v1alpha3']));
    fake.create(virtualService('default', 'reviews', 'reviews', 'v1', 'networking.istio.io/v1alpha3'));
    h = await startSource(fake);
    const vs = h.sink.objects.get('networking.istio.io/VirtualService/default/reviews');
    expect(vs?.object.apiVersion).toBe('networking.istio.io/v1alpha3');
    const istioPaths = fake.requests
      .map((r) => r.path)
      .filter((p) => p.startsWith('/apis/networking.istio.io/') && p.split('/').length > 4);
    expect(istioPaths.length).toBeGreaterThan(0);
    expect(istioPaths.every((p) => p.startsWith('/apis/networking.istio.io/v1alpha3/'))).toBe(true);
  });

  it('prefers v1 over v1beta1 when both are served', async () => {
    const fake = await startFake(istioAt(['v1beta1', 'v1']));
    fake.create(virtualService('default', 'reviews', 'reviews'));
    h = await startSource(fake);
    expect(h.sink.objects.get('networking.istio.io/VirtualService/default/reviews')?.object.apiVersion).toBe('networking.istio.io/v1');
  });

  it('reports a missing CRD without failing the source, and picks it up once installed', async () => {
    const fake = await startFake(istioAt(['v1', 'v1beta1', 'v1alpha3'], ['sidecars']));
    fake.create(service('default', 'reviews'));
    h = await startSource(fake);
    const { sink } = h;
    await waitFor(() => sink.lastStatus?.resources?.['sidecars.networking.istio.io']?.state === 'failing', 'missing CRD status');
    expect(sink.lastStatus?.resources?.['sidecars.networking.istio.io']?.lastError).toMatch(/not served/);
    expect(sink.lastStatus?.detail).toMatch(/not served: sidecars\.networking\.istio\.io/);
    expect(sink.lastStatus?.state).toBe('connected');
    // Reported once: repeated rediscovery does not repeat an identical status.
    const before = sink.statuses.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(sink.statuses.length).toBe(before);
    // The CRD gets installed: the source finds it on its next rediscovery.
    fake.addResource(DEFAULT_FAKE_RESOURCES.find((r) => r.plural === 'sidecars') as FakeResource);
    fake.create(sidecar('default', 'default'));
    await waitFor(() => sink.objects.has('networking.istio.io/Sidecar/default/default'), 'Sidecar after CRD install');
    await waitFor(() => sink.lastStatus?.resources?.['sidecars.networking.istio.io']?.state === 'connected', 'sidecars connected');
    expect(sink.lastStatus?.detail).not.toMatch(/not served/);
  });
});

describe('KubeSource: namespace-restricted watching', () => {
  it('watches only the given namespaces, one informer per namespace per kind', async () => {
    const fake = await startFake();
    for (const ns of ['bookinfo', 'other', 'istio-system']) fake.create(namespace(ns));
    fake.create(service('bookinfo', 'reviews'));
    fake.create(service('other', 'reviews'));
    fake.create(service('istio-system', 'istiod'));
    fake.create(virtualService('bookinfo', 'reviews', 'reviews'));
    fake.create(virtualService('other', 'reviews', 'reviews'));
    h = await startSource(fake, { namespaces: ['bookinfo', 'istio-system'] });
    const { sink } = h;
    fake.create(service('other', 'late'));
    fake.create(service('bookinfo', 'late'));
    await waitFor(() => sink.objects.has('/Service/bookinfo/late'), 'late service in bookinfo');
    expect(sink.keys().filter((k) => k.includes('/other'))).toEqual([]);
    expect(sink.keys('/Namespace/')).toEqual(['/Namespace//bookinfo', '/Namespace//istio-system']);
    expect(sink.keys('/Service/')).toEqual(['/Service/bookinfo/late', '/Service/bookinfo/reviews', '/Service/istio-system/istiod']);
    expect(sink.keys('networking.istio.io/')).toEqual(['networking.istio.io/VirtualService/bookinfo/reviews']);
    // Never a cluster-wide collection request for namespaced kinds.
    const collections = fake.requests.map((r) => r.path).filter((p) => /\/(services|pods|endpointslices|virtualservices)$/.test(p));
    expect(collections.every((p) => p.includes('/namespaces/bookinfo/') || p.includes('/namespaces/istio-system/'))).toBe(true);
    expect(Object.keys(h.source.status().resources ?? {})).toContain('bookinfo/services');
    expect(Object.keys(h.source.status().resources ?? {})).toContain('istio-system/virtualservices.networking.istio.io');
  });
});
