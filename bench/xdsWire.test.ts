// The bench clients' wire reading and hand-encoded requests (bench/xdsWire.ts) against protobuf-es, on real
// responses of a real ADS server (the xDS plane over issue 24's mesh, on loopback): every field a client reads
// equals the full decode's, and every request it writes is byte-identical to protobuf-es' toBinary of the same
// DiscoveryRequest / DeltaDiscoveryRequest (field order, implicit-presence omission, map entries — protobuf-es
// writes fields by number and both key and value of a map entry). Field numbers: envoy/service/discovery/v3/
// discovery.proto. The same check runs in the bench on a sample (bench/clientVerify.ts); here on every response.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyPack, anyUnpack } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE } from '../server/envoy/typeUrls';
import { type Cluster, Cluster_DiscoveryType, ClusterSchema } from '../server/gen/envoy/config/cluster/v3/cluster_pb';
import {
  DeltaDiscoveryRequestSchema,
  DeltaDiscoveryResponseSchema,
  DiscoveryRequestSchema,
  DiscoveryResponseSchema,
} from '../server/gen/envoy/service/discovery/v3/discovery_pb';
import { createXdsPlane, type XdsPlane } from '../server/impact/xdsPlane';
import { DEFAULT_OPTIONS } from '../server/model/mesh';
import { Store } from '../server/sources/store';
import { translateProxy } from '../server/translate/index';
import { makeNode } from '../server/xds/testing/adsTestClient';
import { Verifier } from './clientVerify';
import { BenchClient } from './issueClients';
import { issueMesh, KINDS } from './issueMesh';
import { BufferPool, Pending, RawAdsChannel } from './rawAds';
import { readHead } from './xdsHead';
import {
  encodeDeltaRequest,
  encodeEdsNames,
  encodeNode,
  encodeResourceNames,
  encodeSotwRequest,
  isEdsCluster,
  rdsNames,
  readDeltaResponse,
  readSotwResponse,
  resourceNameOf,
  resourceBytes,
} from './xdsWire';

let store: Store;
let plane: XdsPlane;
let port: number;
let channel: RawAdsChannel;
let sidecar: { id: string; namespace: string };
const nodeId = (p: { id: string; namespace: string }) => `sidecar~10.0.0.1~${p.id}~${p.namespace}.svc.cluster.local`;

beforeAll(async () => {
  const mesh = issueMesh(8, 4);
  store = new Store({ debounceMs: 1_000_000 });
  store.replace(
    'mesh',
    KINDS.flatMap((k) => mesh.byKind[k]).map((object, doc) => ({ object, origin: { source: 'demo' as const, doc } })),
  );
  store.flush();
  plane = createXdsPlane(store, DEFAULT_OPTIONS, { ads: { debounceMs: 1_000_000, maxDebounceMs: 1_000_000, log: () => undefined } });
  port = await plane.ads.start(0, '127.0.0.1');
  channel = new RawAdsChannel(port);
  sidecar = store.snapshot().proxies.find((p) => p.type === 'sidecar' && p.id.startsWith('svc-1-'))!;
}, 60_000);

afterAll(async () => {
  channel?.close();
  await plane?.close();
  store?.close();
});

/** Opens a stream, writes `requests` (already encoded), resolves with the first `n` responses' bytes (copied). */
function exchange(delta: boolean, requests: Buffer[], n: number): Promise<Buffer[]> {
  const got: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const call = channel.open(
      delta,
      (b) => {
        got.push(Buffer.from(b));
        if (got.length === n) {
          call.cancel();
          resolve(got);
        }
      },
      (status) => got.length < n && reject(new Error(`stream ended: ${status}`)),
    );
    for (const r of requests) call.write(r);
  });
}

