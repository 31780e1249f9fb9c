// The ADS server's listening socket. grpc-js' bindAsync listens with node's default accept backlog, 511: a wave of
// thousands of sidecars connecting at once (istiod restarted, a node pool rolled) overflows it, and every connection
// the kernel drops waits out a SYN retransmission (1 s, then 2 s …) before it is accepted. istiod's listener is Go's
// net.Listen, whose backlog is the kernel's own bound, net.core.somaxconn (Go net/sock_linux.go maxListenerBacklog),
// 4,096 on current kernels. So for an IP address the socket is ours, listened with a backlog the kernel caps at that
// same bound, and its connections are handed to grpc-js (Server.createConnectionInjector, its public API for sockets
// accepted elsewhere); a host name is bound by grpc-js as before (it listens on every address the name resolves to).
import * as grpc from '@grpc/grpc-js';
import { createServer, isIP, type AddressInfo } from 'node:net';

/** Asked of listen(2); Linux clamps it to net.core.somaxconn, as Go's listener asks for that bound. */
export const LISTEN_BACKLOG = 65_535;

export interface Listening {
  port: number;
  /**
   * Stops accepting; the injector's sessions are closed gracefully. The connections themselves are destroyed by
   * grpc-js' forceShutdown, which walks the sessions its channelz tracking recorded: channelz must stay on (issue24-waves.md,
   * session 16: with it off, forceShutdown left every client connected).
   */
  close(): void;
}

/** A listen in progress; `cancel` closes it now (a stop while starting frees the port at once). */
export type PendingListen = Promise<Listening> & { cancel(): void };

/** Listens on `host:port` (port 0: ephemeral) for `server`; resolves with the bound port. */
export function listenGrpc(server: grpc.Server, host: string, port: number, log: (m: string) => void): PendingListen {
  const creds = grpc.ServerCredentials.createInsecure();
  if (isIP(host) === 0) {
    const addr = `${host}:${port}`;
    const bound = new Promise<Listening>((resolve, reject) =>
      server.bindAsync(addr, creds, (err, p) => (err ? reject(err) : resolve({ port: p, close: () => {} }))),
    );
    // grpc-js' own bind: forceShutdown cancels it.
    return Object.assign(bound, { cancel: () => {} });
  }
  const injector = server.createConnectionInjector(creds);
  const listener = createServer((socket) => injector.injectConnection(socket));
  let closed = false;
  /** The pending listen's reject, until it resolved. */
  let abort: ((e: Error) => void) | undefined;
  const close = () => {
    if (closed) return;
    closed = true;
    // Closed before the socket was bound (node binds on a later tick), node drops the listen: say so to the caller.
    abort?.(new Error('AdsServer stopped while it was starting'));
    listener.close();
    injector.destroy();
  };
  const listening = new Promise<Listening>((resolve, reject) => {
    abort = reject;
    const failed = (e: Error) => {
      abort = undefined;
      close();
      reject(e);
    };
    listener.once('error', failed);
    listener.listen({ host, port, backlog: LISTEN_BACKLOG }, () => {
      listener.off('error', failed);
      abort = undefined;
      // After listening, an error (e.g. EMFILE on accept) is reported, never thrown: the server keeps serving.
      listener.on('error', (e) => log(`ADS: listener error: ${e.message}`));
      resolve({ port: (listener.address() as AddressInfo).port, close });
    });
  });
  return Object.assign(listening, { cancel: close });
}
