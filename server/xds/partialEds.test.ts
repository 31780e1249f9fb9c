import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import type { DiscoveryResponse } from '../gen/envoy/service/discovery/v3/discovery_pb';
import { namesOf, resourceName, type SotwTestStream } from './testing/adsTestClient';
import { edsCluster, loadAssignment } from './testing/fixtures';
import { SIDECAR, startHarness, type Harness } from './testing/harness';
import type { EncodedResource } from '../envoy/encode';

// Incremental EDS over SotW, as istiod sends it: pilot/pkg/xds/eds.go EdsGenerator.Generate → buildEndpoints
// with canSendPartialFullPushes (a push whose ConfigsUpdated are only Endpoints / ServiceEntry / DR / PA, not
// Forced) computes and sends only the updated services' ClusterLoadAssignments, and pushXds (xdsgen.go) sends
// nothing when none is left. Requests are Forced (ads.go processRequest): answered with every watched CLA, as
// are full pushes. The client side: the xDS protocol keeps only LDS and CDS full state in SotW — Envoy's
// GrpcMuxImpl calls onConfigUpdate only for the EDS watches a response names, and @grpc/grpc-js-xds's
// EndpointResourceType.allResourcesRequiredInSotW() is false — so a CLA left out of a response stays as it was.
// `view` applies exactly that rule; the tests check it ends equal to what a fresh stream is sent.

const NAMES = ['c1', 'c2', 'c3'];
const clas = (c1: string, c2 = '10.0.0.2', c3 = '10.0.0.3'): EncodedResource[] => [
  loadAssignment('c1', [[c1, 80]]),
  loadAssignment('c2', [[c2, 80]]),
  loadAssignment('c3', [[c3, 80]]),
];
const clusters = (timeout = '1s') => NAMES.map((n) => edsCluster(n, { connectTimeout: timeout }));

let h: Harness;
let s: SotwTestStream;
beforeEach(async () => {
  h = await startHarness();
  h.gen.set('v1', [...clusters(), ...clas('10.0.0.1')]);
  s = h.client.sotw(SIDECAR);
});
afterEach(async () => {
  await h.close();
});

/** A SotW EDS client's view: each response's CLAs replace those of the same name; the others stay. */
const apply = (view: Map<string, string>, r: DiscoveryResponse): Map<string, string> => {
  for (const a of r.resources) view.set(resourceName(a), Buffer.from(a.value).toString('base64'));
  return view;
};

/** What a fresh stream subscribed to every name is sent now: the full state. */
async function fresh(): Promise<Map<string, string>> {
  const s2 = h.client.sotw({ ...SIDECAR, id: SIDECAR.id.replace('10.0.0.1', '10.0.0.9') });
  const r = await s2.request({ typeUrl: TYPE.endpoint, resourceNames: NAMES });
  expect(namesOf(r)).toEqual(NAMES);
  s2.cancel();
  return apply(new Map(), r);
}

async function subscribed(): Promise<Map<string, string>> {
  s.ack(await s.request({ typeUrl: TYPE.cluster }));
  const r = await s.request({ typeUrl: TYPE.endpoint, resourceNames: NAMES });
  expect(namesOf(r)).toEqual(NAMES);
  s.ack(r);
  return apply(new Map(), r);
}

/** Proves nothing else was sent first: an initial request for another type must be answered next. */
async function barrier(): Promise<void> {
  const r = await s.request({ typeUrl: TYPE.listener, resourceNames: ['none'] });
  expect(r.typeUrl).toBe(TYPE.listener);
}

const endpointPush = (reason: string) => h.server.push({ proxies: 'all', types: new Set([TYPE.endpoint]), reason });

