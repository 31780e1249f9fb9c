// The port-forward LiveSource against the in-repo fake API server (real WebSocket port-forward,
// v4.channel.k8s.io framing) and a loopback stand-in for the pod's Envoy admin. Behaviour mirrored:
// Kiali's / istioctl's proxy reads (kubectl port-forward semantics: pods/portforward with `create`, the
// kubelet's error channel text on a refused dial), istiod's /debug/config_dump?proxyID= (pilot/pkg/xds/debug.go:
// 404 "Proxy not connected to this Pilot instance" from an istiod pod that does not hold the connection).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeApiServer } from '../sources/kube/testing/fakeApiServer';
import { FakeEnvoyAdmin } from '../sources/kube/testing/fakeEnvoyAdmin';
import { kubeConfigFor, pod } from '../sources/kube/testing/fixtures';
import { FAKE_FRAME_BYTES } from '../sources/kube/testing/fakePortForward';
import { PortForwardLiveSource, splitProxyId } from './portForwardSource';
import { LiveError } from './types';

let fake: FakeApiServer;
let admin: FakeEnvoyAdmin;
const admins: FakeEnvoyAdmin[] = [];
const DUMP = {
  configs: [
    { '@type': 'type.googleapis.com/envoy.admin.v3.BootstrapConfigDump', bootstrap: { node: { id: 'x' } } },
    {
      '@type': 'type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
      dynamic_active_clusters: Array.from({ length: 100 }, (_, i) => ({
        cluster: { name: `outbound|80||svc${i}.default.svc.cluster.local` },
      })),
    },
  ],
};

async function newAdmin(): Promise<FakeEnvoyAdmin> {
  const a = new FakeEnvoyAdmin();
  await a.start();
  admins.push(a);
  return a;
}

const rejection = async (p: Promise<unknown>): Promise<LiveError> => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(LiveError);
    return e as LiveError;
  }
  throw new Error('expected a rejection');
};

beforeAll(async () => {
  fake = new FakeApiServer();
  await fake.start();
  fake.create(pod('default', 'productpage-v1-1', 'productpage', '10.0.0.5'));
  fake.create(pod('default', 'reviews-v1-1', 'reviews', '10.0.0.6'));
  fake.create({ ...pod('default', 'pending-1', 'ratings', '10.0.0.7'), status: { phase: 'Pending' } });
  admin = await newAdmin();
  admin.dump = DUMP;
  fake.portForward.forward('default', 'productpage-v1-1', 15000, admin.port);
});

afterEach(() => {
  admin.hang = false;
});

afterAll(async () => {
  for (const a of admins) await a.stop();
  await fake.stop();
});

