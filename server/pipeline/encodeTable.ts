// A translated ResourceTable → encoded Envoy resources, shared by proxyResources (config_dump, API, CLI)
// and the ADS generator. Never throws: a translator exception or a resource the encoder rejects (a
// translator bug) becomes a located error, shown rather than crashing the caller.
import { encodedFromBytes, encodeResource, type EncodedResource } from '../envoy/encode';
import { TYPE, type TypeUrl } from '../envoy/typeUrls';
import type { LoadError, ProxyModel } from '../model/mesh';
import type { ResourceTable } from '../translate/types';
import { createSizedCache, type SizedCache } from './cache';
import { contentKey } from './contentKey';
import { applyTemplate, type EncodeTemplate, makeTemplate, varyKey, varyOrder } from './encodeTemplate';
import { parseClusterName } from '../translate/names';
import { uninitializedBytes } from '../lib/bytes';
import { WireWriter } from '../translate/ztunnel/wire';
import { GENERATORS, type ResourceListKey, tableList, type XdsGenerator } from './generators';
import { encodeListener } from './listenerEncode';
import { encodeRouteConfiguration, type RouteParts, routeTexts } from './routeEncode';
import type { ProxyResources } from './types';

/**
 * Encoded resources by content (type, name, JSON): proxies of the same shape share most resources, and
 * JSON.stringify is an order of magnitude cheaper than protobuf encoding. Bounded by an estimate of the
 * memory it holds (the JSON key, the bytes and the decoded JSON: about 4× the bytes); owned by one generator.
 */
