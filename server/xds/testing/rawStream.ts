// A raw HTTP/2 ADS client for abuse tests: its own connection (node:http2, no grpc-js), one
// StreamAggregatedResources stream, hand-framed gRPC requests. `stall()` stops reading: the stream is
// paused and the stream and connection flow-control windows are tiny, so once a response larger than the
// windows is on its way the server's HTTP/2 writes cannot complete (real back-pressure, not a mock).
import * as http2 from 'node:http2';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { DiscoveryRequestSchema, DiscoveryResponseSchema, type DiscoveryResponse } from '../../gen/envoy/service/discovery/v3/discovery_pb';
import { makeNode, type NodeInit } from './adsTestClient';
import { SOTW_PATH } from '../service';

/** One gRPC length-prefixed message (uncompressed). */
export function grpcFrame(message: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

export interface RawSotwStream {
  /** Writes one DiscoveryRequest (the first one carries the node). */
  send(req: { typeUrl: string; resourceNames?: string[]; responseNonce?: string; versionInfo?: string }): void;
  /** Resolves when the server ends or resets the stream: the RST code (0 when it ended with trailers). */
  readonly closed: Promise<{ rstCode: number; grpcStatus?: string; grpcMessage?: string }>;
  /** Bytes of response data received so far (only counted while reading). */
  received(): number;
  /** Responses decoded so far (only while reading). */
  readonly responses: DiscoveryResponse[];
  /** Starts reading (a stalled client recovers). */
  resume(): void;
  close(): void;
}

/**
 * Opens a SotW stream on its own HTTP/2 connection. `windowBytes`: the client's initial stream window
 * (SETTINGS_INITIAL_WINDOW_SIZE); the stream is paused from the start unless `read` is true, so it never
 * consumes (and never grants more window) beyond what Node buffers.
 */
export function openRawSotw(port: number, node: NodeInit, opts: { read?: boolean; windowBytes?: number } = {}): RawSotwStream {
  const session = http2.connect(`http://127.0.0.1:${port}`, { settings: { initialWindowSize: opts.windowBytes ?? 1024 } });
  session.on('error', () => {});
  const stream = session.request(
    { ':method': 'POST', ':path': SOTW_PATH, 'content-type': 'application/grpc', te: 'trailers' },
    { endStream: false },
  );
  stream.on('error', () => {});
  let bytes = 0;
  let pending = Buffer.alloc(0);
  const responses: DiscoveryResponse[] = [];
  let trailers: http2.IncomingHttpHeaders = {};
  stream.on('trailers', (t) => (trailers = t));
  stream.on('response', (h) => (trailers = { ...h, ...trailers }));
  const read = () => {
    stream.on('data', (b: Buffer) => {
      bytes += b.length;
      pending = Buffer.concat([pending, b]);
      while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
        const len = pending.readUInt32BE(1);
        responses.push(fromBinary(DiscoveryResponseSchema, pending.subarray(5, 5 + len)));
        pending = pending.subarray(5 + len);
      }
    });
    stream.resume();
  };
  if (opts.read) read();
  else stream.pause();
  const closed = new Promise<{ rstCode: number; grpcStatus?: string; grpcMessage?: string }>((resolve) => {
    stream.on('close', () => {
      const s = trailers['grpc-status'];
      const m = trailers['grpc-message'];
      resolve({
        rstCode: stream.rstCode ?? 0,
        ...(typeof s === 'string' ? { grpcStatus: s } : {}),
        ...(typeof m === 'string' ? { grpcMessage: decodeURIComponent(m) } : {}),
      });
    });
  });
  let first = true;
  return {
    send(req) {
      const msg = create(DiscoveryRequestSchema, {
        typeUrl: req.typeUrl,
        resourceNames: req.resourceNames ?? [],
        responseNonce: req.responseNonce ?? '',
        versionInfo: req.versionInfo ?? '',
        ...(first ? { node: makeNode(node) } : {}),
      });
      first = false;
      stream.write(grpcFrame(toBinary(DiscoveryRequestSchema, msg)));
    },
    closed,
    received: () => bytes,
    responses,
    resume: read,
    close() {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      session.destroy();
    },
  };
}
