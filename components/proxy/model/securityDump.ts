// What a config dump says about transport security, for the Security tab: per inbound port, which chains
// accept plaintext and which terminate TLS (mTLS when they require a client certificate), with the RBAC
// filters on them; per cluster, its upstream TLS (none, a TLS transport socket, or auto mTLS through
// transport_socket_matches on `tlsMode: istio`). Pure; reads the dump as Envoy JSON.
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import { getObject as o, getObjects as list, getString as s, isJsonObject as isObj, type JsonObject as J } from '@/server/lib/json';

export type ChainTransport = 'plaintext' | 'mTLS' | 'TLS' | 'TLS (passed through)';

export interface InboundChainTls {
  chain: string;
  transport: ChainTransport;
  alpn: string[];
  rbacFilters: number;
}

export interface InboundPortTls {
  /** 0 = the passthrough chains (ports without a service). */
  port: number;
  chains: InboundChainTls[];
  /** STRICT-like (TLS only), PERMISSIVE-like (both), plaintext only. */
  summary: string;
}

export interface ClusterTls {
  cluster: string;
  mode: string;
  sni?: string;
}

function chainTransport(c: J): ChainTransport {
  const ts = o(c, 'transport_socket');
  const t = s(o(ts, 'typed_config'), '@type') ?? '';
  if (t.endsWith('DownstreamTlsContext')) {
    const ctx = o(ts, 'typed_config');
    const req = ctx?.require_client_certificate;
    return req === true || (isObj(req) && (req as J).value === true) ? 'mTLS' : 'TLS';
  }
  return s(o(c, 'filter_chain_match'), 'transport_protocol') === 'tls' ? 'TLS (passed through)' : 'plaintext';
}

function rbacCount(c: J): number {
  let n = 0;
  for (const f of list(c, 'filters')) {
    const name = s(f, 'name') ?? '';
    if (name === 'envoy.filters.network.rbac') n++;
    for (const h of list(o(f, 'typed_config'), 'http_filters')) if (s(h, 'name') === 'envoy.filters.http.rbac') n++;
  }
  return n;
}

function summary(chains: InboundChainTls[]): string {
  const tls = chains.some((c) => c.transport === 'mTLS' || c.transport === 'TLS');
  const plain = chains.some((c) => c.transport === 'plaintext' || c.transport === 'TLS (passed through)');
  if (tls && !plain) return 'TLS only (STRICT)';
  if (tls && plain) return 'mTLS and plaintext (PERMISSIVE)';
  return 'plaintext only (no TLS-terminating chain)';
}

export function inboundTls(config: EnvoyConfig): InboundPortTls[] {
  const inbound = config.listeners.find((l) => s(l, 'name') === 'virtualInbound');
  const byPort = new Map<number, InboundChainTls[]>();
  for (const c of list(inbound, 'filter_chains')) {
    const m = o(c, 'filter_chain_match');
    const port = typeof m?.destination_port === 'number' ? m.destination_port : 0;
    if (port === 15006) continue; // the blackhole chain
    const alpn = Array.isArray(m?.application_protocols) ? (m.application_protocols as string[]) : [];
    const row = { chain: s(c, 'name') ?? '', transport: chainTransport(c), alpn, rbacFilters: rbacCount(c) };
    byPort.set(port, [...(byPort.get(port) ?? []), row]);
  }
  return [...byPort.entries()].sort(([a], [b]) => a - b).map(([port, chains]) => ({ port, chains, summary: summary(chains) }));
}

export function clusterTls(config: EnvoyConfig): ClusterTls[] {
  return config.clusters.map((c) => {
    const name = s(c, 'name') ?? '';
    const matches = list(c, 'transport_socket_matches');
    const ts = o(c, 'transport_socket');
    const upstream = o(ts, 'typed_config');
    const sni = s(upstream, 'sni');
    if (matches.some((m) => s(o(m, 'match'), 'tlsMode') === 'istio'))
      return { cluster: name, mode: 'auto mTLS (ISTIO_MUTUAL to endpoints labelled tlsMode: istio)' };
    if ((s(upstream, '@type') ?? '').endsWith('UpstreamTlsContext'))
      return { cluster: name, mode: 'TLS (transport socket)', ...(sni ? { sni } : {}) };
    return { cluster: name, mode: 'plaintext (no transport socket)' };
  });
}
