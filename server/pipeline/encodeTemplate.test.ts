// Templates of encoded resources (encodeTemplate.ts): a resource whose JSON is another's with the varying names
// replaced by names of the same length is written from the other's bytes, and those bytes are exactly what
// encoding it gives (protobuf-es toBinary: a string field is its UTF-8 bytes after a length prefix). Where a name
// also occurs somewhere not written verbatim (here: inside a base64 `bytes` value, decoded on the wire) no
// template is made. The generated-mesh check is encodeTemplate.property.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { EncodeMemo } from './encodeTable';
import { varyKey, varyOrder } from './encodeTemplate';

/** An inbound cluster as the translator writes one (clusters/inbound.ts: `istio.services` metadata). */
const inboundCluster = (host: string, name: string, ns: string, extra: Record<string, unknown> = {}) => ({
  name: 'inbound|8080||',
  type: 'ORIGINAL_DST',
  connectTimeout: '10s',
  lbPolicy: 'CLUSTER_PROVIDED',
  metadata: { filterMetadata: { istio: { services: [{ host, name, namespace: ns }] } } },
  ...extra,
});

const bytesOf = (json: unknown) => Buffer.from(encodeResource(TYPE.cluster, 'inbound|8080||', json).bytes);

describe('encode templates', () => {
  it('orders the varying names longest first, drops unusable ones, and keys text by them', () => {
    expect(varyOrder(['svc-1', 'svc-1.ns-1.svc.cluster.local', 'ns-1', 'svc-1'])).toEqual([
      'svc-1.ns-1.svc.cluster.local',
      'svc-1',
      'ns-1',
    ]);
    expect(varyOrder(['a', 'x1', 'UPPER', 'with space'])).toBeUndefined(); // too short, not DNS-ish
    expect(varyOrder(['1234', '10.0.1', '1.25e10'])).toBeUndefined(); // no letter: could be (part of) a number in the JSON
    // A dotted IPv4 address (a virtual host's ClusterIP domain, routeEncode.ts) cannot: a JSON number has one dot at most.
    expect(varyOrder(['10.0.0.1', '1234'])).toEqual(['10.0.0.1']);
    const a = varyKey('{"h":"svc-1.ns-1.svc.cluster.local","n":"svc-1","o":"svc-10"}', ['svc-1.ns-1.svc.cluster.local', 'svc-1']);
    const b = varyKey('{"h":"svc-2.ns-1.svc.cluster.local","n":"svc-2","o":"svc-10"}', ['svc-2.ns-1.svc.cluster.local', 'svc-2']);
    expect(a?.counts).toEqual([1, 2]); // "svc-10" holds "svc-1": replaced too (and found in the bytes too)
    expect(b?.counts).toEqual([1, 1]);
    expect(a?.key).not.toBe(b?.key); // so these two never share a template
    expect(varyKey('{"n":"other"}', ['svc-1'])).toBeUndefined();
  });

  it('writes a same-shaped resource from the template: the bytes of encoding it', () => {
    const memo = new EncodeMemo();
    const vary = (h: string, n: string) => varyOrder([h, n, 'ns-1'])!;
    const first = inboundCluster('svc-1.ns-1.svc.cluster.local', 'svc-1', 'ns-1');
    memo.encode(TYPE.cluster, 'inbound|8080||', first, undefined, vary('svc-1.ns-1.svc.cluster.local', 'svc-1'));
    const second = inboundCluster('svc-2.ns-1.svc.cluster.local', 'svc-2', 'ns-1');
    const r = memo.encode(TYPE.cluster, 'inbound|8080||', second, undefined, vary('svc-2.ns-1.svc.cluster.local', 'svc-2'));
    expect(memo.templated).toBe(1);
    expect(Buffer.from(r.bytes).equals(bytesOf(second))).toBe(true);
    expect(r.hash).toBe(encodeResource(TYPE.cluster, 'inbound|8080||', second).hash);
    // another length: its own key, encoded
    const third = inboundCluster('svc-10.ns-1.svc.cluster.local', 'svc-10', 'ns-1');
    const r3 = memo.encode(TYPE.cluster, 'inbound|8080||', third, undefined, vary('svc-10.ns-1.svc.cluster.local', 'svc-10'));
    expect(memo.templated).toBe(1);
    expect(Buffer.from(r3.bytes).equals(bytesOf(third))).toBe(true);
  });

  it('makes no template when a name also occurs where it is not written verbatim (a base64 bytes value)', () => {
    const memo = new EncodeMemo();
    // transportSocket's typed config as a BytesValue whose bytes are "alpha" (base64 YWxwaGE=): the JSON text
    // holds "alpha" once (the service name), the encoding twice.
    const socket = { name: 'x', typedConfig: { '@type': 'type.googleapis.com/google.protobuf.BytesValue', value: 'YWxwaGE=' } };
    const first = inboundCluster('alpha.ns-1.svc.cluster.local', 'alpha', 'ns-1', { transportSocket: socket });
    memo.encode(TYPE.cluster, 'inbound|8080||', first, undefined, varyOrder(['alpha.ns-1.svc.cluster.local', 'alpha']));
    const second = inboundCluster('bravo.ns-1.svc.cluster.local', 'bravo', 'ns-1', { transportSocket: socket });
    const r = memo.encode(TYPE.cluster, 'inbound|8080||', second, undefined, varyOrder(['bravo.ns-1.svc.cluster.local', 'bravo']));
    expect(memo.templated).toBe(0);
    expect(Buffer.from(r.bytes).equals(bytesOf(second))).toBe(true);
    // what a template would have written: "bravo" in the BytesValue too
    expect(bytesOf(second).includes(Buffer.from('alpha'))).toBe(true);
  });

  it('a resource first encoded without names to vary (a scope full translation) becomes the template when met with them', () => {
    const memo = new EncodeMemo();
    const first = inboundCluster('svc-1.ns-1.svc.cluster.local', 'svc-1', 'ns-1');
    memo.encode(TYPE.cluster, 'inbound|8080||', first);
    memo.encode(TYPE.cluster, 'inbound|8080||', first, undefined, varyOrder(['svc-1.ns-1.svc.cluster.local', 'svc-1']));
    const second = inboundCluster('svc-2.ns-1.svc.cluster.local', 'svc-2', 'ns-1');
    const r = memo.encode(TYPE.cluster, 'inbound|8080||', second, undefined, varyOrder(['svc-2.ns-1.svc.cluster.local', 'svc-2']));
    expect(memo.templated).toBe(1);
    expect(Buffer.from(r.bytes).equals(bytesOf(second))).toBe(true);
  });
});