describe('SotW EDS pushes are incremental (istiod eds.go partial push)', () => {
  it('an endpoint push sends only the moved CLA; the client view equals the full state', async () => {
    const view = await subscribed();
    h.gen.set('v2', [...clusters(), ...clas('10.9.9.1')]);
    endpointPush('pod moved');
    const r = await s.next();
    expect(r.typeUrl).toBe(TYPE.endpoint);
    expect(r.versionInfo).toBe('v2');
    expect(namesOf(r)).toEqual(['c1']);
    s.ack(r);
    await barrier();
    const eds = h.server.connections()[0]!.types.find((t) => t.typeUrl === TYPE.endpoint);
    expect(eds).toMatchObject({ sentVersion: 'v2', sentCount: 1, ackedVersion: 'v2', state: 'SYNCED' });
    apply(view, r);
    expect(view).toEqual(await fresh());
  });

  it('two moves in a row: each push carries the CLA that changed since the last response', async () => {
    const view = await subscribed();
    h.gen.set('v2', [...clusters(), ...clas('10.9.9.1')]);
    endpointPush('move 1');
    const r2 = await s.next();
    s.ack(r2);
    h.gen.set('v3', [...clusters(), ...clas('10.9.9.1', '10.9.9.2', '10.9.9.3')]);
    endpointPush('move 2');
    const r3 = await s.next();
    expect(namesOf(r2)).toEqual(['c1']);
    expect(namesOf(r3)).toEqual(['c2', 'c3']);
    s.ack(r3);
    apply(apply(view, r2), r3);
    expect(view).toEqual(await fresh());
  });

  it('a full push (a config change: CDS in the batch) sends every CLA after CDS, so updated clusters warm', async () => {
    await subscribed();
    h.gen.set('v2', [...clusters('2s'), ...clas('10.9.9.1')]);
    h.server.push({ proxies: 'all', reason: 'cluster changed' });
    const cds = await s.next();
    expect(cds.typeUrl).toBe(TYPE.cluster);
    const eds = await s.next();
    expect(eds.typeUrl).toBe(TYPE.endpoint);
    expect(namesOf(eds)).toEqual(NAMES);
  });

  it('a NACKed incremental response: the next endpoint push sends the full set', async () => {
    await subscribed();
    h.gen.set('v2', [...clusters(), ...clas('10.9.9.1')]);
    endpointPush('move');
    const bad = await s.next();
    expect(namesOf(bad)).toEqual(['c1']);
    s.nack(bad, 'rejected', 'v1');
    await barrier();
    h.gen.set('v3', [...clusters(), ...clas('10.9.9.7')]);
    endpointPush('next move');
    const r = await s.next();
    expect(r.versionInfo).toBe('v3');
    expect(namesOf(r)).toEqual(NAMES);
  });

  it('nothing changed for the stream, or only a CLA left: nothing is sent (pushXds skips an empty result)', async () => {
    await subscribed();
    h.gen.set('v2', [...clusters(), ...clas('10.0.0.1')]);
    endpointPush('no change');
    await h.server.flush();
    h.gen.set('v3', [...clusters(), ...clas('10.0.0.1').filter((r) => r.name !== 'c3')]);
    endpointPush('c3 gone');
    await h.server.flush();
    await barrier();
    expect(h.server.connections()[0]!.types.find((t) => t.typeUrl === TYPE.endpoint)).toMatchObject({ sentVersion: 'v1' });
  });

  it('a changed subscription (a request) and a reconnect are answered with every CLA', async () => {
    s.ack(await s.request({ typeUrl: TYPE.cluster }));
    s.ack(await s.request({ typeUrl: TYPE.endpoint, resourceNames: ['c1', 'c2'] }));
    h.gen.set('v2', [...clusters(), ...clas('10.9.9.1')]);
    endpointPush('move');
    const r2 = await s.next();
    expect(namesOf(r2)).toEqual(['c1']);
    s.ack(r2, NAMES); // subscribes c3 too: answered with all three, c1 unchanged since r2 included
    const r3 = await s.next();
    expect(r3.typeUrl).toBe(TYPE.endpoint);
    expect(namesOf(r3)).toEqual(NAMES);
    s.cancel();
    await s.ended;
    const s2 = h.client.sotw(SIDECAR);
    const again = await s2.request({ typeUrl: TYPE.endpoint, resourceNames: NAMES, versionInfo: 'v2' });
    expect(namesOf(again)).toEqual(NAMES);
    expect(apply(new Map(), again)).toEqual(await fresh());
  });
});
