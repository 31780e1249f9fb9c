// The AggregatedDiscoveryService as a @grpc/grpc-js service definition with protobuf-es (de)serializers.
// Server side: requests are decoded by protobuf-es; responses are already wire bytes (see wire.ts).
// Client side (tests, demo clients): requests encoded by protobuf-es, responses decoded by protobuf-es.
import type * as grpc from '@grpc/grpc-js';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  DeltaDiscoveryRequestSchema,
  DeltaDiscoveryResponseSchema,
  DiscoveryRequestSchema,
  DiscoveryResponseSchema,
  type DeltaDiscoveryRequest,
  type DeltaDiscoveryResponse,
  type DiscoveryRequest,
  type DiscoveryResponse,
} from '../gen/envoy/service/discovery/v3/discovery_pb';

export const ADS_SERVICE = 'envoy.service.discovery.v3.AggregatedDiscoveryService';
export const SOTW_PATH = `/${ADS_SERVICE}/StreamAggregatedResources`;
export const DELTA_PATH = `/${ADS_SERVICE}/DeltaAggregatedResources`;

/** A Uint8Array as a Buffer without copying (grpc-js serializers must return a Buffer). */
export const asBuffer = (u8: Uint8Array): Buffer => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);

const passThrough = (b: Uint8Array): Buffer => asBuffer(b);

/** Server-side definition: typed requests in, pre-encoded response bytes out. */
export const adsServerDefinition = {
  StreamAggregatedResources: {
    path: SOTW_PATH,
    requestStream: true,
    responseStream: true,
    requestSerialize: (m: DiscoveryRequest) => asBuffer(toBinary(DiscoveryRequestSchema, m)),
    requestDeserialize: (b: Buffer) => fromBinary(DiscoveryRequestSchema, b),
    responseSerialize: passThrough,
    responseDeserialize: (b: Buffer): Uint8Array => b,
  },
  DeltaAggregatedResources: {
    path: DELTA_PATH,
    requestStream: true,
    responseStream: true,
    requestSerialize: (m: DeltaDiscoveryRequest) => asBuffer(toBinary(DeltaDiscoveryRequestSchema, m)),
    requestDeserialize: (b: Buffer) => fromBinary(DeltaDiscoveryRequestSchema, b),
    responseSerialize: passThrough,
    responseDeserialize: (b: Buffer): Uint8Array => b,
  },
} satisfies grpc.ServiceDefinition;

/** Client-side definition: typed requests and typed responses. */
export const adsClientDefinition = {
  StreamAggregatedResources: {
    path: SOTW_PATH,
    requestStream: true,
    responseStream: true,
    requestSerialize: (m: DiscoveryRequest) => asBuffer(toBinary(DiscoveryRequestSchema, m)),
    requestDeserialize: (b: Buffer) => fromBinary(DiscoveryRequestSchema, b),
    responseSerialize: (m: DiscoveryResponse) => asBuffer(toBinary(DiscoveryResponseSchema, m)),
    responseDeserialize: (b: Buffer) => fromBinary(DiscoveryResponseSchema, b),
  },
  DeltaAggregatedResources: {
    path: DELTA_PATH,
    requestStream: true,
    responseStream: true,
    requestSerialize: (m: DeltaDiscoveryRequest) => asBuffer(toBinary(DeltaDiscoveryRequestSchema, m)),
    requestDeserialize: (b: Buffer) => fromBinary(DeltaDiscoveryRequestSchema, b),
    responseSerialize: (m: DeltaDiscoveryResponse) => asBuffer(toBinary(DeltaDiscoveryResponseSchema, m)),
    responseDeserialize: (b: Buffer) => fromBinary(DeltaDiscoveryResponseSchema, b),
  },
} satisfies grpc.ServiceDefinition;
