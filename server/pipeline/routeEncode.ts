// A RouteConfiguration encoded virtual host by virtual host. A sidecar scope's route configurations (~100 kB at
// issue 24's mesh, one virtual host per visible service and port) were encoded whole through protobuf-es on each
// scope's first translation: the largest encoding left in the first-config wave (docs/perf/issue24-sharing.md,
// session 10). Virtual hosts of same-shaped services differ only in the service's hostname, its first two labels
// (name, namespace: the short domains, the decorators, the VirtualService's config path, the `outbound|…|host`
// cluster names) and its ClusterIP (a domain): each virtual host's bytes are kept by content, and written from
// the template of its shape (encodeTemplate.ts, with the checks that make it exact) when one exists.
// Byte-identical to encoding the whole message, as listenerEncode.ts: proto3 binary writes fields in field-number
// order, a repeated message field as one `tag, length, bytes` per element; RouteConfiguration's name is field 1,
// virtual_hosts 2, every other field above (envoy/config/route/v3/route.proto). routeEncode.test.ts checks it on
// every golden route configuration and on same-shaped services written from templates.
import { fromJson, type JsonValue, toBinary } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { type EncodedResource, encodedFromBytes, encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { VirtualHostSchema } from '../gen/envoy/config/route/v3/route_components_pb';
import { RouteConfigurationSchema } from '../gen/envoy/config/route/v3/route_pb';
import { envoyRegistry } from '../gen/registry';
import { concatBytes } from '../lib/bytes';
import type { SizedCache } from './cache';
import { contentKey } from './contentKey';
import { fieldsAround } from './listenerEncode';
import { applyTemplate, type EncodeTemplate, makeTemplate, varyKey, varyOrder } from './encodeTemplate';

const VIRTUAL_HOSTS = 2;

type Json = Record<string, unknown>;

/** Where encodeRouteConfiguration keeps what it made: owned by the caller (EncodeMemo). */
export interface RouteParts {
  /** A virtual host's field bytes (tag, length, message) by its JSON's content key. */
  bytes: SizedCache<Uint8Array>;
  /** Templates of virtual-host field bytes by their shape (null: that shape has none). */
  templates: SizedCache<EncodeTemplate | null>;
  /** Counts virtual hosts written from a template. */
  templated: number;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * What may differ between the virtual hosts of same-shaped services: the host of the virtual host's name
 * (`host:port`, istiod route.BuildSidecarVirtualHostWrapper), that host's first two labels, and the IPv4 domains
 * (the ClusterIP). Undefined when none can be varied.
 */
export function virtualHostVary(vh: Json): string[] | undefined {
  const name = typeof vh.name === 'string' ? vh.name : '';
  const host = name.replace(/:\d+$/, '');
  const ips = Array.isArray(vh.domains) ? vh.domains.filter((d): d is string => typeof d === 'string' && IPV4.test(d)) : [];
  return varyOrder([host, ...host.split('.').slice(0, 2), ...ips]);
}

const field = (vh: Json): Uint8Array =>
  new BinaryWriter()
    .tag(VIRTUAL_HOSTS, WireType.LengthDelimited)
    .bytes(toBinary(VirtualHostSchema, fromJson(VirtualHostSchema, vh as JsonValue, { registry: envoyRegistry })))
    .finish();

/**
 * A RouteConfiguration's content text (EncodeMemo's key) made of its virtual hosts' JSON texts, which
 * encodeRouteConfiguration then reuses: the whole configuration was stringified for the key and each virtual host
 * again for its own (~450 kB and 250 virtual hosts twice per scope at issue 24's 5× mesh). The text is the JSON of
 * the other fields, then each virtual host's JSON, separated by U+0000, which JSON.stringify never writes raw (it
 * escapes control characters): equal texts, equal content. Undefined when encodeRouteConfiguration encodes the
 * message whole (then the caller stringifies it whole).
 */
export function routeTexts(json: Json): { text: string; texts: string[] } | undefined {
  const list = json.virtualHosts;
  if (!splitsHosts(json, list)) return undefined;
  const { virtualHosts: _, ...rest } = json;
  const texts = list.map((vh) => JSON.stringify(vh));
  return { text: `${JSON.stringify(rest)}\u0000${texts.join('\u0000')}`, texts };
}

/** Whether encodeRouteConfiguration encodes `json` host by host. */
const splitsHosts = (json: Json, list: unknown): list is Json[] => Array.isArray(list) && list.length >= 2 && !('virtual_hosts' in json);

/** One virtual host's field bytes: kept, written from its shape's template, or encoded (and made a template). */
function virtualHostBytes(vh: Json, parts: RouteParts, text = JSON.stringify(vh)): Uint8Array {
  const key = `vh\u0000${contentKey(text)}`;
  const kept = parts.bytes.get(key);
  if (kept) return kept;
  const vary = virtualHostVary(vh);
  const vk = vary && varyKey(text, vary);
  const tkey = vk && `vh\u0000${contentKey(vk.key)}`;
  const t = tkey ? parts.templates.get(tkey) : undefined;
  let b: Uint8Array;
  if (t && vary) {
    b = applyTemplate(t, vary, new Uint8Array(t.bytes.length));
    parts.templated++;
  } else {
    b = field(vh);
    if (tkey && vk && vary && t === undefined) parts.templates.set(tkey, makeTemplate(b, vary, vk.counts) ?? null);
  }
  parts.bytes.set(key, b);
  return b;
}

/**
 * Encodes a RouteConfiguration (JSON as the translator emits it) virtual host by virtual host (`parts`). Any part
 * the generated registry cannot encode (an EnvoyFilter's foreign Any) → the whole message through encodeResource.
 * `texts`: the virtual hosts' JSON texts when the caller made them (routeTexts).
 */
export function encodeRouteConfiguration(name: string, json: Json, parts: RouteParts, texts?: readonly string[]): EncodedResource {
  const list = json.virtualHosts;
  if (!splitsHosts(json, list)) return encodeResource(TYPE.route, name, json);
  try {
    // name (1) precedes virtual_hosts (2); every other RouteConfiguration field is numbered above it.
    const [before, after] = fieldsAround(json, 'virtualHosts', ['name']);
    const encode = (j: Json) =>
      toBinary(RouteConfigurationSchema, fromJson(RouteConfigurationSchema, j as JsonValue, { registry: envoyRegistry }));
    const all: Uint8Array[] = [encode(before)];
    list.forEach((vh, i) => all.push(virtualHostBytes(vh, parts, texts?.[i])));
    all.push(encode(after));
    return encodedFromBytes(TYPE.route, name, concatBytes(all));
  } catch {
    return encodeResource(TYPE.route, name, json);
  }
}
