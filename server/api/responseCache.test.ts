// Big bodies: gzip-encoded once for clients that accept gzip (RFC 9110 §12.5.3 Accept-Encoding, q=0 refuses),
// identity for the others; both decode to the same JSON toResponse would send.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { acceptsGzip, ResponseCache, SELF_COMPRESS_MIN_BYTES } from './responseCache';
import { ok } from './types';

const bigBody = () => ({
  version: 1,
  items: Array.from({ length: 40_000 }, (_, i) => ({ name: `outbound|9080||svc-${i}.ns.svc.cluster.local`, i })),
});

describe('acceptsGzip', () => {
  it('follows Accept-Encoding: listed codings, q=0 refusals and *', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0, br')).toBe(false);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });
});

describe('ResponseCache', () => {
  it('a big body is gzipped once for gzip clients and sent as identity to the others, same JSON either way', async () => {
    const cache = new ResponseCache();
    const snap = buildSnapshot([], { version: 1 });
    const body = bigBody();
    const json = JSON.stringify(body);
    expect(json.length).toBeGreaterThan(SELF_COMPRESS_MIN_BYTES);
    let produced = 0;
    const produce = () => {
      produced++;
      return ok(body);
    };
    const req = (enc?: string) => new Request('http://127.0.0.1/api/x', enc ? { headers: { 'accept-encoding': enc } } : {});
    for (let i = 0; i < 2; i++) {
      const r = await cache.respond(req('gzip, deflate'), snap, 'k', produce);
      expect(r.headers.get('content-encoding')).toBe('gzip');
      expect(r.headers.get('vary')).toBe('Accept-Encoding');
      const bytes = Buffer.from(await r.arrayBuffer());
      expect(Number(r.headers.get('content-length'))).toBe(bytes.length);
      expect(gunzipSync(bytes).toString()).toBe(json);
    }
    for (const enc of [undefined, 'br', 'gzip;q=0']) {
      const r = await cache.respond(req(enc), snap, 'k', produce);
      expect(r.headers.get('content-encoding')).toBeNull();
      expect(await r.text()).toBe(json);
    }
    expect(produced).toBe(1);
    expect(cache.stats).toEqual({ serialised: 1, compressed: 1 });
    // Another snapshot: nothing of the old one is served.
    await cache.respond(req('gzip'), buildSnapshot([], { version: 2 }), 'k', produce);
    expect(produced).toBe(2);
  });

  it('a small body is left to the HTTP server to compress (no Content-Encoding of its own)', async () => {
    const cache = new ResponseCache();
    const r = await cache.respond(
      new Request('http://127.0.0.1/api/x?pretty', { headers: { 'accept-encoding': 'gzip' } }),
      buildSnapshot([], { version: 1 }),
      'k',
      () => ok({ a: 1 }),
    );
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(await r.text()).toBe(JSON.stringify({ a: 1 }, null, 2));
  });

  it('is bounded by bytes: a body larger than the bound is served but not kept', async () => {
    const cache = new ResponseCache(1024);
    const snap = buildSnapshot([], { version: 1 });
    let produced = 0;
    const produce = () => {
      produced++;
      return ok({ s: 'x'.repeat(2000) });
    };
    await cache.respond(new Request('http://127.0.0.1/a'), snap, 'k', produce);
    await cache.respond(new Request('http://127.0.0.1/a'), snap, 'k', produce);
    expect(produced).toBe(2);
  });
});
