import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeltaDiscoveryResponse } from '../gen/envoy/service/discovery/v3/discovery_pb';
import { TYPE } from '../envoy/typeUrls';
import type { DeltaTestStream } from './testing/adsTestClient';
import { edsCluster, loadAssignment } from './testing/fixtures';
import { SIDECAR, startHarness, type Harness } from './testing/harness';
import { resourceVersion } from './cache';

// Rules: xDS protocol "Incremental xDS" (envoy api docs): subscribe/unsubscribe lists, wildcard on an
// empty first LDS/CDS request, per-resource versions, removed_resources, initial_resource_versions on
// reconnect; istiod pilot/pkg/xds/delta.go (only changed resources pushed).

const c1 = edsCluster('c1');
const c2 = edsCluster('c2');
const e1 = loadAssignment('c1', [['10.0.0.1', 80]]);
const e2 = loadAssignment('c2', [['10.0.0.2', 80]]);

let h: Harness;
let s: DeltaTestStream;
beforeEach(async () => {
  h = await startHarness();
  h.gen.set('v1', [c1, c2, e1, e2]);
  s = h.client.delta(SIDECAR);
});
afterEach(async () => {
  await h.close();
});

const names = (r: DeltaDiscoveryResponse) => r.resources.map((x) => x.name);
const versions = (r: DeltaDiscoveryResponse) => Object.fromEntries(r.resources.map((x) => [x.name, x.version]));

/** Proves nothing was sent before: a first subscription to the listener type must be answered next. */
async function barrier(): Promise<void> {
  const r = await s.request({ typeUrl: TYPE.listener, subscribe: ['none'] });
  expect(r.typeUrl).toBe(TYPE.listener);
  expect(r.removedResources).toEqual(['none']);
}

