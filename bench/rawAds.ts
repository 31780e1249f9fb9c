// The bench clients' ADS transport: one HTTP/2 connection per channel (node:http2, as a proxy holds one connection
// to its control plane; settings as grpc-js' client sets them: a 65,535-byte initial window, no session memory
// cap), gRPC's length-prefixed messages framed and unframed here. Requests are written already encoded
// (bench/xdsWire.ts); a response is handed over as a view of one scratch buffer per process, valid only during
// the call (the clients read it synchronously and keep nothing of it), so receiving 300 MiB per wave allocates
// nothing per message. grpc-js' client did the same work with a fresh buffer per message and its call machinery
// per stream: measured, that (and the garbage it made) was most of the client process's CPU.
import * as http2 from 'node:http2';
import { DELTA_PATH, SOTW_PATH } from '../server/xds/service';

/** One gRPC message (uncompressed): a 0 flag byte, the length (big-endian), the bytes. */
function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

let scratch = Buffer.allocUnsafeSlow(1 << 20);

/** Chunks of one stream's DATA not yet handed over as messages (gRPC length-prefixed framing). */
export class Pending {
  private chunks: Buffer[] = [];
  /** chunks[0, head) are consumed. */
  private head = 0;
  private size = 0;

  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
  }

  /** The next whole message (a view valid until the next call), or undefined. */
  take(): Buffer | undefined {
    if (this.size < 5) return undefined;
    const first = this.chunks[this.head]!;
    const len = (first.length >= 5 ? first : this.copy(5, false)).readUInt32BE(1);
    if (this.size < 5 + len) return undefined;
    if (first.length >= 5 + len) {
      // The whole message is in the first chunk: no copy.
      const msg = first.subarray(5, 5 + len);
      this.drop(5 + len);
      return msg;
    }
    this.drop(5);
    return this.copy(len, true);
  }

  /** The first `n` bytes copied into the scratch (consumed when `consume`). */
  private copy(n: number, consume: boolean): Buffer {
    if (scratch.length < n) scratch = Buffer.allocUnsafeSlow(Math.max(n, 2 * scratch.length));
    let off = 0;
    for (let i = this.head; off < n; i++) {
      const c = this.chunks[i]!;
      const k = Math.min(c.length, n - off);
      c.copy(scratch, off, 0, k);
      off += k;
    }
    if (consume) this.drop(n);
    return scratch.subarray(0, n);
  }

  private drop(n: number): void {
    this.size -= n;
    while (n > 0) {
      const c = this.chunks[this.head]!;
      if (c.length <= n) {
        n -= c.length;
        this.head++;
      } else {
        this.chunks[this.head] = c.subarray(n);
        n = 0;
      }
    }
    if (this.head === this.chunks.length) {
      this.chunks = [];
      this.head = 0;
    } else if (this.head > 64) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}

export interface RawStream {
  /** Writes one encoded request. */
  write(message: Uint8Array): void;
  cancel(): void;
}

export class RawAdsChannel {
  private readonly session: http2.ClientHttp2Session;

  constructor(port: number, host = '127.0.0.1') {
    this.session = http2.connect(`http://${host}:${port}`, {
      settings: { initialWindowSize: 65_535 },
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
    });
    this.session.on('error', () => undefined);
  }

  /**
   * A StreamAggregatedResources (`delta` false) or DeltaAggregatedResources stream; `onMessage` gets each
   * response's bytes (valid during the call only), `onEnd` the grpc-status when the stream is over.
   */
  open(delta: boolean, onMessage: (b: Buffer) => void, onEnd: (status: string) => void): RawStream {
    const stream = this.session.request(
      { ':method': 'POST', ':path': delta ? DELTA_PATH : SOTW_PATH, 'content-type': 'application/grpc', te: 'trailers' },
      { endStream: false },
    );
    const pending = new Pending();
    let status = '';
    stream.on('response', (h) => {
      if (typeof h['grpc-status'] === 'string') status = h['grpc-status'];
    });
    stream.on('trailers', (t) => {
      if (typeof t['grpc-status'] === 'string') status = t['grpc-status'];
    });
    stream.on('data', (b: Buffer) => {
      pending.push(b);
      for (let m = pending.take(); m; m = pending.take()) onMessage(m);
    });
    stream.on('error', () => undefined);
    stream.on('close', () => onEnd(status || `rst ${stream.rstCode ?? ''}`));
    return {
      write: (message) => {
        if (!stream.closed && !stream.destroyed) stream.write(frame(message));
      },
      cancel: () => {
        if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      },
    };
  }

  close(): void {
    this.session.close();
  }
}