/** The template key as encodeTemplate.ts defines it: each vary string's occurrences replaced in turn (split/join). */
function referenceKey(text: string, vary: readonly string[]): { key: string; counts: number[] } | undefined {
  let t = text;
  const counts: number[] = [];
  vary.forEach((s, i) => {
    const parts = t.split(s);
    counts.push(parts.length - 1);
    t = parts.join(`\u0001${i}\u0002`);
  });
  return counts.every((c) => c === 0) ? undefined : { key: `${vary.map((s) => s.length).join(',')}\u0000${t}`, counts };
}

describe('varyKey (property)', () => {
  it('is the replacement in turn of each string, and the key with `vary` gives back the text', () => {
    // Few letters, so names overlap, repeat back to back and hold one another (svc-1 in svc-10, aaaa in aaaaa).
    const piece = fc.constantFrom('svc-1', 'svc-10', 'aaaa', 'a', '"', '.', 'ns-1', '10.0.0.1', '1', 'b');
    const text = fc.array(piece, { maxLength: 30 }).map((p) => p.join(''));
    const names = fc.array(fc.constantFrom('svc-1', 'svc-10', 'aaaa', 'aaaaa', 'ns-1', '10.0.0.1', 'svc-1.ns-1', 'zzzz'), {
      maxLength: 12,
    });
    let found = 0;
    fc.assert(
      fc.property(text, names, (t, strings) => {
        const vary = varyOrder(strings) ?? [];
        const got = varyKey(t, vary);
        expect(got).toEqual(referenceKey(t, vary));
        if (!got) return;
        found++;
        // invertible: placeholders back to their strings, last replaced first
        let back = got.key.slice(got.key.indexOf('\u0000') + 1);
        for (let i = vary.length - 1; i >= 0; i--) back = back.split(`\u0001${i}\u0002`).join(vary[i]!);
        expect(back).toBe(t);
      }),
      { numRuns: 2000, seed: 13 },
    );
    expect(found).toBeGreaterThan(500); // not vacuous
  });
});
