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
import { DeltaRequestDecoder, SotwRequestDecoder } from './requestNames';
import { type WireMessage, WireScratch } from './wire';

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

/** What the server writes on a stream: wire bytes, or a response written into `scratch` as grpc-js frames it. */
export type ServerResponse = Uint8Array | WireMessage;

/**
 * Responses that are already wire bytes, or sized WireMessages written into one scratch buffer: grpc-js calls
 * serialize and copies its result into the frame it sends at once (server-interceptors serializeMessage), so the
 * scratch is free again when the next response is serialized (server/xds/scratch.test.ts pins this).
 */
const preEncoded = (scratch: WireScratch) => ({
  serialize: (m: ServerResponse): Buffer => asBuffer(m instanceof Uint8Array ? m : scratch.bytes(m)),
  deserialize: (b: Buffer): Uint8Array => b,
});

/** Responses encoded/decoded by protobuf-es. */
const typed = <Res extends Message>(schema: GenMessage<Res>) => ({
  serialize: (m: Res) => asBuffer(toBinary(schema, m)),
  deserialize: (b: Buffer) => fromBinary(schema, b),
});

/**
 * Server-side definition (one per server: its scratch buffer and the SotW resource_names lists it decoded last, see
 * requestNames.ts): typed requests in, pre-encoded responses out.
 */
export function adsServerDefinition() {
  const out = preEncoded(new WireScratch());
  const sotwRequests = new SotwRequestDecoder();
  const deltaRequests = new DeltaRequestDecoder();
  return {
    StreamAggregatedResources: {
      ...method(SOTW_PATH, DiscoveryRequestSchema, out),
      requestDeserialize: (b: Buffer) => sotwRequests.decode(b),
    },
    DeltaAggregatedResources: {
      ...method(DELTA_PATH, DeltaDiscoveryRequestSchema, out),
      requestDeserialize: (b: Buffer) => deltaRequests.decode(b),
    },
  } satisfies grpc.ServiceDefinition;
}

/** Client-side definition: typed requests and typed responses. */
export const adsClientDefinition = {
  StreamAggregatedResources: method(SOTW_PATH, DiscoveryRequestSchema, typed(DiscoveryResponseSchema)),
  DeltaAggregatedResources: method(DELTA_PATH, DeltaDiscoveryRequestSchema, typed(DeltaDiscoveryResponseSchema)),
} satisfies grpc.ServiceDefinition;
