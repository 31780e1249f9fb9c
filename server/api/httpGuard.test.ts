// The request rules proxy.ts applies (issue 14 items 8, 10, 11), checked against the standards they
// come from: WHATWG Encoding (strict UTF-8: overlong forms and surrogates are errors), RFC 3986 §2.1
// (a `%` is followed by two hex digits), RFC 9110 §9.2.1 (safe methods), Fetch Metadata
// (`Sec-Fetch-Site`), CSP Level 3 (nonce + 'strict-dynamic', frame-ancestors).
import { describe, expect, it } from 'vitest';
import { AUTH_COOKIE, bearerToken, checkBearer, isAuthenticated, secretsEqual, sessionCookie, sessionValue } from './auth';
import {
  checkTarget,
  checkUnsafe,
  contentSecurityPolicy,
  hostAllowed,
  hostName,
  hostPolicy,
  securityHeaders,
  strictDecode,
} from './httpGuard';
import { readJsonBody, readLimited } from './http';
import { loginPage, safeNext } from './loginPage';

describe('checkTarget (item 8: bad ids are 400, long URLs 414)', () => {
  it('refuses malformed percent-encoding and bytes that are not UTF-8 with 400', () => {
    for (const bad of [
      '/api/proxies/%FF',
      '/api/proxies/%E0%A4%A',
      '/api/proxies/%zz',
      '/api/proxies/%',
      '/proxies/%C0%AF',
      '/x/%ED%A0%80',
    ]) {
      expect(checkTarget(bad)?.status, bad).toBe(400);
    }
    expect(checkTarget('/debug/config_dump?proxyID=%FF')?.status).toBe(400);
    expect(checkTarget('/api/proxies/a%00b')?.status).toBe(400);
  });

  it('accepts well-formed escapes, UTF-8 and plain ids', () => {
    for (const ok of ['/api/proxies/productpage-v1-1.default', '/api/proxies/%25', '/api/proxies/%C3%A9', '/x?q=a+b&r=%E2%82%AC', '/']) {
      expect(checkTarget(ok), ok).toBeUndefined();
    }
    expect(strictDecode('%E2%82%AC')).toBe('€');
    expect(strictDecode('%25')).toBe('%');
  });

  it('answers 414 past 48 KiB of path and query (a long sandbox draft link still fits)', () => {
    expect(checkTarget(`/api/proxies?x=${'a'.repeat(48 * 1024)}`)?.status).toBe(414);
    expect(checkTarget(`/sandbox?d=${'a'.repeat(40_000)}`)).toBeUndefined();
  });
});

describe('hostAllowed (item 10: DNS rebinding)', () => {
  const none = () => [];
  it('accepts the loopback names and the bound address, with or without port', () => {
    const p = hostPolicy('127.0.0.1');
    for (const h of ['localhost:3000', 'LOCALHOST', '127.0.0.1:3000', '[::1]:3000', '127.0.0.1'])
      expect(hostAllowed(h, p, none), h).toBe(true);
  });

  it('refuses any other name: a rebinding page reaches the server under its own name', () => {
    const p = hostPolicy('127.0.0.1');
    for (const h of ['evil.example', 'evil.example:3000', 'localhost.evil.example', '10.0.0.5:3000', '', 'localhost.']) {
      expect(hostAllowed(h, p, none), h).toBe(false);
    }
    expect(hostAllowed(null, p, none)).toBe(false);
  });

  it('accepts --allowed-host names; on a wildcard bind, the machine own addresses (kubelet probes use the pod IP)', () => {
    const p = hostPolicy('0.0.0.0', ['meshscope.meshscope.svc', 'Mesh.Example']);
    expect(hostAllowed('meshscope.meshscope.svc:3000', p, none)).toBe(true);
    expect(hostAllowed('mesh.example', p, none)).toBe(true);
    expect(hostAllowed('10.1.2.3:3000', p, () => ['10.1.2.3', 'fe80::1'])).toBe(true);
    expect(hostAllowed('[fe80::1]:3000', p, () => ['10.1.2.3', 'fe80::1'])).toBe(true);
    expect(hostAllowed('10.9.9.9:3000', p, () => ['10.1.2.3'])).toBe(false);
    // Not on a loopback bind: the interface addresses are not even asked.
    expect(hostAllowed('10.1.2.3', hostPolicy('127.0.0.1'), () => ['10.1.2.3'])).toBe(false);
    expect(hostName('[::1]:80')).toBe('[::1]');
    expect(hostPolicy('::1').names.has('[::1]')).toBe(true);
  });
});

