// Connects the ADS server to the pipeline: a connecting client → its proxy in the current snapshot
// (by `POD.NS` from the node id, else by IP) → the encoded resources for that proxy.
import type { EncodedResource } from '../envoy/encode';
import { TYPE, type TypeUrl } from '../envoy/typeUrls';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import type { AdsGenerator, ClientInfo, ResourceSet } from '../xds/types';
import { proxyResources, type ResourceCache } from './proxyResources';

/** DESIGN.md §3 proxy identity: node id `POD.NS` first, then the IPs the client reports. */
export function proxyForClient(snapshot: MeshSnapshot, client: Pick<ClientInfo, 'proxyId' | 'ips'>): ProxyModel | undefined {
  const byId = snapshot.proxiesById.get(client.proxyId);
  if (byId) return byId;
  if (client.ips.length === 0) return undefined;
  const ips = new Set(client.ips);
  return snapshot.proxies.find((p) => p.ips.some((ip) => ips.has(ip)));
}

const byName = (list: readonly EncodedResource[]): Map<string, EncodedResource> => new Map(list.map((r) => [r.name, r]));

export function createAdsGenerator(snapshot: () => MeshSnapshot, options: TranslateOptions, cache?: ResourceCache): AdsGenerator {
  return {
    generate(client: ClientInfo): ResourceSet | undefined {
      const snap = snapshot();
      const proxy = proxyForClient(snap, client);
      if (!proxy) return undefined;
      const r = proxyResources(snap, proxy.id, options, cache);
      if (!r) return undefined;
      const byType = new Map<TypeUrl, Map<string, EncodedResource>>([
        [TYPE.listener, byName(r.listeners)],
        [TYPE.route, byName(r.routes)],
        [TYPE.cluster, byName(r.clusters)],
        [TYPE.endpoint, byName(r.endpoints)],
      ]);
      return { version: String(snap.version), byType };
    },
  };
}
