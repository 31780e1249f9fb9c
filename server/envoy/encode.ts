// Encoding of translator output: typed proto3 JSON (camelCase, as the generated *Json types)
// → protobuf message → (a) wire bytes for xDS and (b) Envoy-style JSON (snake_case, "@type" first)
// for config_dump, the UI and the simulator. Each resource is encoded once per content. The Envoy JSON is
// only needed by config_dump readers, not on the xDS wire: it is decoded from the bytes on first read.
import { hash as oneShotHash } from 'node:crypto';
import { fromBinary, fromJson, toBinary, toJson, type DescMessage, type JsonValue } from '@bufbuild/protobuf';
import { envoyRegistry } from '../gen/registry';
import { fullEnvoyRegistry } from './fullApi';
import type { TypeUrl } from './typeUrls';

/** A resource as Envoy sees it: its proto JSON with snake_case field names ("@type" on Anys). */
export type EnvoyJson = { [k: string]: JsonValue };

export interface EncodedResource {
  typeUrl: TypeUrl;
  name: string;
  /** Serialized message (the `value` of the Any on the wire). */
  bytes: Uint8Array;
  /** Envoy-style JSON of the resource, without the outer "@type" (computed from `bytes` on first read, then kept). */
  readonly json: EnvoyJson;
  /** sha256 of bytes, hex: a content version usable as a per-resource version. */
  hash: string;
}

function schemaFor(typeUrl: string): DescMessage {
  const name = typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
  const desc = envoyRegistry.getMessage(name);
  if (!desc) throw new Error(`encode: ${name} is not in the generated registry (add its .proto to scripts/gen-proto.mjs)`);
  return desc;
}

/** Recursively moves "@type" to the front of every object, as Envoy prints it. */
export function typeFirst(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(typeFirst);
  if (v === null || typeof v !== 'object') return v;
  const out: { [k: string]: JsonValue } = {};
  if ('@type' in v) out['@type'] = v['@type'] as JsonValue;
  for (const [k, val] of Object.entries(v)) if (k !== '@type') out[k] = typeFirst(val as JsonValue);
  return out;
}

/**
 * Encodes one resource given as proto3 JSON (either field-name style). Throws with the resource name
 * and protobuf-es' message when the JSON does not fit the schema: that is a translator bug.
 */
export function encodeResource(typeUrl: TypeUrl, name: string, json: unknown): EncodedResource {
  const schema = schemaFor(typeUrl);
  let msg;
  try {
    msg = fromJson(schema, json as JsonValue, { registry: envoyRegistry });
  } catch (e) {
    // An Any of a type the translator never emits (an EnvoyFilter's Lua or rate limit config): the full API.
    try {
      msg = fromJson(schema, json as JsonValue, { registry: fullEnvoyRegistry() });
    } catch {
      throw new Error(`encode ${schema.typeName} "${name}": ${(e as Error).message}`);
    }
  }
  const bytes = toBinary(schema, msg);
  return encodedFromBytes(typeUrl, name, bytes);
}

/**
 * An EncodedResource of already serialized bytes. `json` is a lazy, memoised property: the ADS path reads
 * only bytes and hash, so the proto → JSON conversion (as costly as parsing) runs only for config_dump readers.
 * Decoding the bytes gives the same message as the one they were written from (proto3 binary round trip), so
 * the JSON is the same as converting that message directly (encode.test.ts checks it on every golden).
 */
export function encodedFromBytes(typeUrl: TypeUrl, name: string, bytes: Uint8Array): EncodedResource {
  let json: EnvoyJson | undefined;
  return {
    typeUrl,
    name,
    bytes,
    get json(): EnvoyJson {
      if (json === undefined) {
        const schema = schemaFor(typeUrl);
        const msg = fromBinary(schema, bytes);
        let out: JsonValue;
        try {
          out = toJson(schema, msg, { registry: envoyRegistry, useProtoFieldName: true });
        } catch {
          out = toJson(schema, msg, { registry: fullEnvoyRegistry(), useProtoFieldName: true });
        }
        json = typeFirst(out) as EnvoyJson;
      }
      return json;
    },
    // crypto.hash: the one-shot form of createHash().update().digest(), the same hex, a third of the cost.
    hash: oneShotHash('sha256', bytes, 'hex'),
  };
}

/** Decodes Envoy-style JSON of any registered message into canonical Envoy JSON (validating it). */
export function canonicalJson(typeUrl: string, json: unknown): EnvoyJson {
  const schema = schemaFor(typeUrl);
  const msg = fromJson(schema, json as JsonValue, { registry: envoyRegistry });
  return typeFirst(toJson(schema, msg, { registry: envoyRegistry, useProtoFieldName: true })) as EnvoyJson;
}