describe('the bench clients read what protobuf-es decodes', () => {
  it('SotW CDS, EDS, LDS, RDS: type URL, version, nonce, names, EDS clusters, RDS names; the ACKs byte for byte', async () => {
    const node = encodeNode(nodeId(sidecar));
    const [cdsB, ldsB] = await exchange(
      false,
      [encodeSotwRequest({ typeUrl: TYPE.cluster, node }), encodeSotwRequest({ typeUrl: TYPE.listener })],
      2,
    );
    const cds = readSotwResponse(cdsB!);
    const full = fromBinary(DiscoveryResponseSchema, cdsB!);
    expect([cds.typeUrl, cds.version, cds.nonce]).toEqual([full.typeUrl, full.versionInfo, full.nonce]);
    expect(cds.resources.length).toBe(full.resources.length);
    expect(cds.resources.map((r) => [...resourceBytes(cds, r)])).toEqual(full.resources.map((a) => [...a.value]));
    const eds = cds.resources.filter((r) => isEdsCluster(cds.bytes, r.start, r.end)).map((r) => r.name);
    // Not vacuous: the pod sees outbound EDS clusters and non-EDS ones (inbound, BlackHole/Passthrough).
    expect(eds.length).toBeGreaterThan(1);
    expect(eds.length).toBeLessThan(cds.resources.length);

    const lds = readSotwResponse(ldsB!);
    const rds = [...new Set(lds.resources.flatMap((r) => rdsNames(lds.bytes, r.start, r.end)))].sort();
    const expected = translateProxy(store.snapshot(), store.snapshot().proxies.find((p) => p.id === sidecar.id)!, DEFAULT_OPTIONS);
    expect(rds).toEqual(expected.routes.map((r) => r.name ?? '').sort());
    expect(rds.length).toBeGreaterThan(0);

    const [edsB, rdsB] = await exchange(
      false,
      [
        encodeSotwRequest({ typeUrl: TYPE.endpoint, node, resourceNames: eds }),
        encodeSotwRequest({ typeUrl: TYPE.route, resourceNames: rds }),
      ],
      2,
    );
    expect(
      readSotwResponse(edsB!)
        .resources.map((r) => r.name)
        .sort(),
    ).toEqual([...eds].sort());
    expect(
      readSotwResponse(rdsB!)
        .resources.map((r) => r.name)
        .sort(),
    ).toEqual(rds);

    const v = new Verifier();
    for (const b of [cdsB!, ldsB!, edsB!, rdsB!]) v.check('t', false, b, readSotwResponse(b));
    expect({ verified: v.verified, mismatches: v.mismatches, first: v.first }).toEqual({ verified: 4, mismatches: 0, first: [] });

    for (const b of [cdsB!, ldsB!, edsB!, rdsB!]) {
      const r = readSotwResponse(b);
      const names = r.typeUrl === TYPE.endpoint ? eds : r.typeUrl === TYPE.route ? rds : [];
      for (const withNode of [false, true]) {
        const ack = encodeSotwRequest({
          typeUrl: r.typeUrl,
          resourceNames: names,
          versionInfo: r.version,
          responseNonce: r.nonce,
          ...(withNode ? { node } : {}),
        });
        const want = create(DiscoveryRequestSchema, {
          typeUrl: r.typeUrl,
          resourceNames: names,
          versionInfo: r.version,
          responseNonce: r.nonce,
          ...(withNode ? { node: makeNode({ id: nodeId(sidecar) }) } : {}),
        });
        expect(Buffer.from(ack).equals(Buffer.from(toBinary(DiscoveryRequestSchema, want)))).toBe(true);
        // The clients' ACK path: the names encoded once, reused for every ACK of the type.
        const reused = encodeSotwRequest({
          typeUrl: r.typeUrl,
          resourceNames: encodeResourceNames(names),
          versionInfo: r.version,
          responseNonce: r.nonce,
          ...(withNode ? { node } : {}),
        });
        expect(Buffer.from(reused).equals(Buffer.from(toBinary(DiscoveryRequestSchema, want)))).toBe(true);
        // The same with gRPC's message prefix in front (a 0 flag byte, the length big-endian), as the clients send it.
        const prefixed = encodeSotwRequest({
          typeUrl: r.typeUrl,
          resourceNames: encodeResourceNames(names),
          versionInfo: r.version,
          responseNonce: r.nonce,
          ...(withNode ? { node } : {}),
          prefix: true,
        });
        const body = Buffer.from(toBinary(DiscoveryRequestSchema, want));
        const head = Buffer.alloc(5);
        head.writeUInt32BE(body.length, 1);
        expect(prefixed.equals(Buffer.concat([head, body]))).toBe(true);
      }
    }
  }, 60_000);

  it('Delta: names, versions, removed names; the ACKs and a reconnect with initial_resource_versions byte for byte', async () => {
    const node = encodeNode(nodeId(sidecar));
    const [cdsB, edsB] = await exchange(
      true,
      [
        encodeDeltaRequest({ typeUrl: TYPE.cluster, node }),
        encodeDeltaRequest({ typeUrl: TYPE.endpoint, subscribe: ['no-such-cluster', 'outbound|9080||svc-1.ns-1.svc.cluster.local'] }),
      ],
      2,
    );
    for (const b of [cdsB!, edsB!]) {
      const r = readDeltaResponse(b);
      const full = fromBinary(DeltaDiscoveryResponseSchema, b);
      expect([r.typeUrl, r.version, r.nonce, r.removed]).toEqual([full.typeUrl, full.systemVersionInfo, full.nonce, full.removedResources]);
      expect(r.resources.map((x) => [x.name, x.version, resourceNameOf(r.bytes, x.start, x.end)])).toEqual(
        full.resources.map((x) => [x.name, x.version, x.name]),
      );
      const v = new Verifier();
      v.check('t', true, b, r);
      expect(v.first).toEqual([]);
    }
    expect(readDeltaResponse(edsB!).removed).toContain('no-such-cluster');
    const cds = readDeltaResponse(cdsB!);
    expect(cds.resources.length).toBeGreaterThan(2);
    const versions = new Map(cds.resources.map((x) => [x.name, x.version ?? '']));
    const cases = [
      { typeUrl: cds.typeUrl, responseNonce: cds.nonce },
      { typeUrl: TYPE.route, subscribe: ['80', '', 'é-ü'] },
      { typeUrl: TYPE.cluster, node, initialResourceVersions: versions },
      {
        typeUrl: TYPE.cluster,
        initialResourceVersions: new Map([
          ['', ''],
          ['a', ''],
        ]),
      },
    ];
    for (const c of cases) {
      const want = create(DeltaDiscoveryRequestSchema, {
        typeUrl: c.typeUrl,
        resourceNamesSubscribe: c.subscribe ?? [],
        responseNonce: c.responseNonce ?? '',
        initialResourceVersions: Object.fromEntries(c.initialResourceVersions ?? []),
        ...(c.node ? { node: makeNode({ id: nodeId(sidecar) }) } : {}),
      });
      const body = Buffer.from(toBinary(DeltaDiscoveryRequestSchema, want));
      expect(Buffer.from(encodeDeltaRequest(c)).equals(body)).toBe(true);
      const prefix = Buffer.alloc(5);
      prefix.writeUInt32BE(body.length, 1);
      expect(encodeDeltaRequest({ ...c, prefix: true }).equals(Buffer.concat([prefix, body]))).toBe(true);
    }
  }, 60_000);

  it('a bench client syncs SotW and Delta, reads the RDS names the translation has, and its sample checks pass', async () => {
    const expected = translateProxy(store.snapshot(), store.snapshot().proxies.find((p) => p.id === sidecar.id)!, DEFAULT_OPTIONS);
    const routes = expected.routes.map((r) => r.name ?? '');
    for (const mode of ['sotw', 'delta'] as const) {
      const v = new Verifier();
      const c = new BenchClient(sidecar.id, sidecar.namespace, mode, routes, 0, v);
      await c.connect(channel);
      c.close();
      // the sample is checked after the wave (clientProc.ts calls this once every client is in sync)
      expect(v.verified).toBe(0);
      v.checkKept();
      expect(c.rdsFromLds).toEqual([...routes].sort());
      expect(c.traffic.responses).toBeGreaterThanOrEqual(4);
      expect(v.verified).toBe(c.traffic.responses);
      expect({ mismatches: v.mismatches, first: v.first }).toEqual({ mismatches: 0, first: [] });
    }
  }, 60_000);
});

