// The serialised body of a snapshot is reused until the snapshot changes; big bodies on a loopback-only server
// say Cache-Control no-transform (RFC 9111 §5.2.2.6: no intermediary, Next.js's compression included, may
// re-encode them), elsewhere they are left to the HTTP server to compress. Same JSON as toResponse either way.
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { toResponse } from './http';
import { isLoopbackAddress, ResponseCache, UNCOMPRESSED_MIN_BYTES } from './responseCache';
import { ok } from './types';

const bigBody = () => ({
  version: 1,
  items: Array.from({ length: 40_000 }, (_, i) => ({ name: `outbound|9080||svc-${i}.ns.svc.cluster.local`, i })),
});
const req = (q = '') => new Request(`http://127.0.0.1/api/x${q}`);

describe('isLoopbackAddress', () => {
  it('is true for 127/8, ::1 and localhost only', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].map(isLoopbackAddress)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '10.0.0.1', '128.0.0.1'].map(isLoopbackAddress)).toEqual([false, false, false, false]);
  });
});

describe('ResponseCache', () => {
  it('serialises once per snapshot: later requests get the same bytes; another snapshot produces again', async () => {
    const cache = new ResponseCache({ compressBig: false });
    const snap = buildSnapshot([], { version: 1 });
    const body = bigBody();
    let produced = 0;
    const produce = () => {
      produced++;
      return ok(body);
    };
    const expected = await toResponse(ok(body)).text();
    expect(expected.length).toBeGreaterThan(UNCOMPRESSED_MIN_BYTES);
    for (let i = 0; i < 3; i++) {
      const r = cache.respond(req(), snap, 'k', produce);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-store, no-transform');
      expect(await r.text()).toBe(expected);
    }
    expect(produced).toBe(1);
    expect(cache.stats.serialised).toBe(1);
    cache.respond(req(), buildSnapshot([], { version: 2 }), 'k', produce);
    expect(produced).toBe(2);
  });

  it('leaves small bodies, and big ones off loopback, to the HTTP server to compress; ?pretty as toResponse', async () => {
    const small = new ResponseCache({ compressBig: false }).respond(req('?pretty'), buildSnapshot([], { version: 1 }), 'k', () =>
      ok({ a: 1 }),
    );
    expect(small.headers.get('cache-control')).toBe('no-store');
    expect(await small.text()).toBe(await toResponse(ok({ a: 1 }), 'http://x/?pretty').text());
    const big = new ResponseCache({ compressBig: true }).respond(req(), buildSnapshot([], { version: 1 }), 'k', () => ok(bigBody()));
    expect(big.headers.get('cache-control')).toBe('no-store');
  });

  it('is bounded by bytes: a body larger than the bound is served but not kept', () => {
    const cache = new ResponseCache({ maxBytes: 1024 });
    const snap = buildSnapshot([], { version: 1 });
    let produced = 0;
    const produce = () => {
      produced++;
      return ok({ s: 'x'.repeat(2000) });
    };
    cache.respond(req(), snap, 'k', produce);
    cache.respond(req(), snap, 'k', produce);
    expect(produced).toBe(2);
  });
});
