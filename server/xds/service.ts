// The AggregatedDiscoveryService as a @grpc/grpc-js service definition with protobuf-es (de)serializers.
// Server side: requests are decoded by protobuf-es; responses are already wire bytes (see wire.ts).
// Client side (tests, demo clients): requests encoded by protobuf-es, responses decoded by protobuf-es.
import type * as grpc from '@grpc/grpc-js';
import { fromBinary, toBinary, type Message } from '@bufbuild/protobuf';
import type { GenMessage } from '@bufbuild/protobuf/codegenv2';
import {
  DeltaDiscoveryRequestSchema,
  DeltaDiscoveryResponseSchema,
  DiscoveryRequestSchema,
  DiscoveryResponseSchema,
} from '../gen/envoy/service/discovery/v3/discovery_pb';

export const ADS_SERVICE = 'envoy.service.discovery.v3.AggregatedDiscoveryService';
export const SOTW_PATH = `/${ADS_SERVICE}/StreamAggregatedResources`;
export const DELTA_PATH = `/${ADS_SERVICE}/DeltaAggregatedResources`;

/** A Uint8Array as a Buffer without copying (grpc-js serializers must return a Buffer). */
export const asBuffer = (u8: Uint8Array): Buffer => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);

/** One bidi-streaming ADS method: requests encoded/decoded by protobuf-es, responses as `respond` says. */
function method<Req extends Message, Res>(
  path: string,
  request: GenMessage<Req>,
  respond: { serialize: (m: Res) => Buffer; deserialize: (b: Buffer) => Res },
) {
  return {
    path,
    requestStream: true,
    responseStream: true,
    requestSerialize: (m: Req) => asBuffer(toBinary(request, m)),
    requestDeserialize: (b: Buffer) => fromBinary(request, b),
    responseSerialize: respond.serialize,
    responseDeserialize: respond.deserialize,
  } as const;
}

/** Responses that are already wire bytes (the server assembles them from cached Any bytes). */
const preEncoded = { serialize: (b: Uint8Array): Buffer => asBuffer(b), deserialize: (b: Buffer): Uint8Array => b };

/** Responses encoded/decoded by protobuf-es. */
const typed = <Res extends Message>(schema: GenMessage<Res>) => ({
  serialize: (m: Res) => asBuffer(toBinary(schema, m)),
  deserialize: (b: Buffer) => fromBinary(schema, b),
});

/** Server-side definition: typed requests in, pre-encoded response bytes out. */
export const adsServerDefinition = {
  StreamAggregatedResources: method(SOTW_PATH, DiscoveryRequestSchema, preEncoded),
  DeltaAggregatedResources: method(DELTA_PATH, DeltaDiscoveryRequestSchema, preEncoded),
} satisfies grpc.ServiceDefinition;

/** Client-side definition: typed requests and typed responses. */
export const adsClientDefinition = {
  StreamAggregatedResources: method(SOTW_PATH, DiscoveryRequestSchema, typed(DiscoveryResponseSchema)),
  DeltaAggregatedResources: method(DELTA_PATH, DeltaDiscoveryRequestSchema, typed(DeltaDiscoveryResponseSchema)),
} satisfies grpc.ServiceDefinition;