describe('checkUnsafe (item 10: same-origin JSON POSTs)', () => {
  const h = (o: Record<string, string>) => new Headers({ host: '127.0.0.1:3000', ...o });
  it('refuses cross-site requests by Sec-Fetch-Site or Origin (403), and non-JSON bodies (415)', () => {
    expect(checkUnsafe('POST', h({ 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }))?.status).toBe(403);
    expect(checkUnsafe('POST', h({ 'sec-fetch-site': 'same-site', 'content-type': 'application/json' }))?.status).toBe(403);
    expect(checkUnsafe('POST', h({ origin: 'http://evil.example', 'content-type': 'application/json' }))?.status).toBe(403);
    expect(checkUnsafe('POST', h({ origin: 'null', 'content-type': 'application/json' }))?.status).toBe(403);
    expect(checkUnsafe('POST', h({ 'content-type': 'text/plain' }))?.status).toBe(415);
    expect(checkUnsafe('POST', h({ 'content-type': 'application/x-www-form-urlencoded' }))?.status).toBe(415);
    expect(checkUnsafe('DELETE', h({ origin: 'http://evil.example' }), { hasBody: false })?.status).toBe(403);
  });

  it('accepts same-origin browser requests and non-browser clients with JSON', () => {
    expect(
      checkUnsafe('POST', h({ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' })),
    ).toBeUndefined();
    expect(checkUnsafe('POST', h({ 'content-type': 'application/json; charset=utf-8' }))).toBeUndefined();
    expect(checkUnsafe('GET', h({ origin: 'http://evil.example' }))).toBeUndefined();
    expect(
      checkUnsafe('POST', h({ 'content-type': 'application/x-www-form-urlencoded' }), { hasBody: true, allowForm: true }),
    ).toBeUndefined();
    // Behind a proxy that rewrites Host, the browser-facing host arrives as X-Forwarded-Host.
    const fwd = h({ origin: 'https://mesh.example', 'x-forwarded-host': 'mesh.example', 'content-type': 'application/json' });
    expect(checkUnsafe('POST', fwd)).toBeUndefined();
  });
});

describe('security headers (item 11)', () => {
  it('nonce-based script-src, no framing, nosniff, no referrer', () => {
    const csp = contentSecurityPolicy('abc123');
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy('n', true)).toContain("'unsafe-eval'");
    const hs = securityHeaders('n');
    expect(hs['x-content-type-options']).toBe('nosniff');
    expect(hs['referrer-policy']).toBe('no-referrer');
  });
});

describe('auth (item 12)', () => {
  const req = (headers: Record<string, string>) => ({ headers: new Headers(headers) });
  it('checkBearer: the exact token only; never true when no token is configured', () => {
    expect(checkBearer(req({ authorization: 'Bearer s3cret' }), 's3cret')).toBe(true);
    expect(checkBearer(req({ authorization: 'bearer s3cret' }), 's3cret')).toBe(true);
    expect(checkBearer(req({ authorization: 'Bearer s3cre' }), 's3cret')).toBe(false);
    expect(checkBearer(req({ authorization: 'Basic czNjcmV0' }), 's3cret')).toBe(false);
    expect(checkBearer(req({}), 's3cret')).toBe(false);
    expect(checkBearer(req({ authorization: 'Bearer x' }), undefined)).toBe(false);
    expect(bearerToken(new Headers({ authorization: 'Bearer a b' }))).toBeUndefined();
  });

  it('the session cookie is an HMAC of the token (not the token), HttpOnly and SameSite=Strict', () => {
    const c = sessionCookie('s3cret', false);
    expect(c).toMatch(/HttpOnly/);
    expect(c).toMatch(/SameSite=Strict/);
    expect(c).not.toMatch(/Secure/);
    expect(sessionCookie('s3cret', true)).toMatch(/; Secure/);
    expect(c).not.toContain('s3cret');
    expect(isAuthenticated(req({ cookie: `a=b; ${AUTH_COOKIE}=${sessionValue('s3cret')}` }), 's3cret')).toBe(true);
    expect(isAuthenticated(req({ cookie: `${AUTH_COOKIE}=s3cret` }), 's3cret')).toBe(false);
    expect(isAuthenticated(req({}), undefined)).toBe(true);
    expect(secretsEqual('a', 'a')).toBe(true);
    expect(secretsEqual('a', 'ab')).toBe(false);
  });

  it('the login page only returns to same-origin paths and escapes what it echoes', () => {
    expect(safeNext('/proxies?x=1')).toBe('/proxies?x=1');
    for (const bad of ['//evil.example', 'https://evil.example', '/\\evil.example', '', null]) expect(safeNext(bad)).toBe('/');
    const page = loginPage({ nonce: 'n1', next: '/"><script>x</script>', error: '<b>' });
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;b&gt;');
    expect(page).toContain('<style nonce="n1">');
  });
});

describe('readLimited / readJsonBody (item 8: 413 while streaming)', () => {
  /** A stream of `n` chunks of `size` bytes that counts how many were pulled. */
  const source = (n: number, size: number) => {
    const state = { pulled: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (state.pulled >= n) return c.close();
        state.pulled++;
        c.enqueue(new Uint8Array(size).fill(0x20));
      },
    });
    return { stream, state };
  };

  it('stops reading as soon as the limit is passed (a 275 MB body is not read to the end)', async () => {
    const { stream, state } = source(275 * 16, 64 * 1024);
    expect(await readLimited(stream, 8 * 1024 * 1024)).toEqual({ tooLarge: true });
    expect(state.pulled).toBeLessThanOrEqual(8 * 16 + 2);
    const small = source(2, 10);
    expect((await readLimited(small.stream, 20)).bytes?.byteLength).toBe(20);
  });

  it('413 beyond the limit (declared or streamed), 400 for non-UTF-8 or non-JSON, the value otherwise', async () => {
    const post = (body: BodyInit, headers: Record<string, string> = {}) => new Request('http://x/', { method: 'POST', body, headers });
    expect((await readJsonBody(post('{"a":1}'), 100)).body).toEqual({ a: 1 });
    expect((await readJsonBody(post('x'.repeat(101)), 100)).error?.status).toBe(413);
    expect((await readJsonBody(post('{}', { 'content-length': '5000' }), 100)).error?.status).toBe(413);
    expect((await readJsonBody(post(new Uint8Array([0x22, 0xff, 0x22])), 100)).error).toMatchObject({
      status: 400,
      body: { error: 'request body is not UTF-8' },
    });
    expect((await readJsonBody(post('{'), 100)).error?.status).toBe(400);
  });
});