export class EncodeMemo {
  private readonly cache: SizedCache<EncodedResource>;
  /** A listener's filter chains' field bytes by content (listenerEncode.ts): chains repeat across listeners. */
  private readonly chains: SizedCache<Uint8Array>;
  /** Templates by content with the varying names left out (encodeTemplate.ts; null: that content has none). */
  private readonly templates: SizedCache<EncodeTemplate | null>;
  /** A RouteConfiguration's virtual hosts' bytes and templates (routeEncode.ts), in the two caches above. */
  private readonly routeParts: RouteParts;
  /** Resources already looked at as a template (or written from one) with their `vary`. */
  private readonly sources = new WeakSet<EncodedResource>();
  /** Resources written from a template instead of encoded. */
  templated = 0;
  /** Of them, ClusterLoadAssignments (encodeTable.ts endpointVary). */
  templatedEndpoints = 0;
  /** Encoded Addresses by the identity of their JSON (weak: an entry lives as long as its translation). */
  private readonly addresses = new WeakMap<object, EncodedResource>();
  /** Whether `encode` writes from templates, i.e. reads its `vary` (an encoder that does not is spared computing it). */
  get usesVary(): boolean {
    return true;
  }
  constructor(maxBytes = 64 * 1024 * 1024) {
    this.cache = createSizedCache<EncodedResource>(maxBytes, (r, key) => 2 * key.length + 4 * r.bytes.length + 256);
    this.chains = createSizedCache<Uint8Array>(Math.max(256 * 1024, Math.floor(maxBytes / 4)), (b, key) => 2 * key.length + b.length + 64);
    this.templates = createSizedCache<EncodeTemplate | null>(
      Math.max(256 * 1024, Math.floor(maxBytes / 8)),
      (t, key) => 2 * key.length + 64 + (t ? t.bytes.length + 8 * t.offsets.flat().length : 0),
    );
    this.routeParts = { bytes: this.chains, templates: this.templates, templated: 0 };
  }
  /** Virtual hosts written from a template (routeEncode.ts). */
  get templatedVirtualHosts(): number {
    return this.routeParts.templated;
  }
  /** The WDS types' direct binary writer (translate/ztunnel/wire.ts) and its scratch buffer. */
  private writer: WireWriter | undefined;
  /**
   * `vary`: names this resource may have where another resource of the same shape has others of the same length
   * (encodeTemplate.ts varyOrder: a sidecar's Service hostnames, names, namespace): such resources are written from
   * the first one's bytes.
   */
  encode(typeUrl: TypeUrl, name: string, json: unknown, wire?: XdsGenerator['wire'], vary?: readonly string[]): EncodedResource {
    // An Address reused by the ztunnel memo (translate/ztunnel/memo.ts) is the same, never mutated object.
    const same = typeUrl === TYPE.address ? this.addresses.get(json as object) : undefined;
    if (same && same.name === name) return same;
    // A type with a direct writer: writing its bytes costs about what the content key's JSON.stringify would.
    const bytes = wire?.((this.writer ??= new WireWriter()), json);
    if (bytes) {
      const r = encodedFromBytes(typeUrl, name, bytes);
      if (typeUrl === TYPE.address) this.addresses.set(json as object, r);
      return r;
    }
    // A RouteConfiguration's virtual hosts are stringified once, for its key and for their own (routeEncode.ts).
    const hosts = typeUrl === TYPE.route && !vary ? routeTexts(json as Record<string, unknown>) : undefined;
    const text = hosts ? hosts.text : JSON.stringify(json);
    const key = `${typeUrl}\u0000${name}\u0000${contentKey(text)}`;
    const hit = this.cache.get(key);
    if (hit) {
      if (typeUrl === TYPE.address) this.addresses.set(json as object, hit);
      // Encoded without `vary` before (a scope's full translation): the template of its shape from now on.
      if (vary && !this.sources.has(hit)) this.template(typeUrl, text, vary, hit);
      return hit;
    }
    const vk = vary && typeUrl !== TYPE.address ? varyKey(text, vary) : undefined;
    const tkey = vk && `${typeUrl}\u0000${contentKey(vk.key)}`;
    const t = tkey ? this.templates.get(tkey) : undefined;
    let r: EncodedResource;
    if (t && vary) {
      r = encodedFromBytes(typeUrl, name, applyTemplate(t, vary, uninitializedBytes(t.bytes.length)));
      this.templated++;
      if (typeUrl === TYPE.endpoint) this.templatedEndpoints++;
    } else {
      r =
        typeUrl === TYPE.listener
          ? encodeListener(name, json as Record<string, unknown>, this.chains)
          : typeUrl === TYPE.route
            ? encodeRouteConfiguration(name, json as Record<string, unknown>, this.routeParts, hosts?.texts)
            : encodeResource(typeUrl, name, json);
      if (tkey && vk && vary && t === undefined) this.templates.set(tkey, makeTemplate(r.bytes, vary, vk.counts) ?? null);
    }
    if (vary) this.sources.add(r);
    this.cache.set(key, r);
    if (typeUrl === TYPE.address) this.addresses.set(json as object, r);
    return r;
  }
  /** Makes `r` (the encoding of `text`) the template of its shape unless that shape has one. */
  private template(typeUrl: TypeUrl, text: string, vary: readonly string[], r: EncodedResource): void {
    this.sources.add(r);
    const vk = typeUrl !== TYPE.address ? varyKey(text, vary) : undefined;
    if (!vk) return;
    const tkey = `${typeUrl}\u0000${contentKey(vk.key)}`;
    if (!this.templates.has(tkey)) this.templates.set(tkey, makeTemplate(r.bytes, vary, vk.counts) ?? null);
  }
  get size(): number {
    return this.cache.size;
  }
  /** Drops every entry whose resource is not in `live` (its translations are gone). */
  retainOnly(live: ReadonlySet<EncodedResource>): void {
    if (live.size === 0) {
      this.chains.clear();
      this.templates.clear();
    }
    for (const [key, r] of [...this.cache.entries()]) if (!live.has(r)) this.cache.delete(key);
  }
  /** Estimated bytes held. */
  get bytes(): number {
    return this.cache.total;
  }
}
function encodeAll(
  g: XdsGenerator,
  items: readonly unknown[],
  errors: LoadError[],
  memo: EncodeMemo | undefined,
  vary: readonly string[] | undefined,
): EncodedResource[] {
  const out: EncodedResource[] = [];
  const writer = g.wire && !memo ? new WireWriter() : undefined;
  items.forEach((item, i) => {
    const name = g.nameOf(item) ?? '';
    try {
      if (memo) out.push(memo.encode(g.typeUrl, name, item, g.wire, vary ?? (memo.usesVary ? typeVary(g.typeUrl, name, item) : undefined)));
      else {
        // The direct writer when it has one and knows every field; protobuf-es otherwise (and for its errors).
        const bytes = writer && g.wire?.(writer, item);
        out.push(bytes ? encodedFromBytes(g.typeUrl, name, bytes) : encodeResource(g.typeUrl, name, item));
      }
    } catch (e) {
      errors.push({
        severity: 'error',
        message: `internal: could not encode ${g.kind} "${name}": ${(e as Error).message}`,
        object: `${g.kind} ${name || `#${i}`}`,
      });
    }
  });
  return out;
}