describe('PortForwardLiveSource', () => {
  it('reads /config_dump?include_eds through a WebSocket port-forward, as received, in several frames', async () => {
    const before = admin.requests.length;
    const src = new PortForwardLiveSource(kubeConfigFor(fake.url), { cacheMs: 0 });
    const dump = await src.fetch('productpage-v1-1.default');
    const served = JSON.stringify(DUMP, null, 2);
    expect(dump).toMatchObject({ proxy: 'productpage-v1-1.default', source: 'portforward', bytes: Buffer.byteLength(served) });
    expect(dump.configDump).toEqual(DUMP);
    expect(Number.isNaN(Date.parse(dump.fetchedAt))).toBe(false);
    expect(Buffer.byteLength(served)).toBeGreaterThan(2 * FAKE_FRAME_BYTES); // the body crossed several frames
    expect(admin.requests.slice(before)).toEqual([{ method: 'GET', url: '/config_dump?include_eds' }]);
    const pf = fake.requests.filter((r) => r.path.endsWith('/portforward'));
    expect(pf.at(-1)).toMatchObject({ path: '/api/v1/namespaces/default/pods/productpage-v1-1/portforward', query: { ports: '15000' } });
    expect(fake.requests.some((r) => r.path.includes('/proxy'))).toBe(false);
  });

  it('the pods/NAME:15000/proxy subresource answers 503 as a real cluster does (so it is never used)', async () => {
    const res = await fetch(`${fake.url}/api/v1/namespaces/default/pods/productpage-v1-1:15000/proxy/config_dump`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { reason: string }).reason).toBe('ServiceUnavailable');
  });

  it('caches a pod for cacheMs, then fetches again', async () => {
    let now = 1_000_000;
    const src = new PortForwardLiveSource(kubeConfigFor(fake.url), { cacheMs: 5_000, now: () => now });
    const before = admin.requests.length;
    await src.fetch('productpage-v1-1.default');
    now += 4_000;
    await src.fetch('productpage-v1-1.default');
    expect(admin.requests.length - before).toBe(1);
    now += 2_000;
    await src.fetch('productpage-v1-1.default');
    expect(admin.requests.length - before).toBe(2);
  });

  it('forbidden port-forward → 403 naming get, create and pods/portforward', async () => {
    fake.portForward.deny('default', 'reviews-v1-1');
    const e = await rejection(new PortForwardLiveSource(kubeConfigFor(fake.url)).fetch('reviews-v1-1.default'));
    expect(e.status).toBe(403);
    expect(e.stage).toBe('portforward');
    expect(e.message).toMatch(/\bget\b/);
    expect(e.message).toMatch(/\bcreate\b/);
    expect(e.message).toContain('pods/portforward');
  });

  it('unknown pod / not running / not an id → 404 naming the pod', async () => {
    const src = new PortForwardLiveSource(kubeConfigFor(fake.url));
    const missing = await rejection(src.fetch('nosuch-1.default'));
    expect([missing.status, missing.stage]).toEqual([404, 'pod']);
    expect(missing.message).toContain('default/nosuch-1');
    const pending = await rejection(src.fetch('pending-1.default'));
    expect([pending.status, pending.stage]).toEqual([404, 'pod']);
    expect(pending.message).toMatch(/pending-1.*not running.*Pending/);
    const bad = await rejection(src.fetch('no-namespace'));
    expect([bad.status, bad.stage]).toEqual([404, 'proxy']);
  });

  it('admin port refused (kubelet error channel) → 502 stage admin with the text', async () => {
    const gone = await newAdmin();
    await gone.stop();
    fake.create(pod('default', 'details-v1-1', 'details', '10.0.0.8'));
    fake.portForward.forward('default', 'details-v1-1', 15000, gone.port);
    const e = await rejection(new PortForwardLiveSource(kubeConfigFor(fake.url)).fetch('details-v1-1.default'));
    expect([e.status, e.stage]).toEqual([502, 'admin']);
    expect(e.message).toContain('connection refused');
  });

  it('an admin that never answers → 504 stage timeout; a later fetch works again', async () => {
    admin.hang = true;
    const src = new PortForwardLiveSource(kubeConfigFor(fake.url), { timeoutMs: 300 });
    const e = await rejection(src.fetch('productpage-v1-1.default'));
    expect([e.status, e.stage]).toEqual([504, 'timeout']);
    admin.hang = false;
    expect((await src.fetch('productpage-v1-1.default')).configDump).toEqual(DUMP);
  });

  it('the concurrency limit: with 1, a second pod is not dialled before the first fetch has settled', async () => {
    const slow = await newAdmin();
    slow.hang = true;
    const quick = await newAdmin();
    quick.dump = DUMP;
    fake.create(pod('default', 'slow-1', 'slow', '10.0.0.10'));
    fake.create(pod('default', 'quick-1', 'quick', '10.0.0.11'));
    fake.portForward.forward('default', 'slow-1', 15000, slow.port);
    fake.portForward.forward('default', 'quick-1', 15000, quick.port);
    const src = new PortForwardLiveSource(kubeConfigFor(fake.url), { concurrency: 1, timeoutMs: 500 });
    let slowSettled = false;
    let settledWhenQuickAsked: boolean | undefined;
    quick.onRequest = () => {
      settledWhenQuickAsked = slowSettled;
    };
    const first = src.fetch('slow-1.default').catch((e: LiveError) => {
      slowSettled = true;
      return e;
    });
    const second = src.fetch('quick-1.default');
    expect(((await first) as LiveError).status).toBe(504);
    expect((await second).configDump).toEqual(DUMP);
    expect(settledWhenQuickAsked).toBe(true);
  });

  it('a body over the byte cap → 502 stage limit', async () => {
    const e = await rejection(new PortForwardLiveSource(kubeConfigFor(fake.url), { maxBytes: 1000 }).fetch('productpage-v1-1.default'));
    expect([e.status, e.stage]).toEqual([502, 'limit']);
    expect(e.message).toContain('1000-byte cap');
  });

  it('withIstiod: asks each running istiod pod on 15014 until the one holding the proxy answers', async () => {
    const other = await newAdmin();
    const holder = await newAdmin();
    const istiodDump = { configs: [{ '@type': 'type.googleapis.com/envoy.admin.v3.ListenersConfigDump' }] };
    holder.debugDumps.set('productpage-v1-1.default', istiodDump);
    for (const [name, a] of [
      ['istiod-a', other],
      ['istiod-b', holder],
    ] as const) {
      fake.create({
        ...pod('istio-system', name, 'istiod', '10.0.1.1'),
        metadata: { name, namespace: 'istio-system', labels: { app: 'istiod' } },
      });
      fake.portForward.forward('istio-system', name, 15014, a.port);
    }
    const dump = await new PortForwardLiveSource(kubeConfigFor(fake.url)).fetch('productpage-v1-1.default', { withIstiod: true });
    expect(dump.istiodDump).toEqual(istiodDump);
    expect(other.requests).toEqual([{ method: 'GET', url: '/debug/config_dump?proxyID=productpage-v1-1.default' }]);
    expect(holder.requests).toEqual([{ method: 'GET', url: '/debug/config_dump?proxyID=productpage-v1-1.default' }]);
  });

  it('an API server that is gone → 502 stage pod (classified, not thrown raw)', async () => {
    const gone = new FakeApiServer();
    await gone.start();
    const url = gone.url;
    await gone.stop();
    const e = await rejection(new PortForwardLiveSource(kubeConfigFor(url)).fetch('productpage-v1-1.default'));
    expect([e.status, e.stage]).toEqual([502, 'pod']);
  });

  it('splits POD.NS at the last dot', () => {
    expect(splitProxyId('a.b.ns')).toEqual({ pod: 'a.b', namespace: 'ns' });
    expect(splitProxyId('a')).toBeUndefined();
    expect(splitProxyId('A.ns')).toBeUndefined();
  });
});
