// The trace form ↔ URL ↔ simulator request (DESIGN.md §3 `meshscope simulate` flags: mode, port, host,
// path, method, -H, protocol, tls, sni, address).
import { describe, expect, it } from 'vitest';
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import { defaultMode, emptyForm, formFromParams, formToParams, formToRequest, hasTrace } from './form';

describe('trace form URL state', () => {
  it('reads the documented deep link ?tab=trace&host=…&h=end-user:jason', () => {
    const p = new URLSearchParams('tab=trace&host=reviews:9080&path=/reviews/1&h=end-user:jason');
    const f = formFromParams(p, 'outbound');
    expect(f).toMatchObject({ mode: 'outbound', host: 'reviews:9080', path: '/reviews/1', method: 'GET', headers: ['end-user: jason'] });
    expect(hasTrace(p)).toBe(true);
    expect(hasTrace(new URLSearchParams('tab=trace'))).toBe(false);
  });

  it('round-trips through the URL, keeps other parameters, leaves defaults out', () => {
    const f = {
      ...emptyForm('outbound'),
      host: 'reviews:9080',
      path: '/reviews/1',
      headers: ['end-user: jason', 'x-b: a:b'],
      tls: 'tls' as const,
    };
    const p = formToParams(f, new URLSearchParams('tab=trace&mode=gateway&other=1'), 'outbound');
    expect(p.toString()).toBe('tab=trace&other=1&host=reviews%3A9080&path=%2Freviews%2F1&h=end-user%3Ajason&h=x-b%3Aa%3Ab&tls=tls');
    expect(formFromParams(p, 'outbound')).toEqual(f);
  });

  it('unknown enum values fall back to defaults', () => {
    expect(formFromParams(new URLSearchParams('mode=sideways&protocol=gopher&tls=maybe'), 'gateway')).toMatchObject({
      mode: 'gateway',
      protocol: 'http',
      tls: 'plaintext',
    });
  });
});

describe('formToRequest', () => {
  it('port from the form, else from host:port, else 80 (443 with TLS)', () => {
    expect(formToRequest({ ...emptyForm('outbound'), host: 'reviews:9080' }).request?.port).toBe(9080);
    expect(formToRequest({ ...emptyForm('outbound'), host: 'reviews:9080', port: '80' }).request?.port).toBe(80);
    expect(formToRequest({ ...emptyForm('gateway'), host: 'example.com' }).request?.port).toBe(80);
    expect(formToRequest({ ...emptyForm('gateway'), host: 'example.com', tls: 'tls' }).request?.port).toBe(443);
  });

  it('headers lower-cased by name; method upper-cased; optional fields only when set', () => {
    const r = formToRequest({ ...emptyForm('outbound'), host: 'reviews', method: 'post', headers: ['End-User: jason', ''] }).request;
    expect(r).toEqual({
      mode: 'outbound',
      port: 80,
      host: 'reviews',
      path: '/',
      method: 'POST',
      protocol: 'http',
      tls: 'plaintext',
      headers: { 'end-user': 'jason' },
    });
  });

  it('says what is wrong instead of sending a bad request', () => {
    expect(formToRequest({ ...emptyForm('outbound'), port: 'x' }).error).toMatch(/port/);
    expect(formToRequest({ ...emptyForm('outbound'), port: '70000' }).error).toMatch(/port/);
    expect(formToRequest({ ...emptyForm('outbound'), path: 'reviews' }).error).toMatch(/path/);
    expect(formToRequest({ ...emptyForm('outbound'), headers: ['nocolon'] }).error).toMatch(/header/);
  });
});

describe('defaultMode', () => {
  const cfg = (names: string[]): EnvoyConfig => ({ listeners: names.map((name) => ({ name })), routes: [], clusters: [], endpoints: [] });
  it('sidecars (virtualOutbound, Istio listener on 15001) trace outbound; gateways as gateway', () => {
    expect(defaultMode(cfg(['virtualOutbound', '0.0.0.0_9080']))).toBe('outbound');
    expect(defaultMode(cfg(['0.0.0.0_8080']))).toBe('gateway');
    expect(defaultMode(cfg([]))).toBe('outbound');
  });
});

describe('trace form: the caller identity', () => {
  it('round-trips through the URL and reaches the request as sourcePrincipal / sourceNamespace / sourceIp', () => {
    const f = {
      ...emptyForm('inbound'),
      port: '9080',
      sourcePrincipal: 'cluster.local/ns/default/sa/x',
      sourceNamespace: 'default',
      sourceIp: '10.0.0.1',
    };
    const p = formToParams(f, new URLSearchParams('tab=trace'), 'outbound');
    expect(p.get('from')).toBe('cluster.local/ns/default/sa/x');
    expect(formFromParams(p, 'outbound')).toEqual(f);
    expect(formToRequest(f).request).toMatchObject({
      sourcePrincipal: 'cluster.local/ns/default/sa/x',
      sourceNamespace: 'default',
      sourceIp: '10.0.0.1',
    });
    expect(formToRequest(emptyForm('inbound')).request?.sourcePrincipal).toBeUndefined();
  });
});

// DESIGN.md §3 `--tls plaintext|tls|mtls`: the form's TLS select round-trips through the URL into the request.
describe('trace form: tls mtls', () => {
  it('keeps tls=mtls from the URL and sends it as the request tls (port default stays 80)', () => {
    const f = formFromParams(new URLSearchParams('tls=mtls&host=reviews'), 'inbound');
    expect(f.tls).toBe('mtls');
    expect(formToParams(f, new URLSearchParams(), 'inbound').get('tls')).toBe('mtls');
    expect(formToRequest(f).request).toMatchObject({ tls: 'mtls', port: 80 });
    expect(formFromParams(new URLSearchParams('tls=bogus'), 'inbound').tls).toBe('plaintext');
  });
});
