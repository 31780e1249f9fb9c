import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../../../model/mesh';
import { buildSnapshot, istio, pod, service } from '../../testing/meshBuilder';
import { buildProxyView } from '../../view/buildProxyView';
import { buildEndpoints } from '../endpoints/index';
import { buildGrpcClusters } from './grpc';
import { buildClusters } from './index';

// The real grpc-js-xds validators (what a proxyless client runs on every CDS/EDS resource it receives).
const require = createRequire(import.meta.url);
const { ClusterResourceType } = require('@grpc/grpc-js-xds/build/src/xds-resource-type/cluster-resource-type');
const { EndpointResourceType } = require('@grpc/grpc-js-xds/build/src/xds-resource-type/endpoint-resource-type');
const grpcDecode = (type: typeof ClusterResourceType, typeUrl: string, name: string, json: unknown) => {
  const bytes = encodeResource(typeUrl as typeof TYPE.cluster, name, json).bytes;
  return type.get().decode({ bootstrap: { certificateProviders: {} } }, { type_url: typeUrl, value: Buffer.from(bytes) }) as {
    error?: string;
  };
};

const R = 'reviews.default.svc.cluster.local';
const snap = buildSnapshot({
  services: [service('reviews')],
  pods: [
    pod('client-1', 'default', '10.0.0.9', { labels: { app: 'client' } }),
    pod('reviews-v1-x', 'default', '10.0.0.1', { labels: { app: 'reviews', version: 'v1' } }),
    pod('reviews-v2-x', 'default', '10.0.0.2', { labels: { app: 'reviews', version: 'v2' } }),
  ],
  configs: [
    istio('DestinationRule', 'reviews', 'default', {
      host: 'reviews',
      subsets: [
        { name: 'v1', labels: { version: 'v1' } },
        { name: 'v2', labels: { version: 'v2' }, trafficPolicy: { loadBalancer: { consistentHash: { httpHeaderName: 'x-user' } } } },
      ],
    }),
  ],
});
const view = buildProxyView(snap, snap.proxiesById.get('client-1.default')!, DEFAULT_OPTIONS);

describe('proxyless gRPC CDS (grpcgen/cds.go)', () => {
  it('sidecar clusters use LEAST_REQUEST, which grpc-js-xds rejects — the reason grpcgen exists', () => {
    const sidecar = buildClusters(view).clusters.find((c) => c.name === `outbound|9080||${R}`)!;
    expect(grpcDecode(ClusterResourceType, TYPE.cluster, sidecar.name!, sidecar).error).toMatch(/LEAST_REQUEST/);
  });

  it('builds the requested default and subset clusters as bare EDS clusters the real client accepts', () => {
    const cs = buildGrpcClusters(view, [`outbound|9080||${R}`, `outbound|9080|v2|${R}`, `outbound|9080|nope|${R}`]);
    expect(cs).toEqual([
      { name: `outbound|9080||${R}`, type: 'EDS', edsClusterConfig: { serviceName: `outbound|9080||${R}`, edsConfig: { ads: {} } } },
      {
        name: `outbound|9080|v2|${R}`,
        type: 'EDS',
        edsClusterConfig: { serviceName: `outbound|9080|v2|${R}`, edsConfig: { ads: {} } },
        lbPolicy: 'RING_HASH',
        ringHashLbConfig: { minimumRingSize: '1024' },
      },
    ]);
    for (const c of cs) expect(grpcDecode(ClusterResourceType, TYPE.cluster, c.name!, c).error).toBeUndefined();
  });

  it('without names, every outbound service port and subset', () => {
    expect(buildGrpcClusters(view).map((c) => c.name)).toEqual([`outbound|9080||${R}`, `outbound|9080|v1|${R}`, `outbound|9080|v2|${R}`]);
  });

  it('the EDS assignments for these clusters pass the real client validation (locality + weights present)', () => {
    const cls = buildEndpoints(view, buildGrpcClusters(view));
    expect(cls.map((c) => c.clusterName)).toEqual([`outbound|9080|v1|${R}`, `outbound|9080|v2|${R}`, `outbound|9080||${R}`]);
    for (const cla of cls) expect(grpcDecode(EndpointResourceType, TYPE.endpoint, cla.clusterName!, cla).error).toBeUndefined();
  });
});
