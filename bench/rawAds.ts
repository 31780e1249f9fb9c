// A grpc-js ADS channel for the bench's clients that hands over bytes both ways: requests are written already
// encoded (bench/xdsWire.ts) and responses arrive as the frame's bytes, read by the client itself. Same HTTP/2,
// same service paths and message limits as server/xds/testing/adsTestClient.ts; no protobuf-es on the hot path.
import * as grpc from '@grpc/grpc-js';
import { DELTA_PATH, SOTW_PATH } from '../server/xds/service';

const bytes = (path: string) =>
  ({
    path,
    requestStream: true,
    responseStream: true,
    requestSerialize: (b: Buffer) => b,
    requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b,
    responseDeserialize: (b: Buffer) => b,
  }) as const;

const definition = {
  StreamAggregatedResources: bytes(SOTW_PATH),
  DeltaAggregatedResources: bytes(DELTA_PATH),
} satisfies grpc.ServiceDefinition;

const Client = grpc.makeGenericClientConstructor(definition, 'AggregatedDiscoveryService');
type Stream = grpc.ClientDuplexStream<Buffer, Buffer>;

export class RawAdsChannel {
  private readonly client: grpc.Client;

  constructor(port: number, host = '127.0.0.1') {
    this.client = new Client(`${host}:${port}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
    });
  }

  /** A StreamAggregatedResources (`delta` false) or DeltaAggregatedResources stream. */
  open(delta: boolean): Stream {
    const c = this.client as unknown as { StreamAggregatedResources(): Stream; DeltaAggregatedResources(): Stream };
    return delta ? c.DeltaAggregatedResources() : c.StreamAggregatedResources();
  }

  close(): void {
    this.client.close();
  }
}