describe("the bench clients read every response's head as protobuf-es decodes it", () => {
  it('SotW CDS, LDS, EDS, RDS and Delta CDS, EDS (with a removed name): type URL, version, nonce, counts', async () => {
    const node = encodeNode(nodeId(sidecar));
    const sotw = await exchange(
      false,
      [encodeSotwRequest({ typeUrl: TYPE.cluster, node }), encodeSotwRequest({ typeUrl: TYPE.listener })],
      2,
    );
    const eds = readSotwResponse(sotw[0]!)
      .resources.filter((r) => isEdsCluster(sotw[0]!, r.start, r.end))
      .map((r) => r.name);
    const rds = readSotwResponse(sotw[1]!).resources.flatMap((r) => rdsNames(sotw[1]!, r.start, r.end));
    sotw.push(
      ...(await exchange(
        false,
        [
          encodeSotwRequest({ typeUrl: TYPE.endpoint, node, resourceNames: eds }),
          encodeSotwRequest({ typeUrl: TYPE.route, resourceNames: rds }),
        ],
        2,
      )),
    );
    const delta = await exchange(
      true,
      [
        encodeDeltaRequest({ typeUrl: TYPE.cluster, node }),
        encodeDeltaRequest({ typeUrl: TYPE.endpoint, subscribe: ['no-such-cluster', 'outbound|9080||svc-1.ns-1.svc.cluster.local'] }),
      ],
      2,
    );
    for (const b of sotw) {
      const full = fromBinary(DiscoveryResponseSchema, b);
      const want = { typeUrl: full.typeUrl, version: full.versionInfo, nonce: full.nonce, resources: full.resources.length, removed: 0 };
      expect(want.resources).toBeGreaterThan(0);
      expect(readHead(b, false)).toEqual(want);
    }
    for (const b of delta) {
      const full = fromBinary(DeltaDiscoveryResponseSchema, b);
      const want = {
        typeUrl: full.typeUrl,
        version: full.systemVersionInfo,
        nonce: full.nonce,
        resources: full.resources.length,
        removed: full.removedResources.length,
      };
      expect(readHead(b, true)).toEqual(want);
    }
    expect(fromBinary(DeltaDiscoveryResponseSchema, delta[1]!).removedResources).toContain('no-such-cluster');
    // The EDS request's names copied from the CDS response's bytes: byte for byte protobuf-es' request naming the EDS
    // clusters of protobuf-es' decode (Cluster.type EDS; SotW: Cluster.name, Delta: Resource.name).
    const edsOf = (clusters: Cluster[]) =>
      clusters.filter((c) => c.clusterDiscoveryType.case === 'type' && c.clusterDiscoveryType.value === 3);
    const sotwClusters = fromBinary(DiscoveryResponseSchema, sotw[0]!).resources.map((a) => anyUnpack(a, ClusterSchema)!);
    const sotwNames = edsOf(sotwClusters).map((c) => c.name);
    expect(sotwNames.length).toBeGreaterThan(1);
    expect(sotwNames.length).toBeLessThan(sotwClusters.length);
    const sotwEds = encodeEdsNames(sotw[0]!, false);
    expect(sotwEds.count).toBe(sotwNames.length);
    const sotwWant = create(DiscoveryRequestSchema, { typeUrl: TYPE.endpoint, resourceNames: sotwNames, versionInfo: 'v1' });
    expect(
      encodeSotwRequest({ typeUrl: TYPE.endpoint, resourceNames: sotwEds, versionInfo: 'v1' }).equals(
        toBinary(DiscoveryRequestSchema, sotwWant),
      ),
    ).toBe(true);
    const deltaFull = fromBinary(DeltaDiscoveryResponseSchema, delta[0]!).resources;
    const deltaNames = deltaFull.filter((r) => edsOf([anyUnpack(r.resource!, ClusterSchema)!]).length === 1).map((r) => r.name);
    expect(deltaNames.length).toBeGreaterThan(1);
    const deltaEds = encodeEdsNames(delta[0]!, true);
    expect(deltaEds.count).toBe(deltaNames.length);
    const deltaWant = create(DeltaDiscoveryRequestSchema, {
      typeUrl: TYPE.endpoint,
      resourceNamesSubscribe: deltaNames,
      node: makeNode({ id: nodeId(sidecar) }),
    });
    expect(
      encodeDeltaRequest({ typeUrl: TYPE.endpoint, subscribe: deltaEds, node }).equals(toBinary(DeltaDiscoveryRequestSchema, deltaWant)),
    ).toBe(true);
    // The sample's check compares the head too: a head that is off by one resource is a mismatch.
    const v = new Verifier();
    const h = readHead(sotw[0]!, false);
    v.check('t', false, sotw[0]!, readSotwResponse(sotw[0]!), h);
    v.check('t', false, sotw[0]!, readSotwResponse(sotw[0]!), { ...h, resources: h.resources - 1 });
    expect({ verified: v.verified, mismatches: v.mismatches }).toEqual({ verified: 2, mismatches: 1 });
  }, 60_000);

  it('1- to 4-byte tags and lengths, a 2-byte UTF-8 version, unknown varint, fixed64 and fixed32 fields; cut short: an error', () => {
    const m = create(DiscoveryResponseSchema, {
      versionInfo: `é${'v'.repeat(200)}`,
      typeUrl: TYPE.cluster,
      nonce: 'n'.repeat(2_200_000),
      canary: true,
      resources: [anyPack(ClusterSchema, create(ClusterSchema, { name: 'c'.repeat(20_000) }))],
    });
    // unknown fields 16 (varint 2^40 + 5), 17 (fixed64), 18 (fixed32), then a repeated version_info (the last one wins)
    const unknown = Buffer.from([
      0x80, 0x01, 0x85, 0x80, 0x80, 0x80, 0x80, 0x20, 0x89, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0x95, 0x01, 1, 2, 3, 4,
    ]);
    const last = Buffer.from([0x0a, 0x02, 0xc3, 0xbc]); // version_info 'ü'
    const b = Buffer.concat([Buffer.from(toBinary(DiscoveryResponseSchema, m)), unknown, last]);
    const full = fromBinary(DiscoveryResponseSchema, b);
    expect(full.versionInfo).toBe('ü');
    expect(readHead(b, false)).toEqual({
      typeUrl: full.typeUrl,
      version: full.versionInfo,
      nonce: full.nonce,
      resources: full.resources.length,
      removed: 0,
    });
    expect(() => readHead(b.subarray(0, b.length - 1), false)).toThrow(/truncated/);
    expect(() => readHead(b.subarray(0, b.length - 5 - 4), false)).toThrow(/truncated/);
  });
});

