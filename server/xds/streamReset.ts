// Ends a server stream at once with RST_STREAM. A gRPC status cannot end a stream whose client stopped
// reading: grpc-js sends trailers only after every queued DATA frame, and those wait on the client's
// flow-control window forever. grpc-js has no public per-call reset, so this reaches the HTTP/2 stream
// the call wraps (@grpc/grpc-js 1.14: ServerDuplexStreamImpl.call is the BaseServerInterceptingCall when
// the server has no interceptors, and its `stream` is the node:http2 ServerHttp2Stream). When that shape
// is not found it falls back to ending the call (the caller drops its state either way); stall.test.ts
// fails if a grpc-js upgrade changes it.
import { constants as h2 } from 'node:http2';

interface H2StreamLike {
  close(code?: number): void;
  destroyed: boolean;
}

const isH2Stream = (s: unknown): s is H2StreamLike =>
  typeof s === 'object' && s !== null && typeof (s as H2StreamLike).close === 'function' && 'rstCode' in s;

/** Resets `call` with RST_STREAM CANCEL. Returns whether the HTTP/2 stream was reached. */
export function resetStream(call: { end(): void; destroy(): void }): boolean {
  const inner = (call as unknown as { call?: { stream?: unknown } }).call?.stream;
  if (isH2Stream(inner)) {
    if (!inner.destroyed) inner.close(h2.NGHTTP2_CANCEL);
    return true;
  }
  try {
    call.end();
    call.destroy();
  } catch {
    /* already finished */
  }
  return false;
}
