// An encoded resource's canonical proto3 JSON (lowerCamelCase names, enums by name, defaults left out): what
// `meshscope ztunnel-config -o json` and GET /api/ztunnel build their elements from.
import { fromBinary, type JsonValue, toJson } from '@bufbuild/protobuf';
import { envoyRegistry } from '../gen/registry';
import type { EncodedResource } from './encode';

/** The message of `r` as proto3 JSON, read back from its bytes (the same message the wire carries). */
export function protoJson(r: Pick<EncodedResource, 'typeUrl' | 'bytes'>, message?: string): JsonValue {
  const name = message ?? r.typeUrl.slice(r.typeUrl.lastIndexOf('/') + 1);
  const desc = envoyRegistry.getMessage(name);
  if (!desc) throw new Error(`protoJson: ${name} is not in the generated registry`);
  return toJson(desc, fromBinary(desc, r.bytes), { registry: envoyRegistry });
}