describe('Delta ADS', () => {
  it('wildcard CDS: every cluster, each with its own version (content hash)', async () => {
    const r = await s.request({ typeUrl: TYPE.cluster });
    expect(names(r)).toEqual(['c1', 'c2']);
    expect(versions(r)).toEqual({ c1: resourceVersion(c1), c2: resourceVersion(c2) });
    expect(r.systemVersionInfo).toBe('v1');
    expect(r.removedResources).toEqual([]);
    s.ack(r);
    await barrier();
    expect(h.server.connections()[0]).toMatchObject({ mode: 'delta' });
    expect(h.server.connections()[0]!.types.find((t) => t.typeUrl === TYPE.cluster)?.state).toBe('SYNCED');
  });

  it('a push sends only changed resources and lists deleted ones in removed_resources', async () => {
    s.ack(await s.request({ typeUrl: TYPE.cluster }));
    const c1b = edsCluster('c1', { connectTimeout: '5s' });
    h.gen.set('v2', [c1b, e1, e2]);
    h.server.push({ proxies: 'all', reason: 'c1 changed, c2 deleted' });
    const r = await s.next();
    expect(r.typeUrl).toBe(TYPE.cluster);
    expect(names(r)).toEqual(['c1']);
    expect(r.resources[0]!.version).toBe(resourceVersion(c1b));
    expect(r.removedResources).toEqual(['c2']);
  });

  it('named EDS: subscribe adds only the new name; unsubscribe is silent and stops updates for it', async () => {
    const r1 = await s.request({ typeUrl: TYPE.endpoint, subscribe: ['c1'] });
    expect(names(r1)).toEqual(['c1']);
    const r2 = await s.request({ typeUrl: TYPE.endpoint, subscribe: ['c2'], responseNonce: r1.nonce });
    expect(names(r2)).toEqual(['c2']);
    s.send({ typeUrl: TYPE.endpoint, unsubscribe: ['c1'], responseNonce: r2.nonce });
    await barrier();
    // c1 changes: not sent (unsubscribed). c2 changes: sent.
    h.gen.set('v2', [c1, c2, loadAssignment('c1', [['10.9.9.1', 80]]), e2]);
    h.server.push({ proxies: 'all', reason: 'e1' });
    await h.server.flush();
    const e2b = loadAssignment('c2', [['10.9.9.2', 80]]);
    h.gen.set('v3', [c1, c2, loadAssignment('c1', [['10.9.9.1', 80]]), e2b]);
    h.server.push({ proxies: 'all', reason: 'e2' });
    const r3 = await s.next();
    expect(r3.typeUrl).toBe(TYPE.endpoint);
    expect(names(r3)).toEqual(['c2']);
    expect(r3.systemVersionInfo).toBe('v3');
  });

  it('after a first response a push sends only what changed, and a re-subscription sends the resource again', async () => {
    // The first response carries every subscribed resource, sorted by name, and the ones not served as removed.
    const r1 = await s.request({ typeUrl: TYPE.endpoint, subscribe: ['c2', 'ghost', 'c1'] });
    expect(names(r1)).toEqual(['c1', 'c2']);
    expect(versions(r1)).toEqual({ c1: resourceVersion(e1), c2: resourceVersion(e2) });
    expect(r1.removedResources).toEqual(['ghost']);
    s.ack(r1);
    // c1 changes: only c1 is sent (the client holds c2's version from the first response).
    const e1b = loadAssignment('c1', [['10.9.9.1', 80]]);
    h.gen.set('v2', [c1, c2, e1b, e2]);
    h.server.push({ proxies: 'all', reason: 'e1' });
    const r2 = await s.next();
    expect(names(r2)).toEqual(['c1']);
    expect(r2.removedResources).toEqual([]);
    s.ack(r2);
    // A push that changes nothing the stream holds sends nothing.
    h.gen.set('v3', [c1, c2, e1b, e2]);
    h.server.push({ proxies: 'all', reason: 'same' });
    await h.server.flush();
    expect(s.buffered).toBe(0);
    // Unsubscribed and subscribed again: the client asks for it again, so it is sent although unchanged.
    s.send({ typeUrl: TYPE.endpoint, unsubscribe: ['c2'], responseNonce: r2.nonce });
    const r3 = await s.request({ typeUrl: TYPE.endpoint, subscribe: ['c2'], responseNonce: r2.nonce });
    expect(names(r3)).toEqual(['c2']);
    expect(r3.resources[0]!.version).toBe(resourceVersion(e2));
  });

  it('subscribing to a resource that does not exist reports it in removed_resources', async () => {
    const r = await s.request({ typeUrl: TYPE.endpoint, subscribe: ['c1', 'ghost'] });
    expect(names(r)).toEqual(['c1']);
    expect(r.removedResources).toEqual(['ghost']);
  });

  it('reconnect with initial_resource_versions: unchanged not resent, changed sent, gone removed', async () => {
    const r = await s.request({
      typeUrl: TYPE.cluster,
      initialResourceVersions: { c1: resourceVersion(c1), c2: 'old-version', c3: 'whatever' },
    });
    expect(names(r)).toEqual(['c2']);
    expect(r.removedResources).toEqual(['c3']);
  });

  it('NACK is recorded with its text; the rejected versions are not resent; new content is', async () => {
    s.ack(await s.request({ typeUrl: TYPE.cluster }));
    const bad = edsCluster('c2', { type: 'STATIC' });
    h.gen.set('v2', [c1, bad, e1, e2]);
    h.server.push({ proxies: 'all', reason: 'bad' });
    const r = await s.next();
    s.send({ typeUrl: TYPE.cluster, responseNonce: r.nonce, errorDetail: { code: 14, message: 'Unsupported type STATIC' } });
    await barrier();
    const t = h.server.connections()[0]!.types.find((x) => x.typeUrl === TYPE.cluster)!;
    expect(t.state).toBe('ERROR');
    expect(t.lastNack?.message).toBe('Unsupported type STATIC');
    expect(h.logs.some((l) => l.includes('NACK CDS (delta)'))).toBe(true);
    h.gen.set('v3', [c1, bad, e1, e2]);
    h.server.push({ proxies: 'all', reason: 'same content' });
    await h.server.flush();
    const good = edsCluster('c2', { connectTimeout: '2s' });
    h.gen.set('v4', [c1, good, e1, e2]);
    h.server.push({ proxies: 'all', reason: 'fixed' });
    const r4 = await s.next();
    expect(r4.systemVersionInfo).toBe('v4');
    expect(versions(r4)).toEqual({ c2: resourceVersion(good) });
  });

  it('explicit "*" subscribes to everything; unsubscribing "*" is silent and ends updates', async () => {
    const r = await s.request({ typeUrl: TYPE.endpoint, subscribe: ['*'] });
    expect(names(r)).toEqual(['c1', 'c2']);
    s.send({ typeUrl: TYPE.endpoint, unsubscribe: ['*'], responseNonce: r.nonce });
    await barrier();
    h.gen.set('v2', [c1, c2, loadAssignment('c1', [['10.9.9.1', 80]]), e2]);
    h.server.push({ proxies: 'all', reason: 'e1' });
    await h.server.flush();
    await barrier();
    expect(s.buffered).toBe(0);
  });
});
