// SotW requests decoded with a repeated resource_names list shared (requestNames.ts) decode to what protobuf-es'
// fromBinary gives for the same bytes, whatever came before on the same server: the same names in the same order,
// version, nonce, type URL, node and error detail (envoy service/discovery/v3/discovery.proto DiscoveryRequest). A
// list with the same bytes is decoded once and shared; then the ACK that repeats it is recognised as an ACK by
// identity (istiod pkg/xds/server.go ShouldRespond: same nonce, same names → no response).
import { create, fromBinary, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { DeltaDiscoveryRequestSchema, DiscoveryRequestSchema } from '../gen/envoy/service/discovery/v3/discovery_pb';
import { DeltaRequestDecoder, SotwRequestDecoder } from './requestNames';
import { shouldRespond } from './shouldRespond';

const clusters = (n: number, tag = '') =>
  Array.from({ length: n }, (_, i) => `outbound|${8000 + (i % 3)}||svc-${i}${tag}.ns-${i % 20}.svc.cluster.local`);

const request = (init: MessageInitShape<typeof DiscoveryRequestSchema>) =>
  toBinary(DiscoveryRequestSchema, create(DiscoveryRequestSchema, { typeUrl: TYPE.endpoint, ...init }));

describe('SotW request decoding with shared resource_names (SotwRequestDecoder)', () => {
  it('an EDS ACK repeating a ~750-name list: the same request as fromBinary, its names decoded once and shared', () => {
    const d = new SotwRequestDecoder();
    const names = clusters(750);
    const first = request({ resourceNames: names, node: { id: 'sidecar~10.0.0.1~a.ns-0~ns-0.svc.cluster.local' } });
    const ack = request({ resourceNames: names, versionInfo: '7', responseNonce: '12' });
    const other = request({ resourceNames: names, versionInfo: '7', responseNonce: '13' });
    const a = d.decode(first);
    expect(a).toEqual(fromBinary(DiscoveryRequestSchema, first));
    const b = d.decode(ack);
    expect(b).toEqual(fromBinary(DiscoveryRequestSchema, ack));
    expect(b.resourceNames).toBe(a.resourceNames);
    expect(d.decode(other).resourceNames).toBe(a.resourceNames);
    expect(d.reused).toBe(2);
    expect(Object.isFrozen(a.resourceNames)).toBe(true);
    // the watch set by the first request is ACKed by the second without a new response
    const decision = shouldRespond(
      { names: new Set(names), wildcard: false, nonceSent: '12', requested: a.resourceNames },
      { typeUrl: TYPE.endpoint, responseNonce: b.responseNonce, resourceNames: b.resourceNames },
    );
    expect(decision).toEqual({ kind: 'ack', respond: false });
  });

  it('a list of the same length with one name changed is decoded, not taken from the kept one (a resubscription)', () => {
    const d = new SotwRequestDecoder();
    const names = clusters(750);
    const changed = names.slice();
    changed[400] = changed[400]!.replace('svc-400', 'svc-40x');
    expect(changed[400]!.length).toBe(names[400]!.length);
    const a = d.decode(request({ resourceNames: names, responseNonce: '1' }));
    const b = d.decode(request({ resourceNames: changed, responseNonce: '1' }));
    expect(b.resourceNames).toEqual(changed);
    expect(b.resourceNames).not.toBe(a.resourceNames);
    const decision = shouldRespond(
      { names: new Set(names), wildcard: false, nonceSent: '1', requested: a.resourceNames },
      { typeUrl: TYPE.endpoint, responseNonce: '1', resourceNames: b.resourceNames },
    );
    expect(decision.kind).toBe('resubscribe');
  });

  it('names split by another field, or bytes it cannot walk: decoded whole, as fromBinary decodes them', () => {
    const d = new SotwRequestDecoder();
    const names = clusters(400);
    const part = (init: MessageInitShape<typeof DiscoveryRequestSchema>) => request({ typeUrl: '', ...init });
    // resource_names, then type_url, then more resource_names (valid protobuf: a repeated field may be split)
    const split = new Uint8Array([
      ...part({ resourceNames: names.slice(0, 200) }),
      ...part({ typeUrl: TYPE.endpoint }),
      ...part({ resourceNames: names.slice(200) }),
    ]);
    expect(d.decode(split)).toEqual(fromBinary(DiscoveryRequestSchema, split));
    expect(d.decode(split).resourceNames).toEqual(names);
    expect(d.reused).toBe(0);
    const truncated = request({ resourceNames: names }).subarray(0, 3000);
    expect(() => d.decode(truncated)).toThrow();
  });

  it('any sequence of requests decodes as fromBinary decodes each', () => {
    const lists = [clusters(120), clusters(120, 'b'), clusters(300), clusters(3), []];
    const req = fc.record({
      names: fc.nat(lists.length - 1),
      typeUrl: fc.constantFrom(TYPE.endpoint, TYPE.route, TYPE.cluster),
      versionInfo: fc.string({ maxLength: 4 }),
      responseNonce: fc.string({ maxLength: 4 }),
      node: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
      error: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(req, { minLength: 1, maxLength: 20 }), (reqs) => {
        const d = new SotwRequestDecoder();
        for (const r of reqs) {
          const bytes = request({
            typeUrl: r.typeUrl,
            versionInfo: r.versionInfo,
            responseNonce: r.responseNonce,
            resourceNames: lists[r.names]!,
            ...(r.node !== undefined ? { node: { id: r.node } } : {}),
            ...(r.error !== undefined ? { errorDetail: { code: 3, message: r.error } } : {}),
          });
          expect(d.decode(bytes)).toEqual(fromBinary(DiscoveryRequestSchema, bytes));
        }
      }),
      { numRuns: 100 },
    );
  });
});

// DeltaDiscoveryRequest { node = 1; type_url = 2; resource_names_subscribe = 3; resource_names_unsubscribe = 4;
// initial_resource_versions = 5 (map); response_nonce = 6; error_detail = 7 } (discovery.proto): the subscribe list
// is the shared one; the unsubscribe list (field 4) and the map must come through as protobuf-es decodes them.
describe('Delta request decoding with a shared resource_names_subscribe list (DeltaRequestDecoder)', () => {
  const request = (init: MessageInitShape<typeof DeltaDiscoveryRequestSchema>) =>
    toBinary(DeltaDiscoveryRequestSchema, create(DeltaDiscoveryRequestSchema, { typeUrl: TYPE.endpoint, ...init }));

  it('two sidecars of one scope subscribing to its ~750 clusters: decoded as fromBinary, the list decoded once', () => {
    const d = new DeltaRequestDecoder();
    const names = clusters(750);
    const a = request({ resourceNamesSubscribe: names, node: { id: 'sidecar~10.0.0.1~a.ns-0~ns-0.svc.cluster.local' } });
    const b = request({ resourceNamesSubscribe: names, node: { id: 'sidecar~10.0.0.2~b.ns-0~ns-0.svc.cluster.local' } });
    const ra = d.decode(a);
    const rb = d.decode(b);
    expect(ra).toEqual(fromBinary(DeltaDiscoveryRequestSchema, a));
    expect(rb).toEqual(fromBinary(DeltaDiscoveryRequestSchema, b));
    expect(rb.resourceNamesSubscribe).toBe(ra.resourceNamesSubscribe);
    expect(d.reused).toBe(1);
    // the unsubscribe list is never taken for the subscribe one, even with the same bytes
    const un = request({ resourceNamesUnsubscribe: names });
    const ru = d.decode(un);
    expect(ru).toEqual(fromBinary(DeltaDiscoveryRequestSchema, un));
    expect(ru.resourceNamesSubscribe).toEqual([]);
  });

  it('any sequence of requests decodes as fromBinary decodes each', () => {
    const lists = [clusters(120), clusters(120, 'b'), clusters(300), clusters(3), []];
    const req = fc.record({
      subscribe: fc.nat(lists.length - 1),
      unsubscribe: fc.nat(lists.length - 1),
      typeUrl: fc.constantFrom(TYPE.endpoint, TYPE.route, TYPE.cluster),
      responseNonce: fc.string({ maxLength: 4 }),
      initial: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
      node: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
      error: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(req, { minLength: 1, maxLength: 20 }), (reqs) => {
        const d = new DeltaRequestDecoder();
        for (const r of reqs) {
          const bytes = request({
            typeUrl: r.typeUrl,
            responseNonce: r.responseNonce,
            resourceNamesSubscribe: lists[r.subscribe]!,
            resourceNamesUnsubscribe: lists[r.unsubscribe]!,
            initialResourceVersions: r.initial,
            ...(r.node !== undefined ? { node: { id: r.node } } : {}),
            ...(r.error !== undefined ? { errorDetail: { code: 3, message: r.error } } : {}),
          });
          expect(d.decode(bytes)).toEqual(fromBinary(DeltaDiscoveryRequestSchema, bytes));
        }
      }),
      { numRuns: 100 },
    );
  });
});
