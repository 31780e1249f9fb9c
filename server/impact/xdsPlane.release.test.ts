// What a disconnected proxy owned is freed (issue 12, memory after clients leave): real gRPC clients on
// loopback connect as proxies of a generated mesh, get their full config, and leave; the server's own
// state (connections, the shared translations, the encoded-resource memo, key memos, Any bytes) goes back
// to its idle size once the release grace has run out (what they owned is kept that long for a reconnecting
// wave, as istiod's XdsCache outlives connections; the clock is injected, nothing waits for it). A translation
// another connected proxy still uses is kept; the last user leaving drops it (grace 0: at once).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { benchPod } from '../../bench/meshFiles';
import { generateMesh } from '../../bench/generateMesh';
import { TYPE } from '../envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { Store } from '../sources/store';
import { AdsTestClient, type DeltaTestStream, namesOf, type SotwTestStream } from '../xds/testing/adsTestClient';
import { waitFor } from '../xds/testing/echo';
import { createXdsPlane, type XdsPlane } from './xdsPlane';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let store: Store | undefined;
let plane: XdsPlane | undefined;
let client: AdsTestClient | undefined;
afterEach(async () => {
  client?.close();
  await plane?.close();
  store?.close();
});

async function syncSotw(s: SotwTestStream): Promise<void> {
  const cds = await s.request({ typeUrl: TYPE.cluster }, 30_000);
  s.ack(cds);
  const eds = await s.request({ typeUrl: TYPE.endpoint, resourceNames: namesOf(cds).filter((n) => n.startsWith('outbound|')) }, 30_000);
  s.ack(eds);
  s.ack(await s.request({ typeUrl: TYPE.listener }, 30_000));
}

async function syncDelta(s: DeltaTestStream): Promise<void> {
  const cds = await s.request({ typeUrl: TYPE.cluster }, 30_000);
  s.ack(cds);
  s.ack(await s.request({ typeUrl: TYPE.listener }, 30_000));
}

/** The server's own sizes that must not outlive the clients. */
function sizes(p: XdsPlane) {
  const c = p.cache.stats();
  const a = p.ads.stats();
  return {
    connections: a.connections,
    queued: a.queued + a.running + a.pending,
    entries: c.entries,
    tracked: c.tracked,
    memoEntries: c.memoEntries,
    keyMemos: c.keyMemos,
    anyCache: a.anyCache,
  };
}

/** The injected clock of the release grace (ms). */
let clock = 0;
const GRACE_MS = 30_000;

async function start(graceMs = GRACE_MS) {
  clock = 0;
  store = new Store({ debounceMs: 1_000_000 });
  store.replace('mesh', [
    ...generateMesh({ services: 6, namespaces: 2, scoped: true }),
    { object: benchPod('10.199.0.1'), origin: { source: 'demo', file: 't' } },
  ]);
  store.flush();
  plane = createXdsPlane(store, DEFAULT_OPTIONS, {
    ads: { debounceMs: 1_000_000, maxDebounceMs: 1_000_000, log: () => undefined },
    release: { graceMs, now: () => clock },
  });
  const port = await plane.ads.start(0, '127.0.0.1');
  client = new AdsTestClient(port);
  const sidecars = store.snapshot().proxies.filter((p) => p.type === 'sidecar');
  return { plane, client, sidecars };
}

const settledIdle = (p: XdsPlane, idle: ReturnType<typeof sizes>) => () => {
  gc();
  return JSON.stringify(sizes(p)) === JSON.stringify(idle);
};

describe('clients leaving free what their proxies owned', () => {
  it('K SotW and Delta clients over every sidecar connect, sync and leave: the server is back at its idle sizes', async () => {
    const { plane, client, sidecars } = await start();
    gc();
    const idle = sizes(plane);
    expect(idle).toMatchObject({ connections: 0, entries: 0, memoEntries: 0 });
    const streams: Array<SotwTestStream | DeltaTestStream> = [];
    const syncs: Promise<void>[] = [];
    for (let i = 0; i < 3 * sidecars.length; i++) {
      const p = sidecars[i % sidecars.length]!;
      const node = { id: `sidecar~10.0.${i}.1~${p.id}~${p.namespace}.svc.cluster.local` };
      if (i % 2 === 0) {
        const s = client.sotw(node);
        streams.push(s);
        syncs.push(syncSotw(s));
      } else {
        const s = client.delta(node);
        streams.push(s);
        syncs.push(syncDelta(s));
      }
    }
    await Promise.all(syncs);
    const connected = sizes(plane);
    // Not vacuous: every distinct proxy was translated and its resources encoded and wrapped.
    expect(connected.connections).toBe(streams.length);
    expect(connected.entries).toBeGreaterThan(1);
    expect(connected.memoEntries).toBeGreaterThan(connected.entries);
    expect(connected.anyCache).toBeGreaterThan(0);
    for (const s of streams) s.cancel();
    await waitFor(() => plane.ads.stats().connections === 0 && plane.cache.stats().released > 0, 'the clients to be gone', 30_000);
    // Within the grace, what they owned is kept: a reconnecting client is served without a translation.
    expect(plane.cache.stats()).toMatchObject({ entries: connected.entries, tracked: 0, released: connected.entries });
    // The proxies' key memos are kept for the grace too (a reconnect wave does not remake every proxy's key).
    expect(plane.cache.stats().keyMemos).toBe(connected.keyMemos);
    const t = plane.cache.stats().translations + plane.cache.stats().scopeShared;
    const back = client.sotw({ id: `sidecar~10.0.0.1~${sidecars[0]!.id}~${sidecars[0]!.namespace}.svc.cluster.local` });
    await syncSotw(back);
    expect(plane.cache.stats().translations + plane.cache.stats().scopeShared).toBe(t);
    expect(plane.cache.stats().released).toBe(connected.entries - 1);
    back.cancel();
    await waitFor(() => plane.ads.stats().connections === 0 && plane.cache.stats().released === connected.entries, 'it to leave', 30_000);
    clock += GRACE_MS - 1;
    expect(plane.cache.expireReleased()).toBe(0); // not yet
    expect(plane.cache.stats().entries).toBe(connected.entries);
    clock += 1;
    expect(plane.cache.expireReleased()).toBe(connected.entries);
    await waitFor(settledIdle(plane, idle), 'the server to free what the clients owned', 30_000);
  }, 120_000);

  it('a translation stays while another connected proxy shares it, and goes with the last one', async () => {
    const { plane, client, sidecars } = await start(0);
    const p = sidecars[0]!;
    const node = (i: number) => ({ id: `sidecar~10.0.0.${i}~${p.id}~${p.namespace}.svc.cluster.local` });
    const a = client.sotw(node(1));
    const b = client.sotw(node(2));
    await Promise.all([syncSotw(a), syncSotw(b)]);
    expect(plane.cache.stats().entries).toBe(1);
    a.cancel();
    await waitFor(() => plane.ads.stats().connections === 1, 'the first client to be gone', 30_000);
    await new Promise((r) => setImmediate(r));
    expect(plane.cache.stats().entries).toBe(1); // b (same proxy) is still connected
    const t = plane.cache.stats().translations;
    // b is still served from the kept translation (no re-translation) after a new request.
    const lds = await b.request({ typeUrl: TYPE.listener }, 30_000);
    expect(lds.resources.length).toBeGreaterThan(0);
    expect(plane.cache.stats().translations).toBe(t);
    b.cancel();
    await waitFor(
      () => plane.cache.stats().entries === 0 && plane.cache.stats().memoEntries === 0,
      'the translation to be dropped',
      30_000,
    );
  }, 120_000);
});
