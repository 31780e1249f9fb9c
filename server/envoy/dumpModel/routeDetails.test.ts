// routeDetails is the one reading of a Route's extras, shared by the API tables and the UI rows (they had
// drifted: the UI dropped retry_on, mirror targets, the redirect's response code and prefix rewrite).
// Expected values follow Envoy's route_components.proto: RetryPolicy.num_retries defaults to 1;
// RedirectAction's scheme is https_redirect | scheme_redirect, its path path_redirect | prefix_rewrite |
// regex_rewrite, and response_code defaults to MOVED_PERMANENTLY (301).
import { describe, expect, it } from 'vitest';
import { routeRows } from './rows';
import { routeAction, routeDetails, summarizeRouteConfig } from './routes';

describe('routeDetails (Envoy RouteAction / RedirectAction semantics)', () => {
  it('retries: num_retries defaults to 1; retry_on is shown when set', () => {
    expect(routeDetails({ route: { cluster: 'c', retry_policy: { retry_on: '5xx' } } })).toEqual(['retries 1 on 5xx']);
    expect(routeDetails({ route: { cluster: 'c', retry_policy: { num_retries: 3 } } })).toEqual(['retries 3']);
  });
  it('rewrites: prefix, regex and host literal; mirrors by cluster', () => {
    expect(
      routeDetails({
        route: {
          cluster: 'c',
          timeout: '0s',
          prefix_rewrite: '/v2/',
          regex_rewrite: { pattern: { regex: '^/a/(.*)' }, substitution: '/\\1' },
          host_rewrite_literal: 'new.host',
          request_mirror_policies: [{ cluster: 'm1' }, { cluster: 'm2', runtime_fraction: {} }],
        },
      }),
    ).toEqual(['timeout 0s', 'rewrite prefix → /v2/', 'rewrite regex ^/a/(.*) → /\\1', 'rewrite host → new.host', 'mirror m1, m2']);
  });
  it('redirects: https_redirect is the scheme; response_code defaults to MOVED_PERMANENTLY', () => {
    expect(routeDetails({ redirect: { https_redirect: true } })).toEqual(['redirect https MOVED_PERMANENTLY']);
    expect(routeDetails({ redirect: { host_redirect: 'b.example', path_redirect: '/x', response_code: 'FOUND' } })).toEqual([
      'redirect b.example /x FOUND',
    ]);
    expect(routeDetails({ redirect: { scheme_redirect: 'http', port_redirect: 8080, prefix_rewrite: '/new/' } })).toEqual([
      'redirect http port 8080 prefix → /new/ MOVED_PERMANENTLY',
    ]);
    expect(routeDetails({ redirect: {} })).toEqual(['redirect (same) MOVED_PERMANENTLY']);
  });
  it('direct response status and per-filter config', () => {
    expect(routeDetails({ direct_response: { status: 503 }, typed_per_filter_config: { 'envoy.filters.http.fault': {} } })).toEqual([
      'status 503',
      'per-filter: envoy.filters.http.fault',
    ]);
  });
  it('the action is the set member of the oneof', () => {
    expect([{ route: {} }, { redirect: {} }, { direct_response: {} }, { filter_action: {} }, {}].map(routeAction)).toEqual([
      'route',
      'redirect',
      'direct_response',
      'filter_action',
      '(none)',
    ]);
  });
  it('the API tables and the UI rows read a route the same way', () => {
    const route = {
      name: 'r',
      match: { prefix: '/' },
      route: { cluster: 'c', retry_policy: { retry_on: 'gateway-error', num_retries: 2 }, request_mirror_policies: [{ cluster: 'm' }] },
    };
    const rc = { name: 'rc', virtual_hosts: [{ name: 'vh', domains: ['*'], routes: [route] }] };
    const table = summarizeRouteConfig(rc).virtualHosts[0]?.routes[0];
    const row = routeRows([rc])[0];
    expect(table?.details).toEqual(['retries 2 on gateway-error', 'mirror m']);
    expect(row?.details).toBe(table?.details.join('; '));
    expect(row?.action).toBe(table?.action);
  });
});
