// The dump JSON made straight from the translator's JSON (dumpJson.ts) is the text of the protobuf round trip it
// replaces (encode.ts: fromJson → toBinary → fromBinary → toJson with proto field names, then typeFirst): the
// oracle is protobuf-es itself (its to-json.js compileMessage / compileScalarValue rules, proto3 JSON mapping),
// never this module's own output. Compared as printed text (JSON.stringify), so key order counts too.
import { describe, expect, it } from 'vitest';
import { envoyRegistry } from '../gen/registry';
import { buildProxyTable } from '../pipeline/stages';
import { goldenCaseNames, loadGoldenCase } from '../translate/testing/goldenCases';
import { DumpJsonWriter, dumpFirstResource } from './dumpJson';
import { encodeResource } from './encode';
import { TYPE, type TypeUrl } from './typeUrls';

const typeName = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const roundTrip = (typeUrl: TypeUrl, json: unknown) => JSON.stringify(encodeResource(typeUrl, 'x', json).json);
const fast = (typeUrl: TypeUrl, json: unknown) => {
  const out = new DumpJsonWriter(envoyRegistry).resource(typeName(typeUrl), json);
  return out === undefined ? undefined : JSON.stringify(out);
};

describe('DumpJsonWriter', () => {
  it('prints every resource of every golden proxy (and every proxy of their meshes) as the protobuf round trip does', () => {
    const lists = [
      ['listeners', TYPE.listener],
      ['routes', TYPE.route],
      ['clusters', TYPE.cluster],
      ['endpoints', TYPE.endpoint],
    ] as const;
    const seen = new Map<string, number>();
    let taken = 0;
    let bailed = 0;
    for (const fixtures of [false, true])
      for (const name of goldenCaseNames({ fixtures })) {
        const c = loadGoldenCase(name);
        const writer = new DumpJsonWriter(envoyRegistry);
        for (const proxy of c.snapshot.proxies) {
          const table = buildProxyTable(c.snapshot, proxy, c.options);
          for (const [list, typeUrl] of lists)
            for (const r of table[list] as unknown[]) {
              const out = writer.resource(typeName(typeUrl), r);
              if (out === undefined) {
                bailed++;
                continue;
              }
              taken++;
              seen.set(typeUrl, (seen.get(typeUrl) ?? 0) + 1);
              expect(JSON.stringify(out), `${name} ${proxy.id} ${typeUrl}`).toBe(roundTrip(typeUrl, r));
            }
        }
      }
    // Not vacuous: every type went through the fast path, and (nearly) everything the translators emit does.
    for (const [, typeUrl] of lists) expect(seen.get(typeUrl) ?? 0, typeUrl).toBeGreaterThan(20);
    expect(bailed).toBeLessThanOrEqual(taken / 100);
  }, 300_000);

  it('keeps the wire form of scalars: float32 rounding, 64-bit integers as decimal strings, enums by name or number', () => {
    const cluster = {
      name: 'c',
      type: 'STRICT_DNS', // enum by name
      lbPolicy: 'ROUND_ROBIN', // the zero value of an implicit enum: left out
      dnsLookupFamily: 2, // enum by number
      connectTimeout: '1.500s',
      perConnectionBufferLimitBytes: 0, // a wrapper: explicit presence, printed
      respectDnsTtl: false, // implicit bool zero: left out
      altStatName: '', // implicit string zero: left out
      upstreamBindConfig: {
        sourceAddress: { address: '10.0.0.1', portValue: 0 },
        socketOptions: [{ level: 1, name: '9', intValue: 0, state: 'STATE_PREBIND' }], // int64 from number and string; oneof zero kept
      },
      metadata: {
        filterMetadata: {
          istio: { name: 'x', '@type': 'moved first', n: 1.5, nested: { l: [1, 'a', null, true, { '@type': 't', z: 0 }] } },
        },
        typedFilterMetadata: { f: { '@type': 'type.googleapis.com/google.protobuf.FloatValue', value: 0.1 } },
      },
      lbSubsetConfig: { fallbackPolicy: 77 }, // an enum number with no name: printed as the number
    };
    expect(fast(TYPE.cluster, cluster)).toBe(roundTrip(TYPE.cluster, cluster));
    const printed = JSON.parse(fast(TYPE.cluster, cluster)!);
    expect(printed.metadata.typed_filter_metadata.f.value).toBe(Math.fround(0.1)); // not 0.1: float32 on the wire
    expect(printed.upstream_bind_config.socket_options[0].name).toBe('9');
  });

  it('prints Durations as protobuf-es does (nanos to 3, 6 or 9 digits) and Anys with "@type" first', () => {
    for (const d of ['0s', '5s', '0.1s', '1.000000001s', '2.000100s', '007s', '1.10s']) {
      const c = { name: 'c', connectTimeout: d };
      expect(fast(TYPE.cluster, c), d).toBe(roundTrip(TYPE.cluster, c));
    }
    const l = {
      name: 'l',
      filterChains: [
        {
          filters: [
            {
              name: 'f',
              typedConfig: {
                statPrefix: 's',
                '@type': 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy',
                cluster: 'x',
              },
            },
          ],
        },
      ],
    };
    expect(fast(TYPE.listener, l)).toBe(roundTrip(TYPE.listener, l));
    expect(fast(TYPE.listener, l)).toMatch(/"typed_config":\{"@type":/);
  });

  it('leaves to the round trip what it does not take (it decides the error or the text)', () => {
    const bails: unknown[] = [
      { name: 'c', unknownField: 1 }, // unknown key
      { name: 'c', altStatName: null }, // null
      { name: 'c', alt_stat_name: 'a', altStatName: 'b' }, // one field by both names
      { name: 'c', perConnectionBufferLimitBytes: '5' }, // a number as a string
      { name: 'c\uD800' }, // a lone surrogate (UTF-8 on the wire turns it into U+FFFD)
      { name: 'c', connectTimeout: '-1s' }, // negative durations
      { name: 'c', connectTimeout: 5 },
      { name: 'c', type: 'NOT_A_TYPE' },
      { name: 'c', type: 'EDS', clusterType: { name: 'x' } }, // two members of one oneof
      { name: 'c', metadata: { typedFilterMetadata: { f: { '@type': 'type.googleapis.com/no.such.Type' } } } },
      { name: 'c', dnsRefreshRate: '1sx' },
    ];
    for (const b of bails) expect(fast(TYPE.cluster, b), JSON.stringify(b)).toBeUndefined();
  });

  it('encodes the bytes of a dump-first resource only when they are read, as encodeResource does', () => {
    const json = { name: 'c', type: 'EDS', connectTimeout: '10s' };
    const r = dumpFirstResource(
      TYPE.cluster,
      'c',
      json,
      new DumpJsonWriter(envoyRegistry).resource('envoy.config.cluster.v3.Cluster', json)!,
    );
    const whole = encodeResource(TYPE.cluster, 'c', json);
    expect(r.json).toEqual(whole.json);
    expect(Buffer.from(r.bytes).equals(Buffer.from(whole.bytes))).toBe(true);
    expect(r.hash).toBe(whole.hash);
  });
});
