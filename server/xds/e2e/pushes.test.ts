// The store → ADS push path on the wire, with meshscope's raw test client (real gRPC on loopback) against
// the real generator and AdsServer wired as the runtime wires them (connectStoreToAds). Inputs: Istio's
// Bookinfo manifests, loaded from the shared fixtures as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary } from '@bufbuild/protobuf';
import { TYPE } from '../../envoy/typeUrls';
import { ListenerSchema } from '../../gen/envoy/config/listener/v3/listener_pb';
import { DEFAULT_OPTIONS } from '../../model/mesh';
import { createAdsGenerator } from '../../pipeline/adsGenerator';
import { connectStoreToAds } from '../../impact/changes';
import { loadPaths } from '../../sources/file/loadPaths';
import { Store } from '../../sources/store';
import { bookinfo } from '../../testing/paths';
import { AdsServer } from '../server';
import { AdsTestClient, namesOf, type SotwTestStream } from '../testing/adsTestClient';
import { waitFor } from '../testing/echo';
import type { DiscoveryResponse } from '../../gen/envoy/service/discovery/v3/discovery_pb';
import { rawInputs } from './reviewsMesh';

const REVIEWS = 'reviews.default.svc.cluster.local';
const inputs = (...files: string[]) => loadPaths(files.map((f) => bookinfo(...f.split('/')))).inputs;

let store: Store;
let ads: AdsServer;
let client: AdsTestClient;
let unwire: () => void;
const logs: string[] = [];

beforeAll(async () => {
  store = new Store({ debounceMs: 1 });
  store.replace('platform', inputs('platform/bookinfo.yaml', 'networking/destination-rule-all.yaml'));
  store.replace('vs', inputs('networking/virtual-service-reviews-80-20.yaml'));
  store.flush();
  ads = new AdsServer({
    generator: createAdsGenerator(() => store.snapshot(), DEFAULT_OPTIONS),
    log: (l) => logs.push(l),
    debounceMs: 5,
    maxDebounceMs: 200,
  });
  unwire = connectStoreToAds(store, ads);
  client = new AdsTestClient(await ads.start(0, '127.0.0.1'));
});

afterAll(async () => {
  unwire?.();
  client?.close();
  await ads?.stop();
  store?.close();
});

/** A gRPC-style client (no GENERATOR metadata) that walks LDS → RDS → CDS → EDS for `host` by name, ACKing each. */
async function grpcStyle(podNs: string, host: string): Promise<SotwTestStream> {
  const ns = podNs.slice(podNs.indexOf('.') + 1);
  const s = client.sotw({ id: `sidecar~10.1.0.7~${podNs}~${ns}.svc.cluster.local`, metadata: { NAMESPACE: ns } });
  const steps: Array<[string, string[]]> = [
    [TYPE.listener, [`${host}:9080`]],
    [TYPE.route, [`outbound|9080||${host}`]],
    [TYPE.cluster, [`outbound|9080||${host}`]],
    [TYPE.endpoint, [`outbound|9080||${host}`]],
  ];
  for (const [typeUrl, names] of steps) {
    const r = await s.request({ typeUrl, resourceNames: names });
    expect(namesOf(r)).toEqual(names);
    s.ack(r);
  }
  return s;
}

/** Nothing more arrives within `ms`. */
async function quiet(s: SotwTestStream, ms = 150): Promise<void> {
  await ads.flush();
  await new Promise((r) => setTimeout(r, ms));
  expect(s.buffered).toBe(0);
}

describe('client flavour and identity', () => {
  it('a client asking LDS for host:port names is served as proxyless gRPC (grpcgen API listener) without GENERATOR metadata', async () => {
    const s = client.sotw({ id: 'sidecar~10.1.0.8~plain-grpc.default~default.svc.cluster.local', metadata: { NAMESPACE: 'default' } });
    const r = await s.request({ typeUrl: TYPE.listener, resourceNames: [`${REVIEWS}:9080`, 'reviews:9080'] });
    expect(namesOf(r)).toEqual([`${REVIEWS}:9080`, 'reviews:9080']);
    const l = fromBinary(ListenerSchema, r.resources[0]!.value);
    expect(l.apiListener?.apiListener?.typeUrl).toBe(
      'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
    );
    await waitFor(
      () => ads.connections().some((c) => c.client.proxyId === 'plain-grpc.default' && c.client.flavour === 'grpc'),
      'flavour grpc',
    );
    s.cancel();
  });

  it('an Envoy sidecar of the registry (node id POD.NS) with wildcard LDS gets the sidecar listeners', async () => {
    const pp = store.snapshot().proxies.find((p) => p.labels.app === 'productpage')!;
    const s = client.sotw({ id: `sidecar~${pp.ips[0]}~${pp.id}~default.svc.cluster.local` });
    const names = namesOf(await s.request({ typeUrl: TYPE.listener }));
    expect(names).toContain('0.0.0.0_9080');
    expect(names).toContain('virtualOutbound');
    s.cancel();
  });

  it('an Envoy the registry does not know still gets config from its node metadata (NAMESPACE)', async () => {
    const s = client.sotw({ id: 'sidecar~10.7.7.7~vm-1.default~default.svc.cluster.local', metadata: { NAMESPACE: 'default' } });
    const names = namesOf(await s.request({ typeUrl: TYPE.cluster }));
    expect(names).toContain(`outbound|9080|v1|${REVIEWS}`);
    s.cancel();
  });
});

describe('pushes', () => {
  it('a VirtualService change reaches only the clients whose resources it changes, and only the changed type', async () => {
    // exportTo "." keeps the VirtualService private to namespace default (istio-translation.md: exportTo):
    // the same route config (outbound|9080||reviews…) differs for a client in namespace "other".
    const privateVs = (w1: number, w2: number) => `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: default}
spec:
  hosts: [reviews]
  exportTo: ["."]
  http:
  - route:
    - {destination: {host: reviews, subset: v1}, weight: ${w1}}
    - {destination: {host: reviews, subset: v2}, weight: ${w2}}
`;
    store.replace('vs', rawInputs(privateVs(80, 20), 'vs.yaml'));
    store.flush();
    await ads.flush();
    const a = await grpcStyle('grpc-a.default', REVIEWS);
    const b = await grpcStyle('grpc-b.other', REVIEWS);
    store.replace('vs', rawInputs(privateVs(50, 50), 'vs.yaml'));
    store.flush();
    const r: DiscoveryResponse = await a.next();
    expect(r.typeUrl).toBe(TYPE.route);
    expect(r.versionInfo).toBe(String(store.snapshot().version));
    a.ack(r);
    await quiet(a);
    await quiet(b); // the private VirtualService is not visible from namespace "other": b is sent nothing
    a.cancel();
    b.cancel();
  });

  it('an endpoint-only change (EndpointSlice) pushes EDS only', async () => {
    const a = await grpcStyle('grpc-c.default', REVIEWS);
    const slice = `
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: reviews-extra, namespace: default, labels: {kubernetes.io/service-name: reviews}}
addressType: IPv4
ports: [{name: http, port: 9080, protocol: TCP}]
endpoints: [{addresses: [10.9.9.9], conditions: {ready: true}}]
`;
    store.upsert('vs', rawInputs(slice, 'slice.yaml')[0]!);
    store.flush();
    const r = await a.next();
    expect(r.typeUrl).toBe(TYPE.endpoint);
    a.ack(r);
    await quiet(a);
    a.cancel();
  });
});