describe('the bench clients read varints of every length', () => {
  it('1- to 4-byte tags and lengths, a 6-byte unknown varint: what protobuf-es decodes', () => {
    const cluster = (name: string, type: Cluster_DiscoveryType) =>
      anyPack(ClusterSchema, create(ClusterSchema, { name, clusterDiscoveryType: { case: 'type', value: type } }));
    // lengths 200 (2-byte varint), 20,000 (3), 2,200,000 (4: over 2^21); a 2-byte name in UTF-8
    const m = create(DiscoveryResponseSchema, {
      versionInfo: 'v'.repeat(200),
      typeUrl: TYPE.cluster,
      nonce: 'n'.repeat(2_200_000),
      resources: [cluster('c'.repeat(20_000), Cluster_DiscoveryType.EDS), cluster('é', Cluster_DiscoveryType.STATIC)],
    });
    // An unknown field 16 (tag 0x80 0x01: two bytes) holding 2^40 + 5 (six bytes): a client skips it.
    const unknown = Buffer.from([0x80, 0x01, 0x85, 0x80, 0x80, 0x80, 0x80, 0x20]);
    const b = Buffer.concat([Buffer.from(toBinary(DiscoveryResponseSchema, m)), unknown]);
    expect(fromBinary(DiscoveryResponseSchema, b).nonce.length).toBe(2_200_000);
    const r = readSotwResponse(b);
    expect([r.version, r.nonce, r.typeUrl]).toEqual([m.versionInfo, m.nonce, m.typeUrl]);
    expect(r.resources.map((x) => [x.name, isEdsCluster(b, x.start, x.end)])).toEqual([
      ['c'.repeat(20_000), true],
      ['é', false],
    ]);
    const v = new Verifier();
    v.check('t', false, b, r);
    expect({ verified: v.verified, mismatches: v.mismatches }).toEqual({ verified: 1, mismatches: 0 });
    // cut short inside the 6-byte varint: an error, not a wrong value
    expect(() => readSotwResponse(b.subarray(0, b.length - 2))).toThrow(/truncated/);
  });
});

