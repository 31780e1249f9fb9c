// The bench clients' ADS transport: one HTTP/2 connection per channel (node:http2, as a proxy holds one connection
// to its control plane; no session memory cap; the flow-control windows of `ChannelOptions`), gRPC's
// length-prefixed messages framed and unframed here. Requests are written already encoded
// (bench/xdsWire.ts); a response is handed over as a view of the DATA chunk it came in, or, when it spans chunks, of a
// reused buffer it was copied into as they arrived (`Pending`, `BufferPool`), valid only during the call (the clients
// read it synchronously and keep nothing of it), so receiving 3 GiB per 5× wave allocates nothing per message and
// keeps none of node:http2's read buffers past their 'data' event. grpc-js' client did the same work with a fresh buffer per message and its call machinery
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

/**
 * Reusable message buffers by size class (powers of two from 64 KiB), shared by a process's channels: a message that
 * spans DATA chunks is copied into one as the chunks arrive and the buffer is taken back once the message was read.
 * Until session 17 the chunks themselves were held until their message was whole: views of node:http2's 64 KiB read
 * buffers, kept across scavenges while 2,000 streams' messages arrived interleaved, so those buffers could only be
 * freed by a full mark-compact — ~35 of them per 5× wave, each started by V8's external-memory limit (a transport
 * floor holding its chunks the same way went from 2 to 33 mark-compacts and from 2.9 to 5.1 s of client CPU).
 * Buffers taken from here live as long as the process, so the external memory V8 sees stops growing.
 */
export class BufferPool {
  private readonly free = new Map<number, Buffer[]>();
  /** Buffers allocated so far (the rest of the acquires were reuses). */
  made = 0;

  /** A buffer of at least `n` bytes (its length is its size class). */
  acquire(n: number): Buffer {
    let size = 1 << 16;
    while (size < n) size *= 2;
    const b = this.free.get(size)?.pop();
    if (b) return b;
    this.made++;
    return Buffer.allocUnsafeSlow(size);
  }

  /** Gives `b` (from `acquire`) back. */
  release(b: Buffer): void {
    const list = this.free.get(b.length);
    if (list) list.push(b);
    else this.free.set(b.length, [b]);
  }
}

/**
 * One stream's DATA unframed into gRPC's length-prefixed messages as it arrives: a message inside one chunk is handed
 * over as a view of it, one that spans chunks is copied into a buffer of the pool; no chunk is kept past `push`.
 */
export class Pending {
  /** The 5-byte prefix being read (when it spans chunks). */
  private readonly prefix = Buffer.alloc(5);
  private prefixHave = 0;
  /** The message being assembled: its length (-1: reading a prefix), its pooled buffer, the bytes it has. */
  private len = -1;
  private msg: Buffer | undefined;
  private have = 0;

  constructor(private readonly pool = new BufferPool()) {}

  /** Reads `b`; `onMessage` gets each message completed (a view valid during the call only). */
  push(b: Buffer, onMessage: (m: Buffer) => void): void {
    let off = 0;
    while (off < b.length) {
      if (this.len < 0) {
        if (this.prefixHave === 0 && b.length - off >= 5) {
          this.len = b.readUInt32BE(off + 1);
          off += 5;
        } else {
          while (this.prefixHave < 5 && off < b.length) this.prefix[this.prefixHave++] = b[off++]!;
          if (this.prefixHave < 5) return;
          this.prefixHave = 0;
          this.len = this.prefix.readUInt32BE(1);
        }
        if (b.length - off >= this.len) {
          // the whole message is in this chunk: no copy
          const m = b.subarray(off, off + this.len);
          off += this.len;
          this.len = -1;
          onMessage(m);
          continue;
        }
        this.msg = this.pool.acquire(this.len);
        this.have = 0;
      }
      const msg = this.msg!;
      const k = Math.min(this.len - this.have, b.length - off);
      b.copy(msg, this.have, off, off + k);
      this.have += k;
      off += k;
      if (this.have === this.len) {
        const len = this.len;
        this.msg = undefined;
        this.len = -1;
        try {
          onMessage(msg.subarray(0, len));
        } finally {
          this.pool.release(msg);
        }
      }
    }
  }

  /** Gives a half-received message's buffer back (the stream ended). */
  dispose(): void {
    if (this.msg) this.pool.release(this.msg);
    this.msg = undefined;
    this.len = -1;
    this.prefixHave = 0;
  }
}

export interface RawStream {
  /** Writes one encoded request; `prefixed`: its bytes already start with gRPC's message prefix (sent as they are). */
  write(message: Uint8Array, prefixed?: boolean): void;
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
  /** Where messages that span DATA chunks are assembled: one per process, shared by its channels (default: the channel's own). */
  pool?: BufferPool;
}

export class RawAdsChannel {
  private readonly session: http2.ClientHttp2Session;
  private readonly pool: BufferPool;

  constructor(port: number, host = '127.0.0.1', opts: ChannelOptions = {}) {
    const window = opts.window ?? GRPC_JS_WINDOW;
    this.pool = opts.pool ?? new BufferPool();
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
  open(delta: boolean, onMessage: (m: Buffer) => void, onEnd: (status: string) => void): RawStream {
    const stream = this.session.request(
      { ':method': 'POST', ':path': delta ? DELTA_PATH : SOTW_PATH, 'content-type': 'application/grpc', te: 'trailers' },
      { endStream: false },
    );
    const pending = new Pending(this.pool);
    let status = '';
    stream.on('response', (h) => {
      if (typeof h['grpc-status'] === 'string') status = h['grpc-status'];
    });
    stream.on('trailers', (t) => {
      if (typeof t['grpc-status'] === 'string') status = t['grpc-status'];
    });
    stream.on('data', (b: Buffer) => {
      pending.push(b, onMessage);
    });
    stream.on('error', () => undefined);
    stream.on('close', () => {
      pending.dispose();
      onEnd(status || `rst ${stream.rstCode ?? ''}`);
    });
    return {
      write: (message, prefixed = false) => {
        if (!stream.closed && !stream.destroyed) stream.write(prefixed ? message : frame(message));
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
