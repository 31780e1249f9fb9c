// End to end with the real Store (no recording sink): Istio's Bookinfo manifests served by the fake
// API server at networking.istio.io/v1alpha3 only, read by KubeSource, built into a MeshSnapshot.
// Deletes that happen while the API server is away and its history is compacted must still leave
// the snapshot after the relist, and the last good objects must stay while it is away.
import { afterEach, describe, expect, it } from 'vitest';
import { bookinfo } from '../../testing/paths';
import { Store } from '../store';
import { KubeSource } from './kubeSource';
import { DEFAULT_FAKE_RESOURCES, type FakeApiServer } from './testing/fakeApiServer';
import { kubeConfigFor, namespace } from './testing/fixtures';
import { loadManifest, readManifest, startFake, TEST_BACKOFF } from './testing/harness';
import { waitFor } from './testing/recordingSink';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const hosts = (store: Store) =>
  store
    .snapshot()
    .services.map((s) => s.hostname)
    .sort();
const vsNames = (store: Store) =>
  store
    .snapshot()
    .virtualServices.map((v) => `${v.meta.namespace}/${v.meta.name}`)
    .sort();

describe('KubeSource → Store', () => {
  it('Bookinfo over v1alpha3 becomes a snapshot; outage + compaction + delete converges after the relist', async () => {
    const fake: FakeApiServer = await startFake(
      DEFAULT_FAKE_RESOURCES.map((r) => (r.group === 'networking.istio.io' ? { ...r, versions: ['v1alpha3'] } : r)),
    );
    fake.create(namespace('default'));
    loadManifest(bookinfo('platform', 'bookinfo.yaml'), fake);
    const rewrite = (o: Record<string, unknown>) => ({ ...o, apiVersion: 'networking.istio.io/v1alpha3' });
    for (const o of readManifest(bookinfo('networking', 'destination-rule-all.yaml'))) fake.create(rewrite(o));
    for (const o of readManifest(bookinfo('networking', 'virtual-service-reviews-80-20.yaml'))) fake.create(rewrite(o));
    const store = new Store({ debounceMs: 5 });
    const source = new KubeSource('kube', { kubeConfig: kubeConfigFor(fake.url), backoff: TEST_BACKOFF });
    cleanup = async () => {
      await source.stop();
      store.close();
      await fake.stop();
    };
    await source.start(store);
    store.flush();
    expect(hosts(store)).toEqual([
      'details.default.svc.cluster.local',
      'productpage.default.svc.cluster.local',
      'ratings.default.svc.cluster.local',
      'reviews.default.svc.cluster.local',
    ]);
    expect(vsNames(store)).toEqual(['default/reviews']);
    expect(
      store
        .snapshot()
        .destinationRules.map((d) => d.meta.name)
        .sort(),
    ).toEqual(['details', 'productpage', 'ratings', 'reviews']);
    expect(store.snapshot().errors).toEqual([]);

    await fake.stop();
    await waitFor(() => store.statuses().find((s) => s.id === 'kube')?.state === 'failing', 'failing status in the store');
    store.flush();
    expect(vsNames(store)).toEqual(['default/reviews']); // last good state kept
    fake.delete({ apiVersion: 'networking.istio.io/v1alpha3', kind: 'VirtualService', namespace: 'default', name: 'reviews' });
    fake.delete({ apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'ratings' });
    fake.compact('http');
    await fake.start();
    await waitFor(() => {
      store.flush();
      return vsNames(store).length === 0 && !hosts(store).includes('ratings.default.svc.cluster.local');
    }, 'deletes applied after the relist');
    await waitFor(() => store.statuses().find((s) => s.id === 'kube')?.state === 'connected', 'connected again');
  });
});
