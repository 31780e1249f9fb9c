// Store: keyed merge of sources, no-op puts, debounce/max-delay (small real timeouts), last-good objects.
import { afterEach, describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../model/mesh';
import { Store, type StoreChange } from './store';
import type { RawInput, RawObject } from './types';

const origin = { source: 'file' as const, file: 'mem.yaml', doc: 0 };
const input = (object: RawObject): RawInput => ({ object, origin });
const vs = (name: string, weightV1 = 100, apiVersion = 'networking.istio.io/v1'): RawInput =>
  input({
    apiVersion,
    kind: 'VirtualService',
    metadata: { name, namespace: 'default' },
    spec: {
      hosts: ['reviews'],
      http: [
        {
          route:
            weightV1 === 100
              ? [{ destination: { host: 'reviews', subset: 'v1' } }]
              : [
                  { destination: { host: 'reviews', subset: 'v1' }, weight: weightV1 },
                  { destination: { host: 'reviews', subset: 'v2' }, weight: 100 - weightV1 },
                ],
        },
      ],
    },
  });
const pod = (name: string, ready: boolean, ip = '10.0.0.5'): RawInput =>
  input({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'reviews' } },
    spec: { containers: [{ name: 'app' }] },
    status: { podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stores: Store[] = [];
const mk = (opts?: ConstructorParameters<typeof Store>[0]) => {
  const s = new Store(opts);
  stores.push(s);
  return s;
};
afterEach(() => stores.splice(0).forEach((s) => s.close()));

function record(store: Store): { snap: MeshSnapshot; change: StoreChange }[] {
  const events: { snap: MeshSnapshot; change: StoreChange }[] = [];
  store.onChange((snap, change) => events.push({ snap, change }));
  return events;
}

describe('Store', () => {
  it('keys objects by group/version/kind/namespace/name with v1/v1beta1/v1alpha3 as one Istio key', () => {
    const store = mk();
    const events = record(store);
    store.replace('files', [vs('r', 100, 'networking.istio.io/v1alpha3')]);
    store.flush();
    store.upsert('files', vs('r', 80, 'networking.istio.io/v1beta1'));
    store.flush();
    expect(events.map((e) => e.change.changed)).toEqual([
      ['networking.istio.io/v1/VirtualService/default/r'],
      ['networking.istio.io/v1/VirtualService/default/r'],
    ]);
    expect(store.snapshot().virtualServices).toHaveLength(1);
    expect(store.snapshot().virtualServices[0]?.spec.http?.[0]?.route?.[0]?.weight).toBe(80);
  });

  it('a deep-equal put is a no-op: no version bump, no event', () => {
    const store = mk();
    const events = record(store);
    store.replace('files', [vs('r'), pod('p', true)]);
    store.flush();
    const v = store.snapshot().version;
    store.replace('files', [vs('r'), pod('p', true)]);
    store.upsert('files', JSON.parse(JSON.stringify(vs('r'))) as RawInput);
    store.flush();
    expect(events).toHaveLength(1);
    expect(store.snapshot().version).toBe(v);
  });

  it('debounce: several quick changes → one event after debounceMs of quiet', async () => {
    const store = mk({ debounceMs: 40, maxDelayMs: 5000 });
    const events = record(store);
    store.upsert('s', vs('a'));
    await sleep(10);
    store.upsert('s', vs('b'));
    await sleep(10);
    store.upsert('s', vs('c'));
    expect(events).toHaveLength(0);
    await sleep(150);
    expect(events).toHaveLength(1);
    expect(events[0]?.change.changed).toHaveLength(3);
    expect(events[0]?.snap.virtualServices.map((v) => v.meta.name)).toEqual(['a', 'b', 'c']);
  });

  it('max delay: a steady stream of changes still emits after maxDelayMs', async () => {
    const store = mk({ debounceMs: 50, maxDelayMs: 120 });
    const events = record(store);
    for (let i = 0; i < 12 && events.length === 0; i++) {
      store.upsert('s', vs(`v${i}`));
      await sleep(20); // always less than debounceMs: quiet never happens
    }
    expect(events.length).toBe(1);
    expect(events[0]?.change.changed.length).toBeLessThan(12);
  });

  it('later sources win on key clashes; removing from one source reveals the other', () => {
    const store = mk();
    store.replace('base', [vs('r', 100)]);
    store.replace('sandbox', [vs('r', 80)]);
    store.flush();
    expect(store.snapshot().virtualServices[0]?.spec.http?.[0]?.route).toHaveLength(2);
    store.remove('sandbox', { apiVersion: 'networking.istio.io/v1', kind: 'VirtualService', namespace: 'default', name: 'r' });
    store.flush();
    expect(store.snapshot().virtualServices[0]?.spec.http?.[0]?.route).toHaveLength(1);
  });

  it('last good: an invalid new version keeps the previous valid one and reports the error; others load', () => {
    const store = mk();
    store.replace('files', [vs('r', 80), vs('other')]);
    store.flush();
    const bad = vs('r', 80);
    (bad.object.spec as { http: { route: { weight: unknown }[] }[] }).http[0]!.route[0]!.weight = 'eighty';
    store.replace('files', [bad, vs('other'), vs('third')]);
    store.flush();
    const snap = store.snapshot();
    expect(snap.virtualServices.map((v) => v.meta.name)).toEqual(['r', 'other', 'third']); // creation (input) order
    expect(snap.virtualServices.find((v) => v.meta.name === 'r')?.spec.http?.[0]?.route?.[0]?.weight).toBe(80);
    expect(snap.errors).toContainEqual(
      expect.objectContaining({ severity: 'error', object: 'VirtualService default/r', path: 'spec.http[0].route[0].weight' }),
    );
    // A brand-new invalid object has no last good version: dropped, error reported.
    store.upsert(
      'files',
      input({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'new', namespace: 'default' },
        spec: { hosts: ['x'], http: [{ bogus: 1 }] },
      }),
    );
    store.flush();
    expect(store.snapshot().virtualServices.some((v) => v.meta.name === 'new')).toBe(false);
    expect(store.snapshot().errors).toContainEqual(expect.objectContaining({ path: 'spec.http[0].bogus' }));
  });

  it('never throws on garbage; source errors are carried into the snapshot', () => {
    const store = mk();
    expect(() => {
      store.replace(
        'x',
        [input({ kind: 7 } as RawObject), input({ apiVersion: 'v1', kind: 'Service', metadata: 'nope' })],
        [{ severity: 'error', message: 'YAML syntax error at line 3', file: 'f.yaml', doc: 2 }],
      );
      store.flush();
    }).not.toThrow();
    const errs = store.snapshot().errors;
    expect(errs).toContainEqual({ severity: 'error', message: 'YAML syntax error at line 3', file: 'f.yaml', doc: 2 });
    expect(errs.length).toBeGreaterThanOrEqual(3);
  });

  it('endpointsOnly: true for EndpointSlice or pod readiness/IP changes, false for config or new pods', () => {
    const store = mk();
    const events = record(store);
    store.replace('k', [pod('p', true)]);
    store.flush();
    store.upsert('k', pod('p', false));
    store.flush();
    store.upsert(
      'k',
      input({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's', namespace: 'default' }, endpoints: [] }),
    );
    store.flush();
    store.upsert('k', vs('r'));
    store.flush();
    expect(events.map((e) => e.change.endpointsOnly)).toEqual([false, true, true, false]);
    expect(events.map((e) => e.change.version)).toEqual([1, 2, 3, 4]);
    expect(store.snapshot().pods[0]?.ready).toBe(false);
  });

  it('statuses() reports the last status of each source', () => {
    const store = mk();
    store.status({ id: 'files', kind: 'file', state: 'connected' });
    store.status({ id: 'files', kind: 'file', state: 'failing', lastError: 'boom' });
    expect(store.statuses()).toEqual([{ id: 'files', kind: 'file', state: 'failing', lastError: 'boom' }]);
  });
});

describe("Store inputs stay the sources' own", () => {
  it('building a (frozen) snapshot does not freeze the raw objects a source handed over', () => {
    const store = new Store();
    const svc = input({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', labels: { a: 'b' } },
      spec: { selector: { app: 's' }, ports: [{ port: 80 }] },
    });
    store.replace('src', [svc]);
    store.flush();
    expect(Object.isFrozen(store.snapshot().services[0])).toBe(true);
    expect(Object.isFrozen(svc.object)).toBe(false);
    expect(Object.isFrozen((svc.object.spec as { selector: object }).selector)).toBe(false);
    expect(Object.isFrozen(svc.origin)).toBe(false);
    store.close();
  });
});
