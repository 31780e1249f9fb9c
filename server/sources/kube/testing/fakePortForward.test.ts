// The fake API server's port-forward speaks the kubelet's WebSocket framing (kubernetes
// pkg/kubelet/cri/streaming/portforward/websocket.go; client side: client-node's PortForward): protocol
// `v4.channel.k8s.io`; per port a data channel 0 and an error channel 1; each channel first carries the port
// as 2 little-endian bytes; then channel-prefixed frames, a body in several of them; a refused dial is text on
// the error channel. Checked here with a raw `ws` client, byte by byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FakeApiServer } from './fakeApiServer';
import { FakeEnvoyAdmin } from './fakeEnvoyAdmin';
import { pod } from './fixtures';

let fake: FakeApiServer;
let admin: FakeEnvoyAdmin;

beforeAll(async () => {
  fake = new FakeApiServer();
  await fake.start();
  fake.create(pod('default', 'web-1', 'web', '10.0.0.9'));
  admin = new FakeEnvoyAdmin();
  await admin.start();
  admin.dump = { configs: Array.from({ length: 300 }, (_, i) => ({ n: i })) };
  fake.portForward.forward('default', 'web-1', 15000, admin.port);
});

afterAll(async () => {
  await admin.stop();
  await fake.stop();
});

const wsUrl = (podName: string, port: number) =>
  `${fake.url.replace('http:', 'ws:')}/api/v1/namespaces/default/pods/${podName}/portforward?ports=${port}`;

/** Opens a port-forward, sends `request` on channel 0, collects every frame until the server closes. */
function session(podName: string, port: number, request?: string): Promise<{ protocol: string; frames: Buffer[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(podName, port), ['v4.channel.k8s.io']);
    const frames: Buffer[] = [];
    ws.on('message', (d: Buffer) => {
      frames.push(Buffer.from(d));
      if (frames.length === 2 && request) ws.send(Buffer.concat([Buffer.from([0]), Buffer.from(request)]));
    });
    ws.on('close', () => resolve({ protocol: ws.protocol, frames }));
    ws.on('error', reject);
  });
}

describe('FakePortForward (v4.channel.k8s.io)', () => {
  it('port frames first on data and error channels, then the answer in several data frames', async () => {
    const { protocol, frames } = await session('web-1', 15000, 'GET /config_dump HTTP/1.0\r\nHost: x\r\n\r\n');
    expect(protocol).toBe('v4.channel.k8s.io');
    const port = Buffer.alloc(2);
    port.writeUInt16LE(15000, 0);
    expect(frames[0]).toEqual(Buffer.concat([Buffer.from([0]), port]));
    expect(frames[1]).toEqual(Buffer.concat([Buffer.from([1]), port]));
    const data = frames.slice(2);
    expect(data.every((f) => f[0] === 0)).toBe(true);
    expect(data.length).toBeGreaterThan(2);
    const http = Buffer.concat(data.map((f) => f.subarray(1))).toString('utf8');
    expect(http).toMatch(/^HTTP\/1\.[01] 200 OK\r\n/);
    expect(JSON.parse(http.slice(http.indexOf('\r\n\r\n') + 4))).toEqual(admin.dump);
    expect(admin.requests.at(-1)).toEqual({ method: 'GET', url: '/config_dump' });
  });

  it('a refused dial: the kubelet-style text on the error channel, then close', async () => {
    const { frames } = await session('web-1', 15999);
    const errText = frames
      .slice(2)
      .filter((f) => f[0] === 1)
      .map((f) => f.subarray(1).toString('utf8'))
      .join('');
    expect(errText).toMatch(/error forwarding port 15999 to pod default\/web-1: .*connection refused/);
  });

  it('denied pods answer 403 before the upgrade, unknown pods 404; an offer without v4 is refused', async () => {
    fake.portForward.deny('default', 'web-1');
    const status = (podName: string, protocols: string[]) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(wsUrl(podName, 15000), protocols);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => undefined);
      });
    expect(await status('web-1', ['v4.channel.k8s.io'])).toBe(403);
    expect(await status('nosuch', ['v4.channel.k8s.io'])).toBe(404);
    const fresh = new FakeApiServer();
    await fresh.start();
    fresh.create(pod('default', 'web-1', 'web', '10.0.0.9'));
    const offered = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${fresh.url.replace('http:', 'ws:')}/api/v1/namespaces/default/pods/web-1/portforward?ports=1`, [
        'v5.channel.k8s.io',
      ]);
      ws.on('error', (e) => resolve(e.message));
      ws.on('open', () => resolve('open'));
    });
    await fresh.stop();
    expect(offered).not.toBe('open');
  });
});
