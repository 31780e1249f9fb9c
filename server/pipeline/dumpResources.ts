// A proxy's resources for a config dump that is printed and dropped (the CLI's `translate` and `simulate`, and
// configDumpFor without a cache): each resource's dump JSON made straight from the translator's JSON
// (envoy/dumpJson.ts), its bytes encoded only if something reads them. Same resources, same errors, same dump
// as proxyResources; a resource the fast path does not take is encoded as proxyResources encodes it.
import { encodeResource, type EncodedResource } from '../envoy/encode';
import { DumpJsonWriter, dumpFirstResource } from '../envoy/dumpJson';
import type { TypeUrl } from '../envoy/typeUrls';
import { envoyRegistry } from '../gen/registry';
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import { EncodeMemo, encodeTable, translateSafely } from './encodeTable';
import type { XdsGenerator } from './generators';
import { buildProxyTable } from './stages';
import type { ProxyResources } from './types';

/** EncodeMemo's interface, without its content cache: dump JSON first, bytes on demand. */
export class DumpFirstEncoder extends EncodeMemo {
  private readonly dumpWriter = new DumpJsonWriter(envoyRegistry);
  constructor() {
    super(0);
  }
  /** The dump JSON is made from each resource's own JSON: no templates, so no `vary` to compute. */
  override get usesVary(): boolean {
    return false;
  }
  override encode(typeUrl: TypeUrl, name: string, json: unknown, wire?: XdsGenerator['wire']): EncodedResource {
    // The WDS types have their own direct writer (and are not in a config dump).
    if (wire) return super.encode(typeUrl, name, json, wire);
    const dump = this.dumpWriter.resource(typeUrl.slice(typeUrl.lastIndexOf('/') + 1), json);
    return dump ? dumpFirstResource(typeUrl, name, json, dump) : encodeResource(typeUrl, name, json);
  }
}

/** undefined when the snapshot has no proxy with that id. Never throws. */
export function dumpResources(snapshot: MeshSnapshot, proxyId: string, options: TranslateOptions): ProxyResources | undefined {
  const proxy = snapshot.proxiesById.get(proxyId);
  if (!proxy) return undefined;
  const table = translateSafely(proxy, () => buildProxyTable(snapshot, proxy, options));
  return encodeTable(proxy, snapshot.version, table, new DumpFirstEncoder());
}
