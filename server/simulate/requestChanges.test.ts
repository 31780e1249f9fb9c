// What the router does to the forwarded request, and the scheme it sees: checked against Envoy's rules —
// x-forwarded-proto trusted only with xff_num_trusted_hops > 0, else set from the connection (Envoy docs
// http_conn_man/headers#x-forwarded-proto; conn_manager_utility.cc); require_tls decided on x-forwarded-proto
// (config_impl.cc VirtualHostImpl::getRouteFromEntries); redirect scheme from :scheme (Utility::newUri);
// prefix_rewrite replaces the matched prefix (also path_separated_prefix), regex_rewrite works on the path
// without its query; header parsers applied route → virtual host → route configuration, removals before
// additions (header_parser.cc), reversed by most_specific_header_mutations_wins; the first matching virtual
// cluster, else `other` (VirtualHostImpl::virtualClusterFromEntries).
import { describe, expect, it } from 'vitest';
import type { EnvoyConfig } from '../envoy/dumpReader';
import type { EnvoyJson } from '../envoy/encode';
import { simulate } from './index';

const HCM = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';

function config(routeConfig: EnvoyJson, hcmExtra: EnvoyJson = {}): EnvoyConfig {
  return {
    listeners: [
      {
        name: '0.0.0.0_8080',
        address: { socket_address: { address: '0.0.0.0', port_value: 8080 } },
        filter_chains: [
          {
            filters: [
              {
                name: 'envoy.filters.network.http_connection_manager',
                typed_config: {
                  '@type': HCM,
                  stat_prefix: 'x',
                  rds: { route_config_name: 'http.8080', config_source: { ads: {} } },
                  ...hcmExtra,
                },
              },
            ],
          },
        ],
      },
    ],
    routes: [{ name: 'http.8080', ...routeConfig }],
    clusters: [{ name: 'web', type: 'STATIC', load_assignment: { cluster_name: 'web', endpoints: [] } }],
    endpoints: [],
  } as unknown as EnvoyConfig;
}

const req = (path: string, headers: Record<string, string> = {}) =>
  ({ mode: 'gateway', port: 8080, host: 'shop.example.com', path, headers, protocol: 'http' }) as const;

describe('x-forwarded-proto and require_tls', () => {
  const rc = {
    virtual_hosts: [
      { name: 'shop:80', domains: ['*'], require_tls: 'ALL', routes: [{ match: { prefix: '/' }, route: { cluster: 'web' } }] },
    ],
  };

  it('plaintext without trusted hops: 301 even when the client claims https (Envoy overwrites the header)', () => {
    expect(simulate(config(rc), req('/a')).error).toBe('tls required, sending 301');
    expect(simulate(config(rc), req('/a', { 'x-forwarded-proto': 'https' })).error).toBe('tls required, sending 301');
  });

  it('with xff_num_trusted_hops > 0 a downstream x-forwarded-proto: https is trusted (TLS terminated before Envoy)', () => {
    const c = config(rc, { xff_num_trusted_hops: 1 });
    const r = simulate(c, req('/a', { 'x-forwarded-proto': 'https' }));
    expect(r.error).toBeUndefined();
    expect(r.cluster).toBe('web');
    expect(simulate(c, req('/a', { 'x-forwarded-proto': 'http' })).error).toBe('tls required, sending 301');
    expect(simulate(c, req('/a')).error).toBe('tls required, sending 301');
  });

  it('route redirects keep the request scheme, which follows a trusted x-forwarded-proto', () => {
    const redirect = {
      virtual_hosts: [{ name: 'r', domains: ['*'], routes: [{ match: { prefix: '/' }, redirect: { path_redirect: '/new' } }] }],
    };
    expect(simulate(config(redirect), req('/old', { 'x-forwarded-proto': 'https' })).redirect?.location).toBe(
      'http://shop.example.com/new',
    );
    expect(simulate(config(redirect, { xff_num_trusted_hops: 1 }), req('/old', { 'x-forwarded-proto': 'https' })).redirect?.location).toBe(
      'https://shop.example.com/new',
    );
  });

  it('a prefix_rewrite redirect on a path_separated_prefix match replaces that prefix', () => {
    const redirect = {
      virtual_hosts: [
        { name: 'r', domains: ['*'], routes: [{ match: { path_separated_prefix: '/old' }, redirect: { prefix_rewrite: '/new' } }] },
      ],
    };
    expect(simulate(config(redirect), req('/old/x')).redirect?.location).toBe('http://shop.example.com/new/x');
  });
});

