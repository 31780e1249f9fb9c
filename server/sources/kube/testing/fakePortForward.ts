// TEST-ONLY. The fake API server's pods/portforward over WebSocket, `v4.channel.k8s.io` framing as the
// kubelet speaks it (kubernetes pkg/kubelet/cri/streaming/portforward/websocket.go): per forwarded port a
// data channel (2i) and an error channel (2i+1); every frame is one channel byte then payload; the server
// first sends, on each channel, the port number as 2 little-endian bytes; pod bytes then go out in several
// frames; a failed dial is reported as text on the error channel, then the connection closes. Also the
// `pods/NAME[:PORT]/proxy` subresource, which on Istio answers 503 (Envoy's admin binds 127.0.0.1, the API
// server dials the pod IP), and RBAC denial of `create pods/portforward` for chosen pods (403).
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/** The largest frame the fake sends (a body is always cut into several frames). */
export const FAKE_FRAME_BYTES = 4096;

export interface PortForwardRecord {
  namespace: string;
  pod: string;
  port: number;
  outcome: 'forwarded' | 'forbidden' | 'not-found' | 'refused' | 'bad-request';
}

export type PodLookup = (namespace: string, name: string) => { status?: { phase?: string } } | undefined;

const PF_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/portforward$/;
const PROXY_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/proxy(\/.*)?$/;

const statusBody = (code: number, reason: string, message: string): string =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

export class FakePortForward {
  /** `ns/pod/port` → loopback TCP port the "pod" port is backed by (the test's fake Envoy admin). */
  private readonly targets = new Map<string, number>();
  private readonly denied = new Set<string>();
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => (offered.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false),
  });
  private readonly live = new Set<WebSocket>();
  /** Every port-forward asked for, in order. */
  readonly log: PortForwardRecord[] = [];

  constructor(private readonly pods: PodLookup) {}

  /** The pod's `port` is served by 127.0.0.1:`target` (a test server). */
  forward(namespace: string, pod: string, port: number, target: number): void {
    this.targets.set(`${namespace}/${pod}/${port}`, target);
  }

  /** `create pods/portforward` is forbidden for this pod (403), as RBAC without the verb answers. */
  deny(namespace: string, pod: string): void {
    this.denied.add(`${namespace}/${pod}`);
  }

  /** Closes every open port-forward. */
  closeAll(): void {
    for (const ws of this.live) ws.terminate();
    this.live.clear();
  }

  /** The API server's pods/proxy subresource: 503, because the API server dials PODIP:PORT and Envoy's admin is on loopback. */
  proxyAnswer(pathname: string): { code: number; body: string } | undefined {
    const m = PROXY_PATH.exec(pathname);
    if (!m) return undefined;
    const [, ns, podPort] = m;
    const [pod, port = '80'] = decodeURIComponent(podPort ?? '').split(':');
    if (!this.pods(ns ?? '', pod ?? '')) return { code: 404, body: statusBody(404, 'NotFound', `pods "${pod}" not found`) };
    return {
      code: 503,
      body: statusBody(503, 'ServiceUnavailable', `error trying to reach service: dial tcp 10.0.0.1:${port}: connect: connection refused`),
    };
  }

  /** The HTTP server's `upgrade` event. Returns false when the path is not a port-forward. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://fake');
    const m = PF_PATH.exec(url.pathname);
    if (!m) return false;
    const namespace = decodeURIComponent(m[1] ?? '');
    const pod = decodeURIComponent(m[2] ?? '');
    const port = Number(url.searchParams.get('ports') ?? Number.NaN);
    const refuse = (code: number, reason: string, message: string, outcome: PortForwardRecord['outcome']) => {
      this.log.push({ namespace, pod, port, outcome });
      const body = statusBody(code, reason, message);
      socket.end(
        `HTTP/1.1 ${code} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (this.denied.has(`${namespace}/${pod}`))
      return (
        refuse(
          403,
          'Forbidden',
          `pods "${pod}" is forbidden: User "tester" cannot create resource "pods/portforward" in API group "" in the namespace "${namespace}"`,
          'forbidden',
        ),
        true
      );
    if (!this.pods(namespace, pod)) return (refuse(404, 'NotFound', `pods "${pod}" not found`, 'not-found'), true);
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
      return (refuse(400, 'BadRequest', 'query parameter "ports" is required', 'bad-request'), true);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.session(ws, namespace, pod, port));
    return true;
  }

  private session(ws: WebSocket, namespace: string, pod: string, port: number): void {
    this.live.add(ws);
    ws.on('close', () => this.live.delete(ws));
    const portBytes = Buffer.alloc(2);
    portBytes.writeUInt16LE(port, 0);
    const frame = (channel: number, payload: Buffer) => {
      if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), payload]));
    };
    frame(0, portBytes);
    frame(1, portBytes);
    const target = this.targets.get(`${namespace}/${pod}/${port}`);
    const pending: Buffer[] = [];
    let tcp: Socket | undefined;
    const fail = (why: string) => {
      this.log.push({ namespace, pod, port, outcome: 'refused' });
      frame(1, Buffer.from(`error forwarding port ${port} to pod ${namespace}/${pod}: dial tcp 127.0.0.1:${port}: ${why}`));
      ws.close(1000);
    };
    ws.on('message', (data: Buffer) => {
      if (data.byteLength === 0 || data[0] !== 0) return; // data channel 0 only
      const payload = data.subarray(1);
      if (tcp && !tcp.connecting) tcp.write(payload);
      else pending.push(payload);
    });
    if (target === undefined) return fail('connect: connection refused');
    tcp = connect(target, '127.0.0.1');
    ws.on('close', () => tcp?.destroy());
    tcp.on('connect', () => {
      this.log.push({ namespace, pod, port, outcome: 'forwarded' });
      for (const p of pending.splice(0)) tcp?.write(p);
    });
    tcp.on('data', (chunk: Buffer) => {
      // Several frames per body: never more than FAKE_FRAME_BYTES each, and the first byte alone.
      let at = 0;
      if (chunk.byteLength > 1) {
        frame(0, chunk.subarray(0, 1));
        at = 1;
      }
      for (; at < chunk.byteLength; at += FAKE_FRAME_BYTES) frame(0, chunk.subarray(at, at + FAKE_FRAME_BYTES));
    });
    tcp.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNREFUSED') fail('connect: connection refused');
      else ws.close(1000);
    });
    tcp.on('end', () => ws.close(1000));
  }
}
