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
  /** Stops accepting; the connections already handed over are grpc-js' (forceShutdown closes them). */
  close(): void;
}

/** Listens on `host:port` (port 0: ephemeral) for `server`; resolves with the bound port. */
export function listenGrpc(server: grpc.Server, host: string, port: number, log: (m: string) => void): Promise<Listening> {
  const creds = grpc.ServerCredentials.createInsecure();
  if (isIP(host) === 0) {
    const addr = `${host}:${port}`;
    return new Promise((resolve, reject) =>
      server.bindAsync(addr, creds, (err, bound) => (err ? reject(err) : resolve({ port: bound, close: () => {} }))),
    );
  }
  const injector = server.createConnectionInjector(creds);
  const listener = createServer((socket) => injector.injectConnection(socket));
  return new Promise((resolve, reject) => {
    const failed = (e: Error) => {
      injector.destroy();
      reject(e);
    };
    listener.once('error', failed);
    listener.listen({ host, port, backlog: LISTEN_BACKLOG }, () => {
      listener.off('error', failed);
      // After listening, an error (e.g. EMFILE on accept) is reported, never thrown: the server keeps serving.
      listener.on('error', (e) => log(`ADS: listener error: ${e.message}`));
      resolve({
        port: (listener.address() as AddressInfo).port,
        close: () => {
          listener.close();
          injector.destroy();
        },
      });
    });
  });
}
