// The bench clients' name reader (bench/issueClients.ts nameOf) against the full protobuf decode: Envoy's
// Cluster has `string name = 1` and ClusterLoadAssignment `string cluster_name = 1` (envoy/config/cluster/v3/
// cluster.proto, envoy/config/endpoint/v3/endpoint.proto); a message whose field 1 is not first is decoded whole.
import { create, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { TYPE } from '../server/envoy/typeUrls';
import { ClusterSchema } from '../server/gen/envoy/config/cluster/v3/cluster_pb';
import { ClusterLoadAssignmentSchema } from '../server/gen/envoy/config/endpoint/v3/endpoint_pb';
import { resourceName } from '../server/xds/testing/adsTestClient';
import { nameOf } from './issueClients';

describe('nameOf', () => {
  it('reads the name a full decode gives, for short and long (multi-byte length) names', () => {
    for (const name of ['outbound|8080|v1|svc-1.ns-1.svc.cluster.local', `x${'é'.repeat(200)}`]) {
      const any = { typeUrl: TYPE.cluster, value: toBinary(ClusterSchema, create(ClusterSchema, { name, altStatName: 'a' })) };
      expect(nameOf(any)).toBe(name);
      expect(nameOf(any)).toBe(resourceName(any));
    }
    const cla = {
      typeUrl: TYPE.endpoint,
      value: toBinary(ClusterLoadAssignmentSchema, create(ClusterLoadAssignmentSchema, { clusterName: 'c' })),
    };
    expect(nameOf(cla)).toBe('c');
  });

  it('falls back to the full decode when field 1 is not encoded first', () => {
    // alt_stat_name (field 28, wire type 2: tag 0xe2 0x01) before name (field 1).
    const value = new Uint8Array([0xe2, 0x01, 0x01, 0x61, 0x0a, 0x02, 0x6e, 0x6d]);
    expect(nameOf({ typeUrl: TYPE.cluster, value })).toBe('nm');
  });
});
