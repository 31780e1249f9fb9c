// The comparison rules of issue 21 §2 on single messages, each checked against proto3 / protojson:
// a scalar at its default in an implicit-presence field is not serialized (proto3 "no presence"), a set
// message field always is (so a BoolValue `false` differs from absent — istioctl's comparator marshals it and
// counts it, istioctl/pkg/writer/compare/testdata/configdump_diff.json drops `use_remote_address: false`
// and the comparator reports "Listeners Don't Match"); Duration JSON is seconds with 0, 3, 6 or 9 fraction
// digits (protojson), so `10.000s` is the same Duration as `10s`.
import { describe, expect, it } from 'vitest';
import { canonicalDuration, canonicalResource, jsonEqual, v3TypeName } from './canonical';

const CLUSTER = 'envoy.config.cluster.v3.Cluster';
const LISTENER = 'envoy.config.listener.v3.Listener';
const same = (t: string, a: unknown, b: unknown) => jsonEqual(canonicalResource(t, a), canonicalResource(t, b));

describe('canonical resources', () => {
  it('Duration spellings of one value are equal; different values are not', () => {
    expect(canonicalDuration('10.000s')).toBe('10s');
    expect(canonicalDuration('1.5s')).toBe('1.500s');
    expect(canonicalDuration('0.000250s')).toBe('0.000250s');
    expect(same(CLUSTER, { name: 'c', connect_timeout: '10s' }, { name: 'c', connect_timeout: '10.000s' })).toBe(true);
    expect(same(CLUSTER, { name: 'c', connect_timeout: '10s' }, { name: 'c', connect_timeout: '5s' })).toBe(false);
  });

  it('a scalar or enum at its proto3 default equals an absent one', () => {
    // Cluster.type is an enum in a oneof (cluster_discovery_type): set to STATIC (0) it is present.
    expect(same(CLUSTER, { name: 'c', lb_policy: 'ROUND_ROBIN' }, { name: 'c' })).toBe(true);
    expect(same(CLUSTER, { name: 'c', lb_policy: 0 }, { name: 'c', lb_policy: 'ROUND_ROBIN' })).toBe(true);
    expect(same(CLUSTER, { name: 'c', alt_stat_name: '' }, { name: 'c' })).toBe(true);
    expect(same(CLUSTER, { name: 'c', type: 'STATIC' }, { name: 'c' })).toBe(false);
    expect(same(CLUSTER, { name: 'c', lb_policy: 'LEAST_REQUEST' }, { name: 'c' })).toBe(false);
  });

  it('a set wrapper or message is not the same as absent, even at its default', () => {
    const hcm = (extra: object) => ({
      name: 'l',
      filter_chains: [
        {
          filters: [
            {
              name: 'envoy.filters.network.http_connection_manager',
              typed_config: {
                '@type': 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
                stat_prefix: 's',
                ...extra,
              },
            },
          ],
        },
      ],
    });
    expect(same(LISTENER, hcm({ use_remote_address: false }), hcm({}))).toBe(false);
    expect(same(LISTENER, hcm({ use_remote_address: false }), hcm({ useRemoteAddress: false }))).toBe(true);
    expect(same(CLUSTER, { name: 'c', per_connection_buffer_limit_bytes: 0 }, { name: 'c' })).toBe(false);
  });

  it('JSON names, 64-bit integers as numbers or strings, enum numbers are read as protojson reads them', () => {
    expect(
      same(CLUSTER, { name: 'c', connectTimeout: '1s', lbPolicy: 1 }, { name: 'c', connect_timeout: '1s', lb_policy: 'LEAST_REQUEST' }),
    ).toBe(true);
    expect(
      same(
        CLUSTER,
        { name: 'c', circuit_breakers: { thresholds: [{ max_connections: 5 }] }, dns_refresh_rate: '5s' },
        { name: 'c', circuit_breakers: { thresholds: [{ max_connections: '5' }] }, dns_refresh_rate: '5.0s' },
      ),
    ).toBe(true);
  });

  it('v2 and v3 type names of the same message are equal', () => {
    expect(v3TypeName('envoy.config.filter.network.http_connection_manager.v2.HttpConnectionManager')).toBe(
      'envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
    );
    expect(v3TypeName('envoy.api.v2.Cluster')).toBe(CLUSTER);
    const tls = (t: string) => ({ name: 'c', transport_socket: { name: 'tls', typed_config: { '@type': t, sni: 'x' } } });
    expect(
      same(
        CLUSTER,
        tls('type.googleapis.com/envoy.api.v2.auth.UpstreamTlsContext'),
        tls('type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext'),
      ),
    ).toBe(true);
  });

  it('an Any of a type the registry lacks and an unknown field compare as plain JSON (a difference still shows)', () => {
    const ts = (v: object) => ({
      name: 'c',
      unknown_field_x: 1,
      transport_socket: { name: 't', typed_config: { '@type': 'type.googleapis.com/x.y.Z', ...v } },
    });
    expect(same(CLUSTER, ts({ a: 1, b: 2 }), ts({ b: 2, a: 1 }))).toBe(true);
    expect(same(CLUSTER, ts({ a: 1 }), ts({ a: 2 }))).toBe(false);
    expect(same(CLUSTER, { name: 'c', unknown_field_x: 1 }, { name: 'c', unknown_field_x: 2 })).toBe(false);
  });
});
