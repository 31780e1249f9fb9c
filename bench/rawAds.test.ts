// The bench clients' HTTP/2 windows (bench/rawAds.ts ChannelOptions): what a node:http2 server sees the client
// advertise — the stream window in its SETTINGS, the connection window after its WINDOW_UPDATE on stream 0
// (RFC 9113 §6.5.2 SETTINGS_INITIAL_WINDOW_SIZE, §6.9.2: the connection window starts at 65,535 whatever the
// settings say). The values are istio-agent's grpc-go dial options and Envoy's defaults (cited in rawAds.ts).
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ENVOY_WINDOW, GRPC_JS_WINDOW, ISTIO_AGENT_WINDOW, RawAdsChannel } from './rawAds';

let server: http2.Http2Server | undefined;
let channel: RawAdsChannel | undefined;
afterEach(async () => {
  channel?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  channel = undefined;
});

/** Opens one stream with `window` and reports, once the stream arrives, the windows the server may send into. */
async function seen(window: number | undefined): Promise<{ stream: number; connection: number }> {
  const s = http2.createServer();
  server = s;
  const got = new Promise<{ stream: number; connection: number }>((resolve) => {
    s.on('stream', (stream: http2.ServerHttp2Stream) => {
      const session = stream.session!;
      // The WINDOW_UPDATE on stream 0 follows the SETTINGS; wait until it has been applied (or give up after 1 s).
      const started = Date.now();
      const look = () => {
        const connection = session.state.remoteWindowSize ?? 0;
        if ((window ?? GRPC_JS_WINDOW) <= connection || Date.now() - started > 1_000) {
          resolve({ stream: session.remoteSettings.initialWindowSize ?? 0, connection });
          stream.respond({ ':status': 200 });
          stream.end();
        } else setTimeout(look, 5);
      };
      look();
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  channel = new RawAdsChannel(port, '127.0.0.1', window === undefined ? {} : { window });
  channel
    .open(
      false,
      () => undefined,
      () => undefined,
    )
    .write(new Uint8Array(0));
  return got;
}

describe('RawAdsChannel flow-control windows', () => {
  it("defaults to grpc-js' client: HTTP/2's 65,535-byte stream and connection windows", async () => {
    expect(await seen(undefined)).toEqual({ stream: 65_535, connection: 65_535 });
  });

  it("advertises istio-agent's 1 MiB stream window and raises the connection window to 1 MiB", async () => {
    expect(ISTIO_AGENT_WINDOW).toBe(1_048_576);
    expect(await seen(ISTIO_AGENT_WINDOW)).toEqual({ stream: 1_048_576, connection: 1_048_576 });
  });

  it("advertises Envoy's 256 MiB default windows", async () => {
    expect(await seen(ENVOY_WINDOW)).toEqual({ stream: 268_435_456, connection: 268_435_456 });
  });
});