describe('the bench clients unframe gRPC messages from HTTP/2 DATA however it is split', () => {
  it('messages inside one chunk, across chunks, headers split, empty messages: each whole and in order', () => {
    const messages = [
      Buffer.alloc(0),
      Buffer.from('a'),
      Buffer.alloc(70_000, 7),
      Buffer.from('xyz'),
      Buffer.alloc(1_200_000, 9),
      Buffer.from('é'),
    ];
    messages[2]![0] = 1;
    const wire = Buffer.concat(
      messages.flatMap((m) => [Buffer.from([0, m.length >>> 24, (m.length >>> 16) & 255, (m.length >>> 8) & 255, m.length & 255]), m]),
    );
    // (cuts of 1–7 bytes split the 5-byte prefix; the 1.2 MB message needs the pool's 2 MiB class)
    const pool = new BufferPool();
    for (const cut of [1, 3, 7, 1000, 16_384, 100_000, wire.length]) {
      const p = new Pending(pool);
      const got: Buffer[] = [];
      for (let i = 0; i < wire.length; i += cut) p.push(wire.subarray(i, i + cut), (m) => got.push(Buffer.from(m)));
      expect(got.map((g) => g.toString('hex'))).toEqual(messages.map((m) => m.toString('hex')));
    }
    // Every buffer went back to the pool after its message: one buffer per size class served all the cuts (64 KiB for
    // the short messages cut apart, 128 KiB for the 70 kB one, 2 MiB for the 1.2 MB one). A stream that ends halfway
    // through a message gives its buffer back.
    expect(pool.made).toBe(3);
    const p = new Pending(pool);
    p.push(wire.subarray(0, 20), () => undefined); // the 70 kB message started
    p.dispose();
    const again = new Pending(pool);
    const got: Buffer[] = [];
    for (let i = 0; i < wire.length; i += 1000) again.push(wire.subarray(i, i + 1000), (m) => got.push(Buffer.from(m)));
    expect(got).toHaveLength(messages.length);
    expect(pool.made).toBe(3);
  });
});
