// Which registry proxy a connecting client is, over the wire, and what syncz says about it (issue 14
// item 7). istiod's rules (pilot/pkg/serviceregistry/kube/controller/pod.go getPodByProxy, util.go
// podKeyByProxy): by POD.NAMESPACE from the node id; by IP only with ENABLE_PROXY_FIND_POD_BY_IP (off by
// default since istio/istio#56502), then by the first IP only and, with several pods on it, the one in the
// proxy's namespace; else the proxy is built from the node metadata (GetProxyServiceTargetsFromMetadata).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE } from '../../envoy/typeUrls';
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../../model/mesh';
import { matchNode } from '../../model/proxyIdentity';
import { createAdsGenerator } from '../../pipeline/adsGenerator';
import { loadPaths } from '../../sources/file/loadPaths';
import { Store } from '../../sources/store';
import { bookinfo } from '../../testing/paths';
import { AdsServer } from '../server';
import { AdsTestClient, namesOf } from '../testing/adsTestClient';

let store: Store;
const servers: AdsServer[] = [];
const clients: AdsTestClient[] = [];
let productpage: ProxyModel;

async function serve(findPodByIp: boolean): Promise<{ ads: AdsServer; client: AdsTestClient }> {
  const ads = new AdsServer({ generator: createAdsGenerator(() => store.snapshot(), DEFAULT_OPTIONS, undefined, { findPodByIp }) });
  const client = new AdsTestClient(await ads.start(0, '127.0.0.1'));
  servers.push(ads);
  clients.push(client);
  return { ads, client };
}

beforeAll(() => {
  store = new Store({ debounceMs: 1 });
  store.replace('platform', loadPaths([bookinfo('platform', 'bookinfo.yaml')]).inputs);
  store.flush();
  productpage = store.snapshot().proxies.find((p) => p.name.startsWith('productpage'))!;
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of servers) await s.stop();
  store.close();
});

const node = (pod: string, ip: string) => ({
  id: `sidecar~${ip}~${pod}.default~default.svc.cluster.local`,
  metadata: { NAMESPACE: 'default' },
});

/** The LDS content a client gets: names and bytes. */
async function listeners(client: AdsTestClient, n: { id: string; metadata: { NAMESPACE: string } }): Promise<string[]> {
  const r = await client.sotw(n).request({ typeUrl: TYPE.listener });
  const names = namesOf(r);
  return r.resources.map((a, i) => `${names[i]} ${Buffer.from(a.value).toString('base64')}`).sort();
}

describe('proxy matching (istiod getPodByProxy)', () => {
  it('by node id: syncz matched_by "node id" and the proxy', async () => {
    const { ads, client } = await serve(false);
    await listeners(client, node(productpage.name, productpage.ips[0]!));
    expect(ads.syncz()[0]).toMatchObject({ proxy: productpage.id, matched_by: 'node id', matched_proxy: productpage.id });
  });

  it('an unknown pod name with a known IP is NOT matched by IP by default: config from the node metadata', async () => {
    const { ads, client } = await serve(false);
    const byMeta = await listeners(client, node('renamed-pod', productpage.ips[0]!));
    const byId = await listeners(client, node(productpage.name, productpage.ips[0]!));
    const sync = ads.syncz().find((s) => (s as { proxy: string }).proxy === 'renamed-pod.default') as Record<string, unknown>;
    expect(sync['matched_by']).toBe('node metadata');
    expect(sync['matched_proxy']).toBeUndefined();
    // Without its pod (labels, service targets) the inbound side differs from the pod's own config.
    expect(byMeta.map((l) => l.split(' ')[0])).toEqual(byId.map((l) => l.split(' ')[0]));
    expect(byMeta).not.toEqual(byId);
  });

  it('with findPodByIp (ENABLE_PROXY_FIND_POD_BY_IP) the first IP matches: same config as the pod, syncz says "ip"', async () => {
    const { ads, client } = await serve(true);
    const byIp = await listeners(client, node('renamed-pod', productpage.ips[0]!));
    const byId = await listeners(client, node(productpage.name, productpage.ips[0]!));
    expect(byIp).toEqual(byId);
    const sync = ads.syncz().find((s) => (s as { proxy: string }).proxy === 'renamed-pod.default');
    expect(sync).toMatchObject({ matched_by: 'ip', matched_proxy: productpage.id });
  });

  it('several proxies on one IP: the one in the client namespace, else none (istiod getPodByProxy)', () => {
    const mk = (name: string, namespace: string): ProxyModel => ({
      ...productpage,
      id: `${name}.${namespace}`,
      name,
      namespace,
      ips: ['10.1.1.1'],
    });
    const a = mk('a', 'ns1');
    const b = mk('b', 'ns2');
    const snap = { proxiesById: new Map([a, b].map((p) => [p.id, p])), proxies: [a, b] } as unknown as MeshSnapshot;
    const on = { findPodByIp: true };
    expect(matchNode(snap, { proxyId: 'x.ns2', ips: ['10.1.1.1'], namespace: 'ns2' }, on)).toEqual({ proxy: b, by: 'ip' });
    expect(matchNode(snap, { proxyId: 'x.ns3', ips: ['10.1.1.1'], namespace: 'ns3' }, on)).toBeUndefined();
    expect(matchNode(snap, { proxyId: 'x.ns2', ips: ['10.1.1.1'], namespace: 'ns2' })).toBeUndefined();
  });
});
