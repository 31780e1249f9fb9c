// The fake API server must speak the protocol the real one does (Kubernetes API concepts: "Efficient
// detection of changes", "Watch bookmarks", "410 Gone responses"; discovery documents APIGroupList /
// APIGroup / APIResourceList), otherwise the informer tests prove nothing. Plain fetch, no client-node.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_RESOURCES, FakeApiServer } from './fakeApiServer';
import { service, virtualService } from './fixtures';

let fake: FakeApiServer | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

async function started(resources = DEFAULT_FAKE_RESOURCES): Promise<FakeApiServer> {
  fake = new FakeApiServer(resources);
  await fake.start();
  return fake;
}

const get = async (f: FakeApiServer, path: string) => {
  const res = await fetch(f.url + path);
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

/** Opens a watch and returns a reader of its newline-delimited JSON events. */
async function openWatch(f: FakeApiServer, path: string) {
  const ctrl = new AbortController();
  const res = await fetch(f.url + path, { signal: ctrl.signal });
  const reader = res.body!.getReader(); // eslint-disable-line @typescript-eslint/no-non-null-assertion
  const decoder = new TextDecoder();
  let buf = '';
  const events: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) events.push(JSON.parse(l));
    }
    ended = true;
  })();
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cond()).toBe(true);
  };
  return { status: res.status, events, until, isEnded: () => ended, close: async () => (ctrl.abort(), await pump) };
}

describe('FakeApiServer: LIST', () => {
  it('returns XList with the current resourceVersion; typed-list items carry no apiVersion/kind, CRD items do', async () => {
    const f = await started();
    f.create(service('default', 'reviews'));
    f.create(service('other', 'reviews'));
    f.create(virtualService('default', 'reviews', 'reviews'));
    const all = await get(f, '/api/v1/services');
    expect(all.body.kind).toBe('ServiceList');
    expect(all.body.apiVersion).toBe('v1');
    expect(all.body.metadata.resourceVersion).toBe(String(f.resourceVersion));
    expect(all.body.items).toHaveLength(2);
    expect(all.body.items[0]).not.toHaveProperty('kind');
    const ns = await get(f, '/api/v1/namespaces/other/services');
    expect(ns.body.items.map((i: { metadata: { namespace: string } }) => i.metadata.namespace)).toEqual(['other']);
    const vs = await get(f, '/apis/networking.istio.io/v1alpha3/namespaces/default/virtualservices');
    expect(vs.body.kind).toBe('VirtualServiceList');
    expect(vs.body.items[0].apiVersion).toBe('networking.istio.io/v1alpha3');
    expect(vs.body.items[0].kind).toBe('VirtualService');
    const one = await get(f, '/api/v1/namespaces/default/services/reviews');
    expect(one.body.kind).toBe('Service');
    expect((await get(f, '/api/v1/namespaces/default/services/nope')).status).toBe(404);
  });

  it('filters by fieldSelector metadata.name', async () => {
    const f = await started();
    f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
    f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } });
    const r = await get(f, '/api/v1/namespaces?fieldSelector=metadata.name%3Db');
    expect(r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['b']);
  });
});

