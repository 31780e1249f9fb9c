// The xDS generator registry (istiod's shape: pilot/pkg/xds/discovery.go `Generators`, one generator per type
// URL). A proxy's translator (server/translate TRANSLATORS, chosen by its kind: server/model/proxyKinds.ts)
// builds its ResourceTable once; each type URL's generator serves its list of that table. Which types a
// client is sent is its kind's `typeUrls`: never a branch on `proxy.type` here.
import type { EncodedResource } from '../envoy/encode';
import { TYPE, type TypeUrl } from '../envoy/typeUrls';
import type { ProxyModel } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import type { AddressJson, ResourceTable } from '../translate/types';
import type { WireWriter } from '../translate/ztunnel/wire';

/** The lists of a ResourceTable (and of ProxyResources) that hold served resources. */
export type ResourceListKey = 'listeners' | 'routes' | 'clusters' | 'endpoints' | 'addresses' | 'authorizations';

export interface XdsGenerator {
  typeUrl: TypeUrl;
  /** The table list it serves. */
  list: ResourceListKey;
  /** The resource's message name, for located encoder errors. */
  kind: string;
  /** The resource name on the wire (istiod's Resource.name). */
  nameOf(item: unknown): string | undefined;
  /**
   * A direct binary writer for the type's JSON, byte-identical to protobuf-es (translate/ztunnel/wire.ts);
   * `undefined` from it means "encode with protobuf-es". Only the WDS types have one.
   */
  wire?(w: WireWriter, item: unknown): Uint8Array | undefined;
}

/**
 * istiod's ztunnel resource names (pilot/pkg/serviceregistry/ambient: WorkloadInfo.ResourceName = the workload
 * UID; ServiceInfo.ResourceName = `namespace/hostname`).
 */
export function addressName(a: AddressJson): string {
  return 'workload' in a ? a.workload.uid : `${a.service.namespace}/${a.service.hostname}`;
}

const named = (item: unknown) => (item as { name?: string }).name;

/** Every generator, in table order (push order is the xDS server's: model/xdsTypes.ts XDS_TYPES). */
export const GENERATORS: readonly XdsGenerator[] = [
  { typeUrl: TYPE.listener, list: 'listeners', kind: 'Listener', nameOf: named },
  { typeUrl: TYPE.route, list: 'routes', kind: 'RouteConfiguration', nameOf: named },
  { typeUrl: TYPE.cluster, list: 'clusters', kind: 'Cluster', nameOf: named },
  { typeUrl: TYPE.endpoint, list: 'endpoints', kind: 'ClusterLoadAssignment', nameOf: (e) => (e as { clusterName?: string }).clusterName },
  {
    typeUrl: TYPE.address,
    list: 'addresses',
    kind: 'Address',
    nameOf: (a) => addressName(a as AddressJson),
    wire: (w, a) => w.address(a),
  },
  {
    typeUrl: TYPE.authorization,
    list: 'authorizations',
    kind: 'Authorization',
    nameOf: (p) => `${(p as { namespace: string }).namespace}/${(p as { name: string }).name}`,
    wire: (w, p) => w.authorization(p),
  },
];

const BY_TYPE: ReadonlyMap<string, XdsGenerator> = new Map(GENERATORS.map((g) => [g.typeUrl, g]));

export const generatorFor = (typeUrl: string): XdsGenerator | undefined => BY_TYPE.get(typeUrl);

/** The generators serving `proxy` (its kind's types, in the kind's order). */
export function generatorsOf(proxy: Pick<ProxyModel, 'type'>): XdsGenerator[] {
  const out: XdsGenerator[] = [];
  for (const t of proxyKind(proxy).typeUrls) {
    const g = BY_TYPE.get(t);
    if (g) out.push(g);
  }
  return out;
}

/** A table's items for one generator (absent lists are empty). */
export const tableList = (table: ResourceTable, g: XdsGenerator): readonly unknown[] => table[g.list] ?? [];

/** Every encoded resource of a ProxyResources, by generator (table order). */
export function* encodedOf(r: { readonly [K in ResourceListKey]?: readonly EncodedResource[] }): Iterable<EncodedResource> {
  for (const g of GENERATORS) for (const e of r[g.list] ?? []) yield e;
}
