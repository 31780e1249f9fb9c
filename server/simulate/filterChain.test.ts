// FilterChainMatch precedence per Envoy's listener_components.proto FilterChainMatch docs ("the most
// specific match wins at each step; chains not setting a criterion survive only if none matched it") and
// filter_chain_manager_impl.cc (no backtracking: a destination_port hit commits to that port's chains), plus
// detection by listener filters as Istio's simulator models it (traffic.go: no tls_inspector → raw_buffer,
// http_inspector sets http/1.1 or h2c for plaintext HTTP).
import { describe, expect, it } from 'vitest';
import type { EnvoyJson } from '../envoy/encode';
import { detect, selectFilterChain } from './filterChain';
import { matchChainName } from './chainMatcher';
import { normalizeRequest, type SimRequest } from './types';

const inspectors = [{ name: 'envoy.filters.listener.tls_inspector' }, { name: 'envoy.filters.listener.http_inspector' }];
const listener = (chains: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  ({ name: 'l', listener_filters: inspectors, filter_chains: chains, ...extra }) as unknown as EnvoyJson;
const chain = (name: string, filter_chain_match?: Record<string, unknown>) => ({
  name,
  ...(filter_chain_match ? { filter_chain_match } : {}),
});
const pick = (l: EnvoyJson, r: Partial<SimRequest>) => {
  const ctx = normalizeRequest({ mode: 'inbound', port: 80, ...r });
  return selectFilterChain(l, ctx, detect(l, ctx));
};

describe('selectFilterChain (FilterChainMatch order)', () => {
  it('destination_port match beats a chain without it', () => {
    const l = listener([chain('any'), chain('p80', { destination_port: 80 })]);
    expect(pick(l, { port: 80 }).name).toBe('p80');
    expect(pick(l, { port: 81 }).name).toBe('any');
  });
  it('no backtracking: port chain wins, later criterion fails → default chain, not the catch-all', () => {
    const l = listener([chain('any'), chain('p80-tls', { destination_port: 80, transport_protocol: 'tls' })], {
      default_filter_chain: { name: 'default' },
    });
    const r = pick(l, { port: 80 });
    expect(r.name).toBe('default');
    expect(r.rejected).toContainEqual({
      hop: 'filterChain',
      name: 'any',
      index: 0,
      reason: 'another chain matched destination_port more specifically',
    });
    expect(r.rejected).toContainEqual({
      hop: 'filterChain',
      name: 'p80-tls',
      index: 1,
      reason: 'transport_protocol tls does not match raw_buffer',
    });
  });
  it('no chain and no default → nothing', () => {
    expect(pick(listener([chain('p81', { destination_port: 81 })]), { port: 80 }).chain).toBeUndefined();
  });
  it('destination IP: longest prefix wins', () => {
    const l = listener([
      chain('wide', { prefix_ranges: [{ address_prefix: '10.0.0.0', prefix_len: 8 }] }),
      chain('narrow', { prefix_ranges: [{ address_prefix: '10.1.0.0', prefix_len: 16 }] }),
      chain('none'),
    ]);
    expect(pick(l, { address: '10.1.2.3' }).name).toBe('narrow');
    expect(pick(l, { address: '10.2.2.3' }).name).toBe('wide');
    expect(pick(l, { address: '192.168.0.1' }).name).toBe('none');
  });
  it('IPv6 prefix ranges', () => {
    const l = listener([chain('v6', { prefix_ranges: [{ address_prefix: 'fd00::', prefix_len: 8 }] }), chain('none')]);
    expect(pick(l, { address: 'fd12::1' }).name).toBe('v6');
    expect(pick(l, { address: '10.0.0.1' }).name).toBe('none');
  });
  it('server_names: exact, then longest wildcard, then none; SNI needs tls_inspector', () => {
    const l = listener([
      chain('none'),
      chain('short', { server_names: ['*.com'] }),
      chain('long', { server_names: ['*.example.com'] }),
      chain('exact', { server_names: ['www.example.com'] }),
    ]);
    expect(pick(l, { tls: 'tls', sni: 'www.example.com' }).name).toBe('exact');
    expect(pick(l, { tls: 'tls', sni: 'a.b.example.com' }).name).toBe('long');
    expect(pick(l, { tls: 'tls', sni: 'x.org.com' }).name).toBe('short');
    expect(pick(l, { tls: 'tls', sni: 'x.org' }).name).toBe('none');
    const noInspector = { ...l, listener_filters: [] } as EnvoyJson;
    expect(pick(noInspector, { tls: 'tls', sni: 'www.example.com' }).name).toBe('none');
  });
  it('SNI defaults to the host without port for TLS requests (traffic.go FillDefaults)', () => {
    const l = listener([chain('none'), chain('exact', { server_names: ['www.example.com'] })]);
    expect(pick(l, { tls: 'tls', host: 'www.example.com:443' }).name).toBe('exact');
  });
  it('transport_protocol: tls with tls_inspector, raw_buffer otherwise', () => {
    const l = listener([chain('raw', { transport_protocol: 'raw_buffer' }), chain('tls', { transport_protocol: 'tls' })]);
    expect(pick(l, { tls: 'tls' }).name).toBe('tls');
    expect(pick(l, {}).name).toBe('raw');
    expect(pick({ ...l, listener_filters: [] } as EnvoyJson, { tls: 'tls' }).name).toBe('raw');
  });
  it('application_protocols: http_inspector gives http/1.1 or h2c for plaintext; TLS uses the ALPN offered', () => {
    const l = listener([
      chain('h1', { application_protocols: ['http/1.1'] }),
      chain('h2c', { application_protocols: ['h2c'] }),
      chain('h2', { application_protocols: ['h2'] }),
      chain('tcp'),
    ]);
    expect(pick(l, { protocol: 'http' }).name).toBe('h1');
    expect(pick(l, { protocol: 'http2' }).name).toBe('h2c');
    expect(pick(l, { protocol: 'tcp' }).name).toBe('tcp');
    expect(pick(l, { protocol: 'http2', tls: 'tls' }).name).toBe('h2');
    expect(pick(l, { tls: 'tls', alpn: ['istio', 'http/1.1'] }).name).toBe('h1');
  });
  it('filter_disabled on the http_inspector for a port range disables detection (traffic.go hasFilterOnPort)', () => {
    const l = listener([chain('h1', { application_protocols: ['http/1.1'] }), chain('tcp')], {
      listener_filters: [
        { name: 'envoy.filters.listener.http_inspector', filter_disabled: { destination_port_range: { start: 80, end: 81 } } },
      ],
    });
    expect(pick(l, { port: 80 }).name).toBe('tcp');
    expect(pick(l, { port: 90 }).name).toBe('h1');
  });
  it('source_type EXTERNAL beats ANY for the (external) simulated client; SAME_IP_OR_LOOPBACK never matches', () => {
    const l = listener([chain('any'), chain('ext', { source_type: 'EXTERNAL' }), chain('local', { source_type: 'SAME_IP_OR_LOOPBACK' })]);
    expect(pick(l, {}).name).toBe('ext');
  });
});

describe('filter_chain_matcher (unified matcher)', () => {
  const action = (name: string) => ({
    action: { name, typed_config: { '@type': 'type.googleapis.com/google.protobuf.StringValue', value: name } },
  });
  const input = (t: string) => ({
    name: t,
    typed_config: { '@type': `type.googleapis.com/envoy.extensions.matching.common_inputs.network.v3.${t}` },
  });
  const matcher = {
    matcher_tree: {
      input: input('DestinationIPInput'),
      custom_match: {
        name: 'ip',
        typed_config: {
          '@type': 'type.googleapis.com/xds.type.matcher.v3.IPMatcher',
          range_matchers: [
            { ranges: [{ address_prefix: '10.0.0.0', prefix_len: 8 }], on_match: action('wide') },
            {
              ranges: [{ address_prefix: '10.0.0.1', prefix_len: 32 }],
              on_match: {
                matcher: {
                  matcher_tree: { input: input('DestinationPortInput'), exact_match_map: { map: { '9080': action('svc-9080') } } },
                },
              },
            },
            {
              ranges: [{ address_prefix: '10.0.0.2', prefix_len: 32 }],
              on_match: {
                matcher: {
                  matcher_tree: {
                    input: input('ApplicationProtocolInput'),
                    exact_match_map: { map: { "'h2c'": action('http'), "'http/1.1'": action('http') } },
                  },
                  on_no_match: action('tcp'),
                },
              },
            },
          ],
        },
      },
    },
    on_no_match: action('fallback'),
  } as unknown as EnvoyJson;
  const l = listener([]);
  const name = (r: Partial<SimRequest>) => {
    const ctx = normalizeRequest({ mode: 'inbound', port: 80, ...r });
    return matchChainName(matcher, ctx, detect(l, ctx));
  };
  it('most specific IP range, then the nested port map', () => expect(name({ address: '10.0.0.1', port: 9080 })).toBe('svc-9080'));
  it('nested miss falls through to the next (less specific) range', () => expect(name({ address: '10.0.0.1', port: 1 })).toBe('wide'));
  it("ApplicationProtocolInput is the quoted ALPN list ('h2c')", () =>
    expect(name({ address: '10.0.0.2', protocol: 'http2' })).toBe('http'));
  it('nested on_no_match', () => expect(name({ address: '10.0.0.2', protocol: 'tcp' })).toBe('tcp'));
  it('outer on_no_match', () => expect(name({ address: '192.168.1.1' })).toBe('fallback'));
  it('an exclusive less specific range is not used when a more specific one exists (ip.proto exclusive)', () => {
    const m = structuredClone(matcher) as unknown as {
      matcher_tree: { custom_match: { typed_config: { range_matchers: { exclusive?: boolean }[] } } };
    };
    const first = m.matcher_tree.custom_match.typed_config.range_matchers[0];
    if (first) first.exclusive = true;
    const ctx = normalizeRequest({ mode: 'inbound', address: '10.0.0.1', port: 1 });
    expect(matchChainName(m as unknown as EnvoyJson, ctx, detect(l, ctx))).toBe('fallback');
  });
});
