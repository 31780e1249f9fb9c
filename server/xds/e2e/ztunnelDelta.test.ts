// Acceptance (issue #20 §2): a raw Delta ADS client opening the stream as ztunnel does (node id
// `ztunnel~IP~POD.NS~NS.svc.cluster.local`, a wildcard subscription to istio.workload.Address and
// istio.security.Authorization: an initial DeltaDiscoveryRequest without names, istiod IsWildcardTypeURL) over real
// gRPC on loopback, against the store → xDS plane the runtime serves. It gets every Workload and Service, then
// exactly one Address when a pod's IP changes (istiod pilot/pkg/xds/workload.go: a pod event pushes the Address of
// that workload only), and that workload's name in removed_resources when the pod is deleted (delta.go).
import { fromBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE } from '../../envoy/typeUrls';
import type { DeltaDiscoveryResponse } from '../../gen/envoy/service/discovery/v3/discovery_pb';
import { AddressSchema } from '../../gen/istio/workload/workload_pb';
import { createXdsPlane, type XdsPlane } from '../../impact/xdsPlane';
import { loadPaths } from '../../sources/file/loadPaths';
import { Store } from '../../sources/store';
import { ipText } from '../../translate/ztunnel/ip';
import { AdsTestClient, type DeltaTestStream } from '../testing/adsTestClient';
import { fileURLToPath } from 'node:url';

const MESH = fileURLToPath(new URL('../../translate/ztunnel/testdata/ambient.yaml', import.meta.url));
const ZTUNNEL = {
  id: 'ztunnel~10.244.1.2~ztunnel-7xk2p.istio-system~istio-system.svc.cluster.local',
  metadata: { NAMESPACE: 'istio-system' },
};
const REVIEWS_V1 = 'Kubernetes//Pod/shop/reviews-v1-6c8d9-fghij';

let store: Store;
let plane: XdsPlane;
let client: AdsTestClient;
const inputs = loadPaths([MESH]).inputs;

beforeAll(async () => {
  store = new Store({ debounceMs: 1 });
  store.setAmbient(true);
  store.replace('files', inputs);
  store.flush();
  plane = createXdsPlane(store, undefined, { ads: { debounceMs: 5, maxDebounceMs: 200 } });
  client = new AdsTestClient(await plane.ads.start(0, '127.0.0.1'));
});

afterAll(async () => {
  client?.close();
  await plane?.close();
  store?.close();
});

const names = (r: DeltaDiscoveryResponse) => r.resources.map((x) => x.name).sort();

/** Waits until the store's change was pushed, then for the next response. */
async function nextAfterChange(s: DeltaTestStream): Promise<DeltaDiscoveryResponse> {
  store.flush();
  return s.next(10_000);
}

describe('ztunnel over Delta ADS', () => {
  let s: DeltaTestStream;
  it('a wildcard subscription to Address gets every Workload and every Service', async () => {
    s = client.delta(ZTUNNEL);
    const r = await s.request({ typeUrl: TYPE.address });
    expect(r.typeUrl).toBe(TYPE.address);
    // Every pod with an IP is a Workload (podWorkloadBuilder); every Kubernetes Service a Service (serviceServiceBuilder).
    expect(names(r)).toEqual(
      [
        'Kubernetes//Pod/legacy/legacy-app',
        'Kubernetes//Pod/shop/productpage-v1-7d4f8-abcde',
        REVIEWS_V1,
        'Kubernetes//Pod/shop/reviews-v2-9f1e2-klmno',
        'Kubernetes//Pod/shop/waypoint-5b7c9-xk2pq',
        'shop/productpage.shop.svc.cluster.local',
        'shop/reviews.shop.svc.cluster.local',
        'shop/waypoint.shop.svc.cluster.local',
      ].sort(),
    );
    expect(r.removedResources).toEqual([]);
    const reviews = r.resources.find((x) => x.name === 'shop/reviews.shop.svc.cluster.local')!;
    const addr = fromBinary(AddressSchema, reviews.resource!.value);
    expect(addr.type.case).toBe('service');
    if (addr.type.case === 'service') {
      // Bound to the waypoint by istio.io/use-waypoint on the Service (fetchWaypointForService).
      expect(addr.type.value.waypoint?.destination.case).toBe('hostname');
      expect(addr.type.value.waypoint?.hboneMtlsPort).toBe(15008);
    }
    s.ack(r);
    const pol = await s.request({ typeUrl: TYPE.authorization });
    expect(names(pol)).toEqual([
      'istio-system/allow-nothing-global',
      'istio-system/istio_converted_static_strict',
      'shop/deny-paths',
      'shop/reviews-viewer',
    ]);
    s.ack(pol);
  });

  it("a pod's IP change is pushed as exactly one Address: that workload's", async () => {
    const pod = inputs.find((i) => i.object.kind === 'Pod' && (i.object.metadata as { name: string }).name === 'reviews-v1-6c8d9-fghij')!;
    const moved = structuredClone(pod.object) as Record<string, unknown> & { status: { podIP: string } };
    moved.status.podIP = '10.244.2.99';
    store.upsert('files', { ...pod, object: moved });
    const r = await nextAfterChange(s);
    expect(r.typeUrl).toBe(TYPE.address);
    expect(names(r)).toEqual([REVIEWS_V1]);
    expect(r.removedResources).toEqual([]);
    const addr = fromBinary(AddressSchema, r.resources[0]!.resource!.value);
    expect(addr.type.case === 'workload' ? addr.type.value.addresses.map(ipText) : []).toEqual(['10.244.2.99']);
    s.ack(r);
    // Nothing else: no second Address response, no Authorization response (its resources did not change).
    await plane.ads.flush();
    expect(s.buffered).toBe(0);
  });

  it('a deleted pod is a removed_resources entry and nothing else', async () => {
    store.remove('files', { apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'reviews-v1-6c8d9-fghij' });
    const r = await nextAfterChange(s);
    expect(r.typeUrl).toBe(TYPE.address);
    expect(r.resources).toEqual([]);
    expect(r.removedResources).toEqual([REVIEWS_V1]);
    s.ack(r);
  });

  it('on-demand names: a non-wildcard client gets only the names it subscribes, and a removed_resources entry for an unknown one', async () => {
    const d = client.delta({ ...ZTUNNEL, id: ZTUNNEL.id.replace('ztunnel-7xk2p', 'ztunnel-9q8w7') });
    const r = await d.request({
      typeUrl: TYPE.address,
      subscribe: ['shop/productpage.shop.svc.cluster.local', 'Kubernetes//Pod/shop/nope'],
    });
    expect(names(r)).toEqual(['shop/productpage.shop.svc.cluster.local']);
    expect(r.removedResources).toEqual(['Kubernetes//Pod/shop/nope']);
    d.cancel();
  });
});
