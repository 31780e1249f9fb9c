import { afterEach, describe, expect, it } from 'vitest';
import type { EncodedResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { resourceVersion } from './cache';
import { type DeltaTestStream, resourceName, type SotwTestStream } from './testing/adsTestClient';
import { apiListener, edsCluster, loadAssignment, resourceSet, weightedRoute } from './testing/fixtures';
import { type Harness, startHarness } from './testing/harness';
import { WireScratch, sotwResponse } from './wire';

// The ADS server writes each response into one scratch buffer per server as grpc-js serializes it (service.ts),
// relying on grpc-js copying the serialized message into its frame before it serializes the next one
// (@grpc/grpc-js server-interceptors serializeMessage). Many streams answered at once, each with responses of
// every type back to back (so writes queue behind each other in the streams and the scratch is reused between
// them), must each receive exactly their resources' bytes: a reused buffer still referenced by an unsent
// frame would show as another response's bytes.

const clusters = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) =>
    edsCluster(`outbound|${8000 + i}||svc-${i}.${tag}.svc.cluster.local`, { connectTimeout: `${1 + (i % 9)}s` }),
  );

function mesh(tag: string, n: number): EncodedResource[] {
  const cs = clusters(n, tag);
  return [
    ...cs,
    ...cs.map((c, i) => loadAssignment(c.name, [[`10.${i % 250}.0.${(i % 200) + 1}`, 8000 + i]])),
    apiListener('l1:80', 'r1'),
    weightedRoute(
      'r1',
      ['*'],
      cs.slice(0, 50).map((c) => [c.name, 2]),
    ),
  ];
}

const valuesByName = (list: readonly EncodedResource[], typeUrl: string) =>
  new Map(list.filter((r) => r.typeUrl === typeUrl).map((r) => [r.name, r.bytes]));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('responses written into the server scratch buffer', () => {
  it('SotW and Delta streams answered together each get exactly their own bytes', async () => {
    h = await startHarness();
    // Two meshes of different sizes (the scratch grows past 64 kB for the larger), per proxy.
    const small = mesh('small', 40);
    const large = mesh('large', 600);
    h.gen.set('v1', small);
    const nodes = Array.from({ length: 12 }, (_, i) => ({
      id: `sidecar~10.0.0.${i + 1}~pod-${i}.default~default.svc.cluster.local`,
      metadata: { NAMESPACE: 'default' },
    }));
    nodes.forEach((_, i) => {
      if (i % 2 === 1) h!.gen.perProxy.set(`pod-${i}.default`, resourceSet('v1', large));
    });
    const expectFor = (i: number) => (i % 2 === 1 ? large : small);
    const types = [TYPE.cluster, TYPE.endpoint, TYPE.listener, TYPE.route];
    const names = (list: EncodedResource[], t: string) => list.filter((r) => r.typeUrl === t).map((r) => r.name);
    const sotw: SotwTestStream[] = nodes.map((n) => h!.client.sotw(n));
    const delta: DeltaTestStream[] = nodes.map((n) => h!.client.delta(n));
    sotw.forEach((s, i) => {
      for (const t of types) s.send({ typeUrl: t, resourceNames: names(expectFor(i), t) });
    });
    delta.forEach((s, i) => {
      for (const t of types) s.send({ typeUrl: t, subscribe: names(expectFor(i), t) });
    });
    const checks: Promise<void>[] = [];
    sotw.forEach((s, i) =>
      checks.push(
        (async () => {
          for (let k = 0; k < types.length; k++) {
            const r = await s.next(20_000);
            const want = valuesByName(expectFor(i), r.typeUrl);
            expect(r.resources.length).toBe(want.size);
            for (const a of r.resources) expect(a.typeUrl).toBe(r.typeUrl);
            for (const a of r.resources) expect(new Uint8Array(a.value)).toEqual(want.get(resourceName(a)));
          }
        })(),
      ),
    );
    delta.forEach((s, i) =>
      checks.push(
        (async () => {
          const seen = new Set<string>();
          while (seen.size < types.length) {
            const r = await s.next(20_000);
            seen.add(r.typeUrl);
            const want = valuesByName(expectFor(i), r.typeUrl);
            for (const res of r.resources) {
              expect(new Uint8Array(res.resource?.value ?? [])).toEqual(want.get(res.name));
              const src = expectFor(i).find((x) => x.typeUrl === r.typeUrl && x.name === res.name)!;
              expect(res.version).toBe(resourceVersion(src));
            }
          }
        })(),
      ),
    );
    await Promise.all(checks);
  });

  it('WireScratch gives the message bytes, reusing its buffer, and a buffer of their own beyond its bound', () => {
    const scratch = new WireScratch(256 * 1024);
    const anys = (n: number) => Array.from({ length: n }, (_, i) => new Uint8Array(1000).fill(i % 256));
    const parts = { versionInfo: '1', typeUrl: TYPE.cluster, nonce: '1', controlPlane: 'cp' };
    const a = sotwResponse({ ...parts, anys: anys(10) });
    const first = scratch.bytes(a);
    expect(first.length).toBe(a.size);
    const copy = first.slice();
    const b = sotwResponse({ ...parts, nonce: '2', anys: anys(20) });
    const second = scratch.bytes(b);
    expect(second.buffer).toBe(first.buffer); // reused
    expect(scratch.bytes(a)).toEqual(copy); // the same message, the same bytes
    const big = sotwResponse({ ...parts, anys: anys(300) });
    expect(scratch.bytes(big).buffer).not.toBe(first.buffer);
    expect(scratch.bytes(big).length).toBe(big.size);
  });
});
