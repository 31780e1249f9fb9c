// TEST-ONLY. A loopback HTTP server standing in for a pod's Envoy admin (the fake API server's port-forward
// dials it): answers GET /config_dump[?include_eds] with the dump the test set, records every request
// (method and URL), and can hang (for timeouts) or be stopped (connection refused).
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface AdminRequest {
  method: string;
  url: string;
}

export class FakeEnvoyAdmin {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** What /config_dump answers (JSON-serialised); a string is sent as it is. */
  dump: unknown = { configs: [] };
  /**
   * istiod's /debug/config_dump?proxyID=… when this stands for an istiod pod's port 15014: the dump of the
   * proxies it holds; others get istiod's 404 "Proxy not connected to this Pilot instance".
   */
  debugDumps = new Map<string, unknown>();
  /** Never answer (the request is still recorded). */
  hang = false;
  /** Every request that reached this admin port, in order. */
  readonly requests: AdminRequest[] = [];
  /** Called with each request as it arrives (tests observe ordering). */
  onRequest: ((r: AdminRequest) => void) | undefined;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const seen = { method: req.method ?? '', url: req.url ?? '' };
      this.requests.push(seen);
      this.onRequest?.(seen);
      if (this.hang) return;
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET') {
        res.writeHead(405);
        return void res.end('method not allowed');
      }
      if (path === '/config_dump') {
        const body = typeof this.dump === 'string' ? this.dump : JSON.stringify(this.dump, null, 2);
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(body);
      }
      if (path === '/debug/config_dump') {
        const id = new URL(req.url ?? '/', 'http://x').searchParams.get('proxyID') ?? '';
        const d = this.debugDumps.get(id);
        res.writeHead(d === undefined ? 404 : 200, { 'content-type': 'application/json' });
        return void res.end(d === undefined ? 'Proxy not connected to this Pilot instance' : JSON.stringify(d));
      }
      if (path === '/server_info') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ version: 'fake/1.0', state: 'LIVE' }));
      }
      res.writeHead(404);
      res.end('invalid path');
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    if (addr && typeof addr === 'object') this.port = addr.port;
    this.server = server;
  }

  /** Closes the listener and every connection: a dial now gets ECONNREFUSED. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