describe('FakeApiServer: WATCH', () => {
  it('sends headers at once, replays events after resourceVersion, then streams ADDED/MODIFIED/DELETED', async () => {
    const f = await started();
    f.create(service('default', 'a'));
    const rv = f.resourceVersion;
    f.create(service('default', 'b'));
    const w = await openWatch(f, `/api/v1/services?watch=1&resourceVersion=${rv}`);
    expect(w.status).toBe(200);
    await w.until(() => w.events.length === 1);
    expect(w.events[0].type).toBe('ADDED');
    expect(w.events[0].object.metadata.name).toBe('b');
    expect(w.events[0].object.kind).toBe('Service');
    f.update(service('default', 'a', 9090));
    f.delete({ apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'b' });
    await w.until(() => w.events.length === 3);
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(Number(w.events[2].object.metadata.resourceVersion)).toBe(f.resourceVersion);
    await w.close();
  });

  it('sends BOOKMARK events only to watches that asked for them (allowWatchBookmarks)', async () => {
    const f = await started();
    const rv = f.resourceVersion;
    const withB = await openWatch(f, `/api/v1/pods?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`);
    const without = await openWatch(f, `/api/v1/pods?watch=true&resourceVersion=${rv}`);
    f.bookmark();
    await withB.until(() => withB.events.length === 1);
    expect(withB.events[0]).toEqual({
      type: 'BOOKMARK',
      object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(without.events).toEqual([]);
    await withB.close();
    await without.close();
  });

  it('after compact(): 410 Gone as HTTP status, or as a 200 stream with an ERROR Status event', async () => {
    const f = await started();
    f.create(service('default', 'a'));
    const old = f.resourceVersion;
    f.create(service('default', 'b'));
    f.compact('http');
    const http = await fetch(`${f.url}/api/v1/services?watch=1&resourceVersion=${old}`);
    expect(http.status).toBe(410);
    expect(((await http.json()) as { code: number }).code).toBe(410);
    f.compact('event');
    const w = await openWatch(f, `/api/v1/services?watch=1&resourceVersion=${old}`);
    expect(w.status).toBe(200);
    await w.until(() => w.events.length === 1 && w.isEnded());
    expect(w.events[0].type).toBe('ERROR');
    expect(w.events[0].object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    // Watching from the current resourceVersion is fine.
    const ok = await openWatch(f, `/api/v1/services?watch=1&resourceVersion=${f.resourceVersion}`);
    expect(ok.status).toBe(200);
    await ok.close();
  });

  it('expireWatches() sends ERROR 410 on open streams and closes them; dropWatches() just closes', async () => {
    const f = await started();
    const a = await openWatch(f, `/api/v1/services?watch=1&resourceVersion=${f.resourceVersion}`);
    f.dropWatches();
    await a.until(() => a.isEnded());
    expect(a.events).toEqual([]);
    const b = await openWatch(f, `/api/v1/services?watch=1&resourceVersion=${f.resourceVersion}`);
    f.expireWatches();
    await b.until(() => b.isEnded());
    expect(b.events.map((e) => [e.type, e.object.code])).toEqual([['ERROR', 410]]);
  });
});

describe('FakeApiServer: failures, outages, discovery', () => {
  it('failNext(500) fails the next matching request only', async () => {
    const f = await started();
    f.failNext(500, { path: '/api/v1/pods' });
    expect((await get(f, '/api/v1/services')).status).toBe(200);
    const failed = await get(f, '/api/v1/pods');
    expect(failed.status).toBe(500);
    expect(failed.body.kind).toBe('Status');
    expect((await get(f, '/api/v1/pods')).status).toBe(200);
  });

  it('stop() refuses connections; start() serves again on the same port with its state', async () => {
    const f = await started();
    f.create(service('default', 'a'));
    const url = f.url;
    await f.stop();
    await expect(fetch(url + '/api/v1/services')).rejects.toThrow();
    await f.start();
    expect(f.url).toBe(url);
    expect((await get(f, '/api/v1/services')).body.items).toHaveLength(1);
  });

  it('serves /apis, /apis/GROUP and /apis/GROUP/VERSION for the configured versions', async () => {
    const f = await started(DEFAULT_FAKE_RESOURCES.map((r) => (r.group === 'networking.istio.io' ? { ...r, versions: ['v1alpha3'] } : r)));
    const groups = await get(f, '/apis');
    expect(groups.body.groups.map((g: { name: string }) => g.name)).toEqual([
      'discovery.k8s.io',
      'networking.k8s.io',
      'networking.istio.io',
      'security.istio.io',
      'gateway.networking.k8s.io',
    ]);
    const g = await get(f, '/apis/networking.istio.io');
    expect(g.body).toMatchObject({ kind: 'APIGroup', versions: [{ groupVersion: 'networking.istio.io/v1alpha3', version: 'v1alpha3' }] });
    const rl = await get(f, '/apis/networking.istio.io/v1alpha3');
    const names = rl.body.resources.map((r: { name: string }) => r.name);
    expect(names.filter((n: string) => !n.includes('/')).sort()).toEqual([
      'destinationrules',
      'envoyfilters',
      'gateways',
      'serviceentries',
      'sidecars',
      'virtualservices',
      'workloadentries',
    ]);
    expect(names).toContain('virtualservices/status');
    expect((await get(f, '/apis/networking.istio.io/v1')).status).toBe(404);
    expect((await get(f, '/apis/networking.istio.io/v1/virtualservices')).status).toBe(404);
    f.removeResource('networking.istio.io', 'sidecars');
    const after = await get(f, '/apis/networking.istio.io/v1alpha3');
    expect(after.body.resources.map((r: { name: string }) => r.name)).not.toContain('sidecars');
  });
});
