// One TCP connection into a pod through the API server's port-forward (WebSocket, `v4.channel.k8s.io`:
// per port a data and an error channel, each opened by a 2-byte port frame), as a Duplex for node:http.
// Kiali and istioctl reach Envoy's admin this way; the `pods/NAME:15000/proxy` subresource cannot (Envoy's
// admin binds 127.0.0.1 in Istio's sidecars), so it is never used.
import { Duplex, PassThrough, Writable } from 'node:stream';
import { type KubeConfig, PortForward } from '@kubernetes/client-node';
import { LiveError } from './types';

export interface Tunnel {
  /** Bytes to and from the pod's port. */
  stream: Duplex;
  /** Text the API server / kubelet wrote on the port's error channel (e.g. "connection refused"). */
  errorText(): string;
  close(): void;
}

/** The part of the `ws` client WebSocket used here. */
interface WsLike {
  close(): void;
  on(ev: 'close' | 'error', fn: () => void): void;
}

/** The HTTP status in client-node's / ws's handshake failure ("Unexpected server response: 403"). */
const handshakeStatus = (e: unknown): number | undefined => {
  const msg = String((e as { message?: string })?.message ?? (e as { error?: Error })?.error?.message ?? e);
  const m = /Unexpected server response: (\d{3})/.exec(msg);
  return m ? Number(m[1]) : undefined;
};

const describe = (e: unknown): string =>
  String((e as { message?: string })?.message || (e as { error?: Error })?.error?.message || (e as { code?: string })?.code || e);

/** Opens the port-forward; a failed handshake is classified (403 forbidden, 404 pod, else 502). */
export async function openTunnel(kc: KubeConfig, namespace: string, pod: string, port: number): Promise<Tunnel> {
  const toPod = new PassThrough();
  const fromPod = new PassThrough();
  let errText = '';
  const errSink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (errText.length < 4096) errText += chunk.toString('utf8');
      done();
    },
  });
  let socket: WsLike;
  try {
    // disconnectOnErr false: error-channel text is collected, the caller decides (a refused admin port).
    socket = (await new PortForward(kc, false).portForward(namespace, pod, [port], fromPod, errSink, toPod)) as unknown as WsLike;
  } catch (e) {
    toPod.destroy();
    fromPod.destroy();
    const status = handshakeStatus(e);
    const where = `port-forward to pod ${namespace}/${pod} port ${port}`;
    if (status === 403)
      throw new LiveError(
        403,
        'portforward',
        `${where} is forbidden: grant the verbs get and create on pods/portforward (deploy/overlays/live-config)`,
      );
    if (status === 404) throw new LiveError(404, 'portforward', `${where}: pod ${namespace}/${pod} not found`);
    throw new LiveError(502, 'portforward', `${where} failed: ${status ? `HTTP ${status}` : describe(e)}`);
  }
  const stream = new Duplex({
    read() {},
    write(chunk, _enc, done) {
      toPod.write(chunk, done);
    },
    final(done) {
      done(); // keep the tunnel open for the answer: client-node closes the WebSocket when its input ends
    },
  });
  // Bytes already written to fromPod are delivered before its end: the WebSocket closing ends fromPod.
  fromPod.on('data', (c: Buffer) => stream.push(c));
  fromPod.on('end', () => stream.push(null));
  const end = () => {
    if (!fromPod.writableEnded) fromPod.end();
  };
  socket.on('close', end);
  socket.on('error', end);
  return {
    stream,
    errorText: () => errText.trim(),
    close() {
      end();
      try {
        socket.close();
      } catch {
        // already closed
      }
      toPod.destroy();
    },
  };
}
