// The bench clients' ADS transport: one HTTP/2 connection per channel (node:http2, as a proxy holds one connection
// to its control plane; no session memory cap; the flow-control windows of `ChannelOptions`), gRPC's
// length-prefixed messages framed and unframed here. Requests are written already encoded
// (bench/xdsWire.ts); a response is handed over as the DATA chunks it arrived in (views, no copy), joined into one
// scratch buffer per process only when a reader asks (`RawMessage.join`), valid only during the call (the clients
// read it synchronously and keep nothing of it), so receiving 3 GiB per 5× wave copies and allocates nothing per
// message but the views. grpc-js' client did the same work with a fresh buffer per message and its call machinery
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

  /** The message `takeParts` returned last, as the chunks it spans (views; empty for an empty message), and its length. */
  readonly parts: Buffer[] = [];
  length = 0;

  /**
   * The next whole message as views of the DATA chunks it arrived in (`parts`; valid until the next call), its
   * length, or -1 when it has not all arrived. Nothing is copied: `join()` makes it one buffer when a reader needs that.
   */
  takeParts(): number {
    this.parts.length = 0;
    if (this.size < 5) return -1;
    const first = this.chunks[this.head]!;
    const len = (first.length >= 5 ? first : this.copy(5, false)).readUInt32BE(1);
    if (this.size < 5 + len) return -1;
    this.drop(5);
    let n = len;
    while (n > 0) {
      const c = this.chunks[this.head]!;
      if (c.length <= n) {
        this.parts.push(c);
        n -= c.length;
        this.head++;
      } else {
        this.parts.push(c.subarray(0, n));
        this.chunks[this.head] = c.subarray(n);
        n = 0;
      }
    }
    this.size -= len;
    this.compact();
    this.length = len;
    return len;
  }

  /** The message `takeParts` returned last as one buffer: its one chunk, or the chunks copied into the scratch (valid until the next call). */
  join(): Buffer {
    const parts = this.parts;
    if (parts.length === 1) return parts[0]!;
    let n = 0;
    for (const p of parts) n += p.length;
    if (scratch.length < n) scratch = Buffer.allocUnsafeSlow(Math.max(n, 2 * scratch.length));
    let off = 0;
    for (const p of parts) {
      p.copy(scratch, off);
      off += p.length;
    }
    return scratch.subarray(0, n);
  }

  /** The next whole message (a view valid until the next call), or undefined. */
  take(): Buffer | undefined {
    return this.takeParts() < 0 ? undefined : this.join();
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
    this.compact();
  }

  private compact(): void {
    if (this.head === this.chunks.length) {
      this.chunks = [];
      this.head = 0;
    } else if (this.head > 64) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}

/** A received message: the DATA chunks it spans (views), joined on demand. Valid during the `onMessage` call only. */
export interface RawMessage {
  readonly parts: readonly Buffer[];
  readonly length: number;
  join(): Buffer;
}

export interface RawStream {
  /** Writes one encoded request. */
  write(message: Uint8Array): void;
  cancel(): void;
}

/**
 * HTTP/2 flow-control windows an xDS client advertises to its control plane (bytes; stream and connection alike).
 * - `GRPC_JS_WINDOW`: grpc-js' client (HTTP/2's default 65,535-byte windows, nothing raised).
 * - `ISTIO_AGENT_WINDOW`: what istiod really talks to. A sidecar's Envoy sends its xDS to pilot-agent over a unix
 *   socket (Istio tools/packaging/common/envoy_bootstrap.json, cluster `xds-grpc`: pipe `{{ConfigPath}}/XDS`), and
 *   the agent's XDS proxy dials istiod with grpc-go options `InitialWindowSize` and `InitialConnWindowSize` of
 *   1 MiB (pkg/istio-agent/xds_proxy.go buildUpstreamClientDialOpts → pilot/pkg/grpc/grpc.go ClientOptions,
 *   `defaultInitialWindowSize` / `defaultInitialConnWindowSize`); a fixed window also turns grpc-go's BDP estimation off.
 * - `ENVOY_WINDOW`: an Envoy dialling its control plane itself, with its `Http2ProtocolOptions` defaults
 *   (`initial_stream_window_size` / `initial_connection_window_size` 256 MiB, envoy
 *   source/common/http/http_option_limits.h; Istio's bootstrap sets `http2_protocol_options: {}`, i.e. those).
 */
export const GRPC_JS_WINDOW = 65_535;
export const ISTIO_AGENT_WINDOW = 1 << 20;
export const ENVOY_WINDOW = 256 << 20;

export interface ChannelOptions {
  /** Initial stream window (SETTINGS_INITIAL_WINDOW_SIZE) and connection window (a WINDOW_UPDATE on stream 0). */
  window?: number;
}

export class RawAdsChannel {
  private readonly session: http2.ClientHttp2Session;

  constructor(port: number, host = '127.0.0.1', opts: ChannelOptions = {}) {
    const window = opts.window ?? GRPC_JS_WINDOW;
    this.session = http2.connect(`http://${host}:${port}`, {
      settings: { initialWindowSize: window },
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
    });
    // The connection window starts at 65,535 whatever the settings say (RFC 9113 §6.9.2); grpc-go and Envoy
    // raise it with a WINDOW_UPDATE once connected, as this does.
    if (window > GRPC_JS_WINDOW) this.session.once('connect', (s: http2.ClientHttp2Session) => s.setLocalWindowSize(window));
    this.session.on('error', (e: Error) => {
      this.lastError = e.message;
    });
  }

  /** The session's error, if it had one (a connect refused or reset under a burst of connections). */
  lastError: string | undefined;

  /** False once the session is closed or destroyed (a failed connect): streams must go on a new channel. */
  get usable(): boolean {
    return !this.session.destroyed && !this.session.closed;
  }

  /**
   * A StreamAggregatedResources (`delta` false) or DeltaAggregatedResources stream; `onMessage` gets each
   * response (valid during the call only), `onEnd` the grpc-status when the stream is over.
   */
  open(delta: boolean, onMessage: (m: RawMessage) => void, onEnd: (status: string) => void): RawStream {
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
      while (pending.takeParts() >= 0) onMessage(pending);
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
