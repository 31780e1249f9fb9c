// The proxy page fetches only what it shows: its rows come from the config dump (server/envoy/dumpModel),
// so the detail request leaves the summary tables out (`?tables=0`, app/api/proxies/[id]/route.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchProxy } from './fetchers';

describe('fetchProxy', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('asks for the proxy without its summary tables', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    await fetchProxy('productpage-v1.default');
    expect(urls).toEqual(['/api/proxies/productpage-v1.default?tables=0']);
  });
});
