// A Listener encoded chain by chain: its filter chains are the bulk of its bytes and repeat across proxies (the
// blackhole and passthrough chains of every virtualInbound, the chains of a service's pods), so each chain's
// bytes are kept by content and the listener is assembled around them. Byte-identical to encoding the whole
// message: proto3 binary writes fields in field-number order (protobuf-es compileMessage: sortedFields), each
// field's bytes independent of the others, a repeated message field as one `tag, length, bytes` per element;
// so Listener = its fields numbered below filter_chains (3), then each chain, then the fields above it.
// listenerEncode.test.ts checks it against whole-message encoding on every golden listener.
import { fromJson, type JsonValue, toBinary } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { type EncodedResource, encodedFromBytes, encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { FilterChainSchema } from '../gen/envoy/config/listener/v3/listener_components_pb';
import { ListenerSchema } from '../gen/envoy/config/listener/v3/listener_pb';
import { envoyRegistry } from '../gen/registry';
import { concatBytes } from '../lib/bytes';
import type { SizedCache } from './cache';
import { contentKey } from './contentKey';

const FILTER_CHAINS = 3;

type Json = Record<string, unknown>;

const messageBytes = (schema: typeof ListenerSchema | typeof FilterChainSchema, json: Json): Uint8Array =>
  toBinary(schema, fromJson(schema, json as JsonValue, { registry: envoyRegistry }));

/**
 * A message's JSON without its repeated field `skip`, split into the fields numbered below it (`beforeKeys`) and
 * those above it: encoded apart and laid around the repeated field's elements, they give protobuf's field order.
 */
export function fieldsAround(json: Json, skip: string, beforeKeys: readonly string[]): [Json, Json] {
  const before: Json = {};
  const after: Json = {};
  for (const [k, v] of Object.entries(json)) {
    if (k === skip) continue;
    if (beforeKeys.includes(k)) before[k] = v;
    else after[k] = v;
  }
  return [before, after];
}

/**
 * Encodes a Listener (JSON as the translator emits it) with each filter chain's field bytes taken from
 * `chains` (by the chain's JSON) or encoded and kept there. Any part the generated registry cannot encode (an
 * EnvoyFilter's foreign Any) → the whole message through encodeResource, as before.
 */
export function encodeListener(name: string, json: Json, chains: SizedCache<Uint8Array>): EncodedResource {
  const list = json.filterChains;
  if (!Array.isArray(list) || list.length < 2 || 'filter_chains' in json) return encodeResource(TYPE.listener, name, json);
  try {
    // name (1) and address (2) precede filter_chains (3); every other Listener field is numbered above it.
    const [before, after] = fieldsAround(json, 'filterChains', ['name', 'address']);
    const parts: Uint8Array[] = [messageBytes(ListenerSchema, before)];
    for (const c of list as Json[]) {
      const key = contentKey(JSON.stringify(c));
      let b = chains.get(key);
      if (!b) {
        b = new BinaryWriter().tag(FILTER_CHAINS, WireType.LengthDelimited).bytes(messageBytes(FilterChainSchema, c)).finish();
        chains.set(key, b);
      }
      parts.push(b);
    }
    parts.push(messageBytes(ListenerSchema, after));
    return encodedFromBytes(TYPE.listener, name, concatBytes(parts));
  } catch {
    return encodeResource(TYPE.listener, name, json);
  }
}
