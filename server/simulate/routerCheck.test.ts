// A bare route table walked as Envoy's route table check tool walks it (test/tools/router_check: its tests
// `Redirect` — Redirect.yaml + Redirect.golden.proto.json — and `Timeout`): no listener, no connection
// manager; x-forwarded-proto is the scheme as given (the tool's `ssl` input sets it and :scheme), and the
// `validate` fields come back under `routerCheck`, named as the tool names them. The route table here is
// written for this test with the same shapes (require_tls ALL / EXTERNAL_ONLY, host/path/prefix redirects,
// prefix rewrites, per-route timeouts); the expectations are the tool's rules for them.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfigDump } from '../envoy/dumpReader';
import { simulate } from './index';
import type { SimRequest } from './types';

const table = readConfigDump(
  parse(`
virtual_hosts:
- name: secure
  domains: [secure.example.org]
  require_tls: ALL
  routes:
  - match: {prefix: /}
    route: {cluster: web}
- name: api
  domains: [api.example.org]
  require_tls: EXTERNAL_ONLY
  routes:
  - match: {prefix: /old}
    route: {prefix_rewrite: /new/path, cluster: web}
  - match: {prefix: /}
    route: {cluster: web, timeout: 120s}
  virtual_clusters:
  - name: writes
    headers: [{name: ":method", string_match: {exact: POST}}]
- name: moves
  domains: [moves.example.org]
  routes:
  - match: {prefix: /host}
    redirect: {host_redirect: elsewhere.example.org}
  - match: {prefix: /path}
    redirect: {path_redirect: /moved}
  - match: {prefix: /both}
    redirect: {host_redirect: elsewhere.example.org, path_redirect: /moved_both}
  - match: {prefix: /gone}
    direct_response: {status: 410}
    response_headers_to_add: [{header: {key: x-why, value: retired}}]
`),
);

/** The tool's input: authority, path, method, `ssl` (x-forwarded-proto and :scheme), `internal` (x-envoy-internal). */
const check = (authority: string, path: string, opts: { ssl?: boolean; internal?: boolean; method?: string } = {}) =>
  simulate(table.config, {
    mode: 'outbound',
    port: 80,
    host: authority,
    path,
    ...(opts.method ? { method: opts.method } : {}),
    headers: { 'x-forwarded-proto': opts.ssl ? 'https' : 'http', ...(opts.internal ? { 'x-envoy-internal': 'true' } : {}) },
  } as SimRequest);

describe('router_check_tool Redirect, on a bare route table', () => {
  it('reads the bare RouteConfiguration as a route table', () => {
    expect(table.errors).toEqual([]);
    expect(table.config).toMatchObject({ routeTable: true, listeners: [] });
  });

  it('require_tls ALL: x-forwarded-proto https is served (no redirect); http is sent to https', () => {
    expect(check('secure.example.org', '/a', { ssl: true, internal: true })).toMatchObject({
      cluster: 'web',
      routerCheck: { path_redirect: '', cluster_name: 'web', virtual_host_name: 'secure' },
    });
    const r = check('secure.example.org', '/a');
    expect(r.error).toBe('tls required, sending 301');
    expect(r.routerCheck).toMatchObject({ path_redirect: 'https://secure.example.org/a', code_redirect: 301, cluster_name: '' });
  });

  it('require_tls EXTERNAL_ONLY: an internal request is served, an external one redirected', () => {
    expect(check('api.example.org', '/a', { internal: true }).routerCheck).toMatchObject({ path_redirect: '', cluster_name: 'web' });
    expect(check('api.example.org', '/a').routerCheck).toMatchObject({ path_redirect: 'https://api.example.org/a' });
  });

  it('a redirect keeps the scheme as given: http stays http, https stays https', () => {
    expect(check('moves.example.org', '/host').routerCheck?.path_redirect).toBe('http://elsewhere.example.org/host');
    expect(check('moves.example.org', '/path', { ssl: true }).routerCheck?.path_redirect).toBe('https://moves.example.org/moved');
    expect(check('moves.example.org', '/both', { ssl: true }).routerCheck?.path_redirect).toBe('https://elsewhere.example.org/moved_both');
  });

  it('path_rewrite / host_rewrite: the :path and host the router forwards (host unchanged without a rewrite)', () => {
    expect(check('api.example.org', '/old', { ssl: true }).routerCheck).toMatchObject({
      host_rewrite: 'api.example.org',
      virtual_host_name: 'api',
      path_rewrite: '/new/path',
      cluster_name: 'web',
    });
  });

  it('request_headers are what request_header_matches see: x-forwarded-proto as given, the rewritten :path', () => {
    const rc = check('api.example.org', '/old', { ssl: true }).routerCheck;
    expect(rc?.request_headers).toMatchObject({ 'x-forwarded-proto': 'https', ':scheme': 'https', ':path': '/new/path' });
  });

  it('a direct response: code_redirect is its status, response_headers what the route adds; no route entry fields', () => {
    expect(check('moves.example.org', '/gone').routerCheck).toMatchObject({
      code_redirect: 410,
      cluster_name: '',
      virtual_host_name: '',
      path_rewrite: '',
      response_headers: { ':status': '410', 'x-why': 'retired' },
    });
  });

  it('virtual_cluster_name: the matching virtual cluster, `other` when the host has some and none matches', () => {
    expect(check('api.example.org', '/x', { internal: true, method: 'POST' }).routerCheck?.virtual_cluster_name).toBe('writes');
    expect(check('api.example.org', '/x', { internal: true }).routerCheck?.virtual_cluster_name).toBe('other');
    expect(check('secure.example.org', '/x', { ssl: true }).routerCheck?.virtual_cluster_name).toBe('');
  });
});

describe('router_check_tool Timeout', () => {
  it("the route's timeout, Envoy's 15s default when the route sets none", () => {
    expect(check('api.example.org', '/any', { internal: true }).routerCheck?.timeout).toBe('120s');
    expect(check('secure.example.org', '/x', { ssl: true }).routerCheck?.timeout).toBe('15s');
    expect(check('moves.example.org', '/gone').routerCheck?.timeout).toBeUndefined();
  });
});