describe('rewrites', () => {
  const route = (match: EnvoyJson, action: EnvoyJson) => ({
    virtual_hosts: [{ name: 'v', domains: ['*'], routes: [{ match, route: { cluster: 'web', ...action } }] }],
  });

  it('prefix_rewrite replaces the matched prefix / path_separated_prefix, keeping the query', () => {
    expect(simulate(config(route({ prefix: '/api/' }, { prefix_rewrite: '/' })), req('/api/v1?x=1')).rewrite).toEqual({ path: '/v1?x=1' });
    expect(simulate(config(route({ path_separated_prefix: '/api' }, { prefix_rewrite: '/v2' })), req('/api/users')).rewrite).toEqual({
      path: '/v2/users',
    });
    expect(simulate(config(route({ path: '/exact' }, { prefix_rewrite: '/other' })), req('/exact')).rewrite).toEqual({ path: '/other' });
  });

  it('regex_rewrite substitutes on the path without its query (RE2 \\N back-references)', () => {
    const r = simulate(
      config(
        route({ prefix: '/' }, { regex_rewrite: { pattern: { regex: '^/service/([^/]+)(/.*)$' }, substitution: '\\2/instance/\\1' } }),
      ),
      req('/service/foo/v1/api?q=1'),
    );
    expect(r.rewrite).toEqual({ path: '/v1/api/instance/foo?q=1' });
  });

  it('host rewrites: literal, from a header, auto', () => {
    expect(simulate(config(route({ prefix: '/' }, { host_rewrite_literal: 'internal.svc' })), req('/')).rewrite).toEqual({
      host: 'internal.svc',
    });
    expect(
      simulate(config(route({ prefix: '/' }, { host_rewrite_header: 'x-host' })), req('/', { 'x-host': 'h.example' })).rewrite,
    ).toEqual({
      host: 'h.example',
    });
    expect(simulate(config(route({ prefix: '/' }, { auto_host_rewrite: true })), req('/')).rewrite).toEqual({ autoHost: true });
  });

  it('no rewrite field when the route rewrites nothing', () => {
    expect(simulate(config(route({ prefix: '/' }, {})), req('/')).rewrite).toBeUndefined();
  });
});

describe('request header changes', () => {
  const add = (key: string, value: string, append_action?: string) => ({
    header: { key, value },
    ...(append_action ? { append_action } : {}),
  });
  const rc = (mostSpecificWins: boolean) => ({
    ...(mostSpecificWins ? { most_specific_header_mutations_wins: true } : {}),
    request_headers_to_add: [add('x-level', 'routeConfig', 'OVERWRITE_IF_EXISTS_OR_ADD')],
    virtual_hosts: [
      {
        name: 'v',
        domains: ['*'],
        request_headers_to_add: [add('x-level', 'virtualHost', 'OVERWRITE_IF_EXISTS_OR_ADD')],
        routes: [
          {
            match: { prefix: '/' },
            route: { cluster: 'web' },
            request_headers_to_remove: ['x-debug'],
            request_headers_to_add: [
              add('x-level', 'route', 'OVERWRITE_IF_EXISTS_OR_ADD'),
              add('x-trace', 'on'),
              { header: { key: 'x-old', value: '1' }, append: false },
            ],
          },
        ],
      },
    ],
  });

  it('route first (removals, then additions), then virtual host, then route configuration', () => {
    expect(simulate(config(rc(false)), req('/')).requestHeaders).toEqual([
      { op: 'remove', name: 'x-debug', from: 'route' },
      { op: 'set', name: 'x-level', value: 'route', from: 'route' },
      { op: 'append', name: 'x-trace', value: 'on', from: 'route' },
      { op: 'set', name: 'x-old', value: '1', from: 'route' },
      { op: 'set', name: 'x-level', value: 'virtualHost', from: 'virtualHost' },
      { op: 'set', name: 'x-level', value: 'routeConfig', from: 'routeConfig' },
    ]);
  });

  it('most_specific_header_mutations_wins: route configuration first, route last', () => {
    const froms = simulate(config(rc(true)), req('/')).requestHeaders?.map((c) => c.from);
    expect(froms).toEqual(['routeConfig', 'virtualHost', 'route', 'route', 'route', 'route']);
  });
});

describe('virtual clusters', () => {
  const rc = {
    virtual_hosts: [
      {
        name: 'v',
        domains: ['*'],
        routes: [{ match: { prefix: '/' }, route: { cluster: 'web' } }],
        virtual_clusters: [
          { name: 'writes', headers: [{ name: ':method', string_match: { exact: 'POST' } }] },
          { name: 'api', headers: [{ name: ':path', string_match: { prefix: '/api' } }] },
        ],
      },
    ],
  };

  it('the first virtual cluster whose headers match, else other; absent when the vhost has none', () => {
    expect(simulate(config(rc), { ...req('/api/x'), method: 'POST' }).virtualCluster).toBe('writes');
    expect(simulate(config(rc), req('/api/x')).virtualCluster).toBe('api');
    expect(simulate(config(rc), req('/x')).virtualCluster).toBe('other');
    const none = { virtual_hosts: [{ name: 'v', domains: ['*'], routes: [{ match: { prefix: '/' }, route: { cluster: 'web' } }] }] };
    expect(simulate(config(none), req('/x')).virtualCluster).toBeUndefined();
  });
});
