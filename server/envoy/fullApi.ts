// The whole v3 Envoy API shipped by @grpc/grpc-js-xds (scripts/gen-proto.mjs: envoyApiDescriptor.ts), as one
// protobuf-es registry beside the generated one. EnvoyFilter patch values are decoded against it (a Lua, rate
// limit or ext_proc config the translator never emits still decodes), and the encoder falls back to it for an
// Any whose type the generated registry lacks. Built on first use (parsing ~0.5 MB of descriptors) and then
// reused: a memoised constant, not mutable state.
import { createFileRegistry, createRegistry, fromBinary, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { ENVOY_API_DESCRIPTOR_SET } from '../gen/envoyApiDescriptor';
import { envoyRegistry } from '../gen/registry';

let memo: Registry | undefined;

/** The generated registry first (its descriptors are the ones the translator's types use), then the full API. */
export function fullEnvoyRegistry(): Registry {
  if (!memo) {
    const set = fromBinary(FileDescriptorSetSchema, Buffer.from(ENVOY_API_DESCRIPTOR_SET, 'base64'));
    memo = createRegistry(createFileRegistry(set), envoyRegistry);
  }
  return memo;
}
