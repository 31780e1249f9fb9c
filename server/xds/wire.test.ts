import { describe, expect, it } from 'vitest';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { DeltaDiscoveryResponseSchema, DiscoveryResponseSchema, ResourceSchema } from '../gen/envoy/service/discovery/v3/discovery_pb';
import { envoyRegistry } from '../gen/registry';
import { TYPE } from '../envoy/typeUrls';
import { AnyCache, resourceVersion } from './cache';
import { discoveryResponseSize, encodeDeltaFromEntries, encodeDiscoveryResponse, encodeResourceWire, utf8Length } from './wire';
import type { EncodedResource } from '../envoy/encode';
import { edsCluster, loadAssignment } from './testing/fixtures';
import type { Cluster } from '../gen/envoy/config/cluster/v3/cluster_pb';

// The hand-written envelope must decode, with protobuf-es' generated schema, into the same fields
// (field numbers from envoy/service/discovery/v3/discovery.proto and google/protobuf/any.proto).
describe('wire: hand-assembled DiscoveryResponse / DeltaDiscoveryResponse', () => {
  const cache = new AnyCache();
  const c1 = edsCluster('outbound|9080||reviews.default.svc.cluster.local');
  const c2 = edsCluster('c2', { connectTimeout: '1s' });

  it('SotW response decodes to version, type, nonce, control plane and packed resources in order', () => {
    const parts = { versionInfo: '2026-01-01T00:00:00Z/7', typeUrl: TYPE.cluster, nonce: 'n1', controlPlane: '{"Component":"meshscope"}' };
    const anys = [cache.any(c1), cache.any(c2)];
    const bytes = encodeDiscoveryResponse({ ...parts, anys });
    const msg = fromBinary(DiscoveryResponseSchema, bytes);
    expect(msg.versionInfo).toBe(parts.versionInfo);
    expect(msg.typeUrl).toBe(TYPE.cluster);
    expect(msg.nonce).toBe('n1');
    expect(msg.controlPlane?.identifier).toBe(parts.controlPlane);
    expect(msg.resources.map((a) => a.typeUrl)).toEqual([TYPE.cluster, TYPE.cluster]);
    const unpacked = msg.resources.map((a) => anyUnpack(a, envoyRegistry) as Cluster);
    expect(unpacked.map((c) => c.name)).toEqual([c1.name, 'c2']);
    expect(discoveryResponseSize({ ...parts, anySizes: anys.map((a) => a.length) })).toBe(bytes.length);
  });

  it('an empty SotW response still carries type and nonce (no resources = "none exist")', () => {
    const msg = fromBinary(
      DiscoveryResponseSchema,
      encodeDiscoveryResponse({ versionInfo: 'v', anys: [], typeUrl: TYPE.endpoint, nonce: '9' }),
    );
    expect(msg.resources).toHaveLength(0);
    expect(msg.typeUrl).toBe(TYPE.endpoint);
    expect(msg.nonce).toBe('9');
  });

  it('delta response decodes with per-resource name/version/Any and removed_resources', () => {
    const la = loadAssignment('c2', [['10.0.0.1', 80]]);
    const bytes = encodeDeltaFromEntries({
      systemVersionInfo: 's1',
      entries: [encodeResourceWire('c2', 'abc', la.typeUrl, la.bytes).entry],
      typeUrl: TYPE.endpoint,
      nonce: '3',
      removed: ['gone-1', 'gone-2'],
      controlPlane: 'cp',
    });
    const msg = fromBinary(DeltaDiscoveryResponseSchema, bytes);
    expect(msg.systemVersionInfo).toBe('s1');
    expect(msg.nonce).toBe('3');
    expect(msg.removedResources).toEqual(['gone-1', 'gone-2']);
    expect(msg.controlPlane?.identifier).toBe('cp');
    expect(msg.resources).toHaveLength(1);
    expect(msg.resources[0]!.name).toBe('c2');
    expect(msg.resources[0]!.version).toBe('abc');
    expect(msg.resources[0]!.resource?.typeUrl).toBe(TYPE.endpoint);
    expect(msg.resources[0]!.resource?.value).toEqual(la.bytes);
  });

  it('large varints (> 2^14 bytes of resources) are length-prefixed correctly', () => {
    const big = edsCluster('x'.repeat(20_000));
    const msg = fromBinary(
      DiscoveryResponseSchema,
      encodeDiscoveryResponse({ versionInfo: '1', anys: [cache.any(big)], typeUrl: TYPE.cluster, nonce: '1' }),
    );
    expect((anyUnpack(msg.resources[0]!, envoyRegistry) as Cluster).name).toHaveLength(20_000);
  });

  it('delta responses from cached per-resource entries equal protobuf-es encoding of the same fields', () => {
    const local = new AnyCache();
    const la = loadAssignment('c9', [['10.0.0.2', 81]]);
    const e1 = local.deltaEntry(c1);
    expect(local.deltaEntry(c1)).toBe(e1); // encoded once per resource object
    const ours = encodeDeltaFromEntries({
      systemVersionInfo: 's2',
      entries: [e1.bytes, local.deltaEntry(la).bytes],
      typeUrl: TYPE.cluster,
      nonce: '7',
      removed: ['old'],
      controlPlane: 'cp',
    });
    const theirs = toBinary(
      DeltaDiscoveryResponseSchema,
      create(DeltaDiscoveryResponseSchema, {
        systemVersionInfo: 's2',
        resources: [c1, la].map((r) => ({ name: r.name, version: resourceVersion(r), resource: { typeUrl: r.typeUrl, value: r.bytes } })),
        typeUrl: TYPE.cluster,
        nonce: '7',
        removedResources: ['old'],
        controlPlane: { identifier: 'cp' },
      }),
    );
    expect(ours).toEqual(theirs);
  });

  // One buffer per resource (encodeResourceWire): the Delta entry is field 2 of DeltaDiscoveryResponse holding a
  // Resource { version = 1; Any resource = 2; name = 3 } (discovery.proto), and its Any view must be exactly
  // google.protobuf.Any { type_url = 1; value = 2 } as protobuf-es writes it: proto3 drops empty strings and bytes,
  // a set message field is written even when empty.
  it.each([
    { name: 'outbound|9080||reviews.default.svc.cluster.local', version: '0123456789abcdef', typeUrl: TYPE.cluster, size: 40 },
    { name: 'inbound|15021||pod-é-日本', version: 'v-ü', typeUrl: TYPE.listener, size: 5000 },
    { name: '', version: '', typeUrl: TYPE.route, size: 0 },
    { name: 'n'.repeat(200), version: 'x', typeUrl: '', size: 130 },
  ])("a resource's entry and Any in one buffer equal protobuf-es' Resource and Any ($typeUrl, $size bytes)", (c) => {
    const value = Uint8Array.from({ length: c.size }, (_, i) => (i * 7 + 3) & 0xff);
    const { entry, any } = encodeResourceWire(c.name, c.version, c.typeUrl, value);
    expect(any.buffer).toBe(entry.buffer); // a view, not a copy
    expect(any).toEqual(toBinary(AnySchema, create(AnySchema, { typeUrl: c.typeUrl, value })));
    const resource = toBinary(
      ResourceSchema,
      create(ResourceSchema, { name: c.name, version: c.version, resource: { typeUrl: c.typeUrl, value } }),
    );
    const theirs = toBinary(
      DeltaDiscoveryResponseSchema,
      create(DeltaDiscoveryResponseSchema, { resources: [fromBinary(ResourceSchema, resource)] }),
    );
    expect(entry).toEqual(theirs);
  });

  it("AnyCache: SotW's Any and Delta's entry of a resource share one buffer", () => {
    const local = new AnyCache();
    const e = local.deltaEntry(c2);
    expect(local.any(c2)).toBe(e.any);
    expect(e.any.buffer).toBe(e.bytes.buffer);
  });

  it('AnyCache wraps each content once', () => {
    const local = new AnyCache();
    const a = local.any(c1);
    expect(local.any(c1)).toBe(a);
    expect(local.any({ ...c1 })).toBe(a); // same (type, name, hash) from a fresh object
    expect(local.size).toBe(1);
  });

  // The responses are assembled in place, in buffers that are not zeroed (server/lib/bytes.ts): they must be
  // exactly what protobuf-es encodes for the same message (fields in number order, proto3 omitting empty
  // strings, repeated strings kept even when empty), for responses small and large (> 4 kB: unzeroed memory),
  // with non-ASCII text (UTF-8 lengths), shared resources (the same Any bytes in many responses) and a pod's own.
  const shared = [edsCluster('outbound|9080||reviews.default.svc.cluster.local'), edsCluster('outbound|80||x'.padEnd(3000, 'x'))];
  const own = (pod: string) => [edsCluster(`inbound|9080||${pod}`), edsCluster(`inbound|15021||${pod}-é`)];
  const cases: Array<{ version: string; nonce: string; controlPlane?: string; resources: EncodedResource[] }> = [
    { version: '12', nonce: '1', controlPlane: '{"Component":"meshscope"}', resources: [...own('a'), ...shared] },
    { version: '12', nonce: '2', controlPlane: '{"Component":"meshscope"}', resources: [...own('b'), ...shared] },
    { version: '', nonce: '3', resources: [] },
    { version: 'v-ü/7', nonce: 'n-日本', controlPlane: 'cp-ß', resources: own('c') },
    { version: '1', nonce: '4', controlPlane: '', resources: [...shared, ...shared, ...shared] },
  ];
  it('SotW responses equal protobuf-es encoding of the same DiscoveryResponse, byte for byte', () => {
    const local = new AnyCache();
    for (const c of cases) {
      const parts = {
        versionInfo: c.version,
        typeUrl: TYPE.cluster,
        nonce: c.nonce,
        ...(c.controlPlane !== undefined ? { controlPlane: c.controlPlane } : {}),
      };
      const ours = encodeDiscoveryResponse({ ...parts, anys: c.resources.map((r) => local.any(r)) });
      const theirs = toBinary(
        DiscoveryResponseSchema,
        create(DiscoveryResponseSchema, {
          versionInfo: c.version,
          resources: c.resources.map((r) => ({ typeUrl: r.typeUrl, value: r.bytes })),
          typeUrl: TYPE.cluster,
          nonce: c.nonce,
          ...(c.controlPlane ? { controlPlane: { identifier: c.controlPlane } } : {}),
        }),
      );
      expect(ours).toEqual(theirs);
      expect(discoveryResponseSize({ ...parts, anySizes: c.resources.map((r) => local.any(r).length) })).toBe(theirs.length);
    }
  });

  it('Delta responses equal protobuf-es encoding of the same DeltaDiscoveryResponse, removals included', () => {
    const local = new AnyCache();
    for (const [i, c] of cases.entries()) {
      const removed = i % 2 === 0 ? [] : ['gone', '', 'gönë'.repeat(i)];
      const ours = encodeDeltaFromEntries({
        systemVersionInfo: c.version,
        entries: c.resources.map((r) => local.deltaEntry(r).bytes),
        typeUrl: TYPE.cluster,
        nonce: c.nonce,
        removed,
        ...(c.controlPlane !== undefined ? { controlPlane: c.controlPlane } : {}),
      });
      const theirs = toBinary(
        DeltaDiscoveryResponseSchema,
        create(DeltaDiscoveryResponseSchema, {
          systemVersionInfo: c.version,
          resources: c.resources.map((r) => ({
            name: r.name,
            version: resourceVersion(r),
            resource: { typeUrl: r.typeUrl, value: r.bytes },
          })),
          typeUrl: TYPE.cluster,
          nonce: c.nonce,
          removedResources: removed,
          ...(c.controlPlane ? { controlPlane: { identifier: c.controlPlane } } : {}),
        }),
      );
      expect(ours).toEqual(theirs);
    }
  });

  it('utf8Length counts UTF-8 bytes', () => {
    for (const s of ['', 'abc', 'é', '日本', '😀x', 'a\u0000b']) expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
  });
});
