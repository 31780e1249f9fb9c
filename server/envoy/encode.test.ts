import { describe, expect, it } from 'vitest';
import { canonicalJson, encodeResource } from './encode';
import { EXT, TYPE } from './typeUrls';

describe('encodeResource', () => {
  it('turns camelCase typed JSON into Envoy snake_case JSON with "@type" first on nested Anys', () => {
    const r = encodeResource(TYPE.listener, '0.0.0.0_9080', {
      name: '0.0.0.0_9080',
      address: { socketAddress: { address: '0.0.0.0', portValue: 9080 } },
      filterChains: [
        {
          filters: [
            {
              name: 'envoy.filters.network.http_connection_manager',
              typedConfig: {
                '@type': EXT.hcm,
                statPrefix: 'outbound_0.0.0.0_9080',
                rds: { configSource: { ads: {}, resourceApiVersion: 'V3' }, routeConfigName: '9080' },
                httpFilters: [{ name: 'envoy.filters.http.router', typedConfig: { '@type': EXT.router } }],
              },
            },
          ],
        },
      ],
    });
    const hcm = (r.json as any).filter_chains[0].filters[0].typed_config;
    expect(Object.keys(hcm)[0]).toBe('@type');
    expect(hcm.rds.route_config_name).toBe('9080');
    expect(hcm.http_filters[0].typed_config).toEqual({ '@type': EXT.router });
    expect((r.json as any).address.socket_address.port_value).toBe(9080);
    expect(r.bytes.length).toBeGreaterThan(0);
    expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects a misspelled field with the resource name in the message', () => {
    expect(() => encodeResource(TYPE.cluster, 'c1', { name: 'c1', connectTimeOut: '1s' })).toThrow(/Cluster "c1"/);
  });

  it('gives identical bytes and hash for identical content', () => {
    const a = encodeResource(TYPE.cluster, 'c', { name: 'c', type: 'EDS', connectTimeout: '10s' });
    const b = encodeResource(TYPE.cluster, 'c', { name: 'c', type: 'EDS', connectTimeout: '10s' });
    expect(a.hash).toBe(b.hash);
    expect((a.json as any).connect_timeout).toBe('10s');
  });

  it('gives the same Envoy JSON from the bytes (lazy) as converting the parsed message directly', () => {
    // Explicit-presence and oneof fields set to their default (0, "", false) must survive the binary round trip:
    // proto3 writes them when set, and Envoy prints them (e.g. per_connection_buffer_limit_bytes: 0).
    const cluster = {
      name: 'c',
      type: 'EDS',
      connectTimeout: '0s',
      perConnectionBufferLimitBytes: 0,
      circuitBreakers: { thresholds: [{ maxConnections: 0, maxRetries: 4294967295, trackRemaining: false }] },
      commonLbConfig: { healthyPanicThreshold: { value: 0 } },
      metadata: { filterMetadata: { istio: { config: '/apis/x', n: 0, b: false, l: [] } } },
      transportSocket: {
        name: 't',
        typedConfig: { '@type': 'type.googleapis.com/envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer' },
      },
      edsClusterConfig: { edsConfig: { ads: {}, resourceApiVersion: 'V3' }, serviceName: '' },
    };
    const r = encodeResource(TYPE.cluster, 'c', cluster);
    expect(r.json).toEqual(canonicalJson(TYPE.cluster, cluster));
    expect(r.json).toBe(r.json); // computed once, then kept
    expect(Object.keys(r.json.transport_socket as object)).toEqual(['name', 'typed_config']);
  });
});
