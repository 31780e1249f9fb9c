// Istio's proto merge (pkg/proto/merge merge_test.go: Duration replaced whole; proto.Merge semantics otherwise)
// and MergeWithReplaceList, on canonical proto3 JSON with the Envoy API descriptors.
import { describe, expect, it } from 'vitest';
import { fullEnvoyRegistry } from '../envoy/fullApi';
import { decodePatchValue } from './decode';
import { mergeAnyWithAny, mergeMessage } from './merge';

const cluster = () => {
  const d = fullEnvoyRegistry().getMessage('envoy.config.cluster.v3.Cluster');
  if (!d) throw new Error('no Cluster descriptor');
  return d;
};

describe('Istio proto merge on JSON', () => {
  it('Duration: 0.5s merged into 10s gives 0.5s, not 10.5s (merge.go special-cases durationpb)', () => {
    const dst = { name: 'c', connectTimeout: '10s' };
    mergeMessage(cluster(), dst, { connectTimeout: '0.500s' });
    expect(dst.connectTimeout).toBe('0.500s');
  });

  it('repeated fields append; MERGE_AND_REPLACE_LIST replaces them', () => {
    const a: Record<string, unknown> = { name: 'c', dnsResolvers: [{ socketAddress: { address: '1.1.1.1' } }] };
    mergeMessage(cluster(), a, { dnsResolvers: [{ socketAddress: { address: '8.8.8.8' } }] });
    expect((a.dnsResolvers as unknown[]).length).toBe(2);
    const b: Record<string, unknown> = { name: 'c', dnsResolvers: [{ socketAddress: { address: '1.1.1.1' } }] };
    mergeMessage(cluster(), b, { dnsResolvers: [{ socketAddress: { address: '8.8.8.8' } }] }, true);
    expect(b.dnsResolvers).toEqual([{ socketAddress: { address: '8.8.8.8' } }]);
  });

  it('a oneof member set by the patch clears its siblings (type → cluster_type)', () => {
    const dst: Record<string, unknown> = { name: 'c', type: 'EDS', edsClusterConfig: { serviceName: 'x' } };
    mergeMessage(cluster(), dst, { clusterType: { name: 'envoy.clusters.aggregate' } });
    expect(dst.type).toBeUndefined();
    expect(dst.clusterType).toEqual({ name: 'envoy.clusters.aggregate' });
    expect(dst.edsClusterConfig).toEqual({ serviceName: 'x' });
  });

  it('nested messages merge field by field; maps set by key', () => {
    const dst: Record<string, unknown> = {
      name: 'c',
      circuitBreakers: { thresholds: [{ maxConnections: 5 }] },
      metadata: { filterMetadata: { a: { x: 1 } } },
    };
    mergeMessage(cluster(), dst, {
      metadata: { filterMetadata: { b: { y: 2 } } },
      commonLbConfig: { healthyPanicThreshold: { value: 0 } },
    });
    expect(dst.metadata).toEqual({ filterMetadata: { a: { x: 1 }, b: { y: 2 } } });
    expect(dst.circuitBreakers).toEqual({ thresholds: [{ maxConnections: 5 }] });
  });

  it('MergeAnyWithAny: same type merged, different types keep the original', () => {
    const tcp = { '@type': 'type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy', statPrefix: 's', cluster: 'c' };
    expect(mergeAnyWithAny(tcp, { '@type': tcp['@type'], idleTimeout: '5s' })).toEqual({ ...tcp, idleTimeout: '5s' });
    expect(mergeAnyWithAny(tcp, { '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router' })).toBeUndefined();
  });

  it('patch values decode from YAML-style snake_case into canonical JSON; a bad value is an error', () => {
    expect(decodePatchValue('CLUSTER', { connect_timeout: '0.5s', lb_policy: 'RANDOM' })).toEqual({
      ok: true,
      value: { connectTimeout: '0.500s', lbPolicy: 'RANDOM' },
    });
    const bad = decodePatchValue('CLUSTER', { connect_timeout: 'soon' });
    expect(bad.ok).toBe(false);
  });
});
