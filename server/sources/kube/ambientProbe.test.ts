// The ambient probe against the in-repo fake API server (real HTTP on loopback, issue #20 §1): istiod's
// Deployment with PILOT_ENABLE_AMBIENT=true (pilot/pkg/features/ambient.go EnableAmbient), or a ztunnel DaemonSet.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_RESOURCES, type FakeResource } from './testing/fakeApiServer';
import { startFake, startSource, type Harness } from './testing/harness';

const APPS: FakeResource[] = [
  { group: 'apps', versions: ['v1'], kind: 'Deployment', plural: 'deployments', namespaced: true },
  { group: 'apps', versions: ['v1'], kind: 'DaemonSet', plural: 'daemonsets', namespaced: true },
];

const istiod = (env: Array<{ name: string; value: string }>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'istiod', namespace: 'istio-system', labels: { app: 'istiod' } },
  spec: { template: { spec: { containers: [{ name: 'discovery', image: 'pilot', env }] } } },
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('detectAmbient', () => {
  it('is off for a sidecar-mode istiod and no ztunnel', async () => {
    const fake = await startFake([...DEFAULT_FAKE_RESOURCES, ...APPS]);
    fake.create(istiod([{ name: 'PILOT_ENABLE_AMBIENT', value: 'false' }]));
    h = await startSource(fake);
    expect(await h.source.detectAmbient()).toBeUndefined();
  });
  it("says so when istiod's Deployment has PILOT_ENABLE_AMBIENT=true", async () => {
    const fake = await startFake([...DEFAULT_FAKE_RESOURCES, ...APPS]);
    fake.create(istiod([{ name: 'PILOT_ENABLE_AMBIENT', value: 'true' }]));
    h = await startSource(fake);
    expect(await h.source.detectAmbient()).toBe('istiod Deployment istio-system/istiod has PILOT_ENABLE_AMBIENT=true');
  });
  it('says so when a ztunnel DaemonSet exists', async () => {
    const fake = await startFake([...DEFAULT_FAKE_RESOURCES, ...APPS]);
    fake.create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ztunnel', namespace: 'istio-system' }, spec: {} });
    fake.create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'other', namespace: 'kube-system' }, spec: {} });
    h = await startSource(fake);
    expect(await h.source.detectAmbient()).toBe('ztunnel DaemonSet istio-system/ztunnel exists');
  });
  it('a cluster that refuses the reads (no RBAC on apps) is "not detected", not an error', async () => {
    const fake = await startFake(DEFAULT_FAKE_RESOURCES);
    h = await startSource(fake);
    expect(await h.source.detectAmbient()).toBeUndefined();
  });
});
