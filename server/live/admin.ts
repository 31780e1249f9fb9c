// Envoy admin (and istiod debug) GETs over a byte tunnel (a port-forward stream): the allow-list, and one
// HTTP/1.1 request with Node's own HTTP client on a Duplex the caller supplies (no hand-written parser).
// Bounded: a byte cap on the body and a deadline (enforced by the caller, which owns the tunnel).
import { request } from 'node:http';
import type { Duplex } from 'node:stream';
import { LiveError } from './types';

/**
 * The only admin paths ever sent to a pod's Envoy: read-only GETs (Envoy's admin also has POST handlers
 * such as /quitquitquit, /logging, /reset_counters; none of them is reachable from here).
 */
export const ENVOY_ADMIN_ALLOWED: readonly string[] = [
  '/config_dump',
  '/config_dump?include_eds',
  '/config_dump?include_eds=true',
  '/server_info',
  '/clusters?format=json',
];

/** istiod's debug endpoint for one proxy (pilot/pkg/xds/debug.go ConfigDump), the only istiod path sent. */
const ISTIOD_PATH = /^\/debug\/config_dump\?proxyID=[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export const isAllowedAdminPath = (path: string): boolean => ENVOY_ADMIN_ALLOWED.includes(path);
export const isAllowedIstiodPath = (path: string): boolean => ISTIOD_PATH.test(path);

export interface AdminAnswer {
  status: number;
  body: Buffer;
}

/**
 * GET `path` over `tunnel` (HTTP/1.1, `Connection: close`). Rejects with a LiveError: 502 `limit` past
 * `maxBytes`, 502 `admin` when the tunnel closes before a whole response arrived. Refuses any path off the
 * allow-lists before a byte is written.
 */
export function adminGet(tunnel: Duplex, path: string, maxBytes: number): Promise<AdminAnswer> {
  if (!isAllowedAdminPath(path) && !isAllowedIstiodPath(path))
    return Promise.reject(new LiveError(502, 'admin', `admin path ${path} is not on the allow-list`));
  return new Promise((resolve, reject) => {
    const req = request({
      method: 'GET',
      host: 'localhost',
      path,
      headers: { connection: 'close', accept: 'application/json' },
      createConnection: () => tunnel as never,
    });
    req.on('error', (e) => reject(new LiveError(502, 'admin', `admin GET ${path}: ${e.message}`)));
    req.on('response', (res) => {
      const declared = Number(res.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        reject(new LiveError(502, 'limit', `admin GET ${path}: body of ${declared} bytes is over the ${maxBytes}-byte cap`));
        return void res.destroy();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.byteLength;
        if (size > maxBytes) {
          reject(new LiveError(502, 'limit', `admin GET ${path}: body is over the ${maxBytes}-byte cap`));
          return void res.destroy();
        }
        chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', (e) => reject(new LiveError(502, 'admin', `admin GET ${path}: ${e.message}`)));
      res.on('aborted', () => reject(new LiveError(502, 'admin', `admin GET ${path}: the connection closed mid-body`)));
    });
    req.end();
  });
}