/**
 * An outbound cluster's names that differ between the clusters of same-shaped services (encodeTemplate.ts): its
 * hostname and that hostname's first two labels (a Kubernetes Service's name and namespace). A scope's outbound
 * clusters (`outbound|port|subset|host`) then cost one encoding per shape, not one per service.
 */
function outboundVary(name: string): string[] | undefined {
  const c = parseClusterName(name);
  if (c?.direction !== 'outbound') return undefined;
  return varyOrder([c.hostname, ...c.hostname.split('.').slice(0, 2)]);
}

/** The parts of an LbEndpoint's JSON endpointVary reads (anything else, or another type, is left alone). */
interface LbEndpointJson {
  endpoint?: { address?: { socketAddress?: { address?: unknown } } };
  metadata?: { filterMetadata?: { istio?: { workload?: unknown } } };
}

/**
 * An outbound ClusterLoadAssignment's names that differ between the CLAs of same-shaped services: the cluster's
 * hostname and its first two labels (as outboundVary), each endpoint's IPv4 address and the pod name, namespace and
 * app of its `istio.workload` metadata (istiod `endpoints.go` buildIstioEndpoint: `name;namespace;app;version;cluster`).
 * A scope's first (full) translation then writes its ~150 CLAs from a few templates instead of encoding each.
 */
function endpointVary(name: string, item: unknown): string[] | undefined {
  const c = parseClusterName(name);
  if (c?.direction !== 'outbound') return undefined;
  const names = [c.hostname, ...c.hostname.split('.').slice(0, 2)];
  const localities = (item as { endpoints?: unknown }).endpoints;
  if (Array.isArray(localities))
    for (const l of localities as Array<{ lbEndpoints?: unknown }>) {
      if (!Array.isArray(l?.lbEndpoints)) continue;
      for (const e of l.lbEndpoints as LbEndpointJson[]) {
        const address = e?.endpoint?.address?.socketAddress?.address;
        if (typeof address === 'string') names.push(address);
        const workload = e?.metadata?.filterMetadata?.istio?.workload;
        if (typeof workload === 'string') names.push(...workload.split(';').slice(0, 3));
      }
    }
  return varyOrder(names);
}

/** What may differ between same-shaped resources of a full translation's type (encodeTemplate.ts). */
function typeVary(typeUrl: TypeUrl, name: string, item: unknown): string[] | undefined {
  if (typeUrl === TYPE.cluster) return outboundVary(name);
  if (typeUrl === TYPE.endpoint) return endpointVary(name, item);
  return undefined;
}

/** Runs a translator; one that throws (it must not) yields an empty table with the failure as its error. */
export function translateSafely(proxy: ProxyModel, build: () => ResourceTable): ResourceTable {
  try {
    return build();
  } catch (e) {
    const error: LoadError = {
      severity: 'error',
      message: `internal: translation failed: ${(e as Error).message}`,
      object: `Proxy ${proxy.id}`,
    };
    return { listeners: [], routes: [], clusters: [], endpoints: [], errors: [error], provenance: [] };
  }
}

/**
 * A translated table → encoded resources, one list per registered generator: the table's errors first, then any
 * encoder failures. `vary` (with a memo): EncodeMemo.encode's.
 */
export function encodeTable(
  proxy: ProxyModel,
  version: number,
  table: ResourceTable,
  memo?: EncodeMemo,
  vary?: readonly string[],
): ProxyResources {
  const errors: LoadError[] = [...table.errors];
  const out: ProxyResources = {
    proxy,
    version,
    listeners: [],
    routes: [],
    clusters: [],
    endpoints: [],
    errors,
    provenance: table.provenance,
  };
  if (table.envoyFilters) out.envoyFilters = table.envoyFilters;
  for (const g of GENERATORS) {
    const items = tableList(table, g);
    if (items.length > 0 || !OPTIONAL_LISTS.has(g.list)) out[g.list] = encodeAll(g, items, errors, memo, vary);
  }
  return out;
}

/** Lists only ztunnel kinds fill: left out of an Envoy proxy's resources (its shape as before the registry). */
const OPTIONAL_LISTS: ReadonlySet<ResourceListKey> = new Set(['addresses', 'authorizations']);
