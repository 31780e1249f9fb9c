// Preloaded into the Next.js server by `meshscope serve` (node --import): every HTTP request gets the
// header x-meshscope-peer set to its socket's remote address, overwriting whatever the client sent,
// before Next.js sees it. Header sign-in (`--auth header`) trusts user headers only from peers in its
// CIDRs (server/auth/peer.ts); Next.js itself gives route handlers no socket and keeps a client's own
// X-Forwarded-For, so this is the one place the peer address enters.
import http from 'node:http';
import https from 'node:https';

const HEADER = 'x-meshscope-peer';

const stamp = (listener) =>
  typeof listener !== 'function'
    ? listener
    : function stamped(req, res) {
        req.headers[HEADER] = req.socket?.remoteAddress ?? '';
        return listener.call(this, req, res);
      };

for (const mod of [http, https]) {
  const original = mod.createServer;
  mod.createServer = function createServer(...args) {
    const at = args.findIndex((a) => typeof a === 'function');
    if (at >= 0) args[at] = stamp(args[at]);
    const server = original.apply(this, args);
    if (at < 0) {
      // A listener added later with server.on('request', fn) is wrapped the same way.
      const on = server.on;
      server.on = function (event, fn) {
        return on.call(this, event, event === 'request' ? stamp(fn) : fn);
      };
      server.addListener = server.on;
    }
    return server;
  };
}
