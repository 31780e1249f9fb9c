// Listener → table rows: address, and per filter chain the match and where it sends traffic
// (an RDS route config, an inline route config, or a TCP proxy cluster).
import { arr, formatAddress, obj, shortType, str, type JsonObj } from './json';

export interface FilterChainRow {
  name?: string;
  /** Human summary of filter_chain_match, `*` when it matches everything. */
  match: string;
  /** Short names of the network filters, in order. */
  filters: string[];
  /** RDS route config name. */
  rds?: string;
  /** Name of a route config inlined in the HCM. */
  inlineRoute?: string;
  /** TCP proxy target: one cluster, or weighted clusters `name (w)`. */
  clusters: string[];
}

export interface ListenerRow {
  name: string;
  address: string;
  /** Listener-level flags worth showing (use_original_dst, bind_to_port false, traffic_direction). */
  notes: string[];
  chains: FilterChainRow[];
  /** The default_filter_chain, when present. */
  defaultChain?: FilterChainRow;
}

export function summarizeChainMatch(m: unknown): string {
  const match = obj(m);
  const parts: string[] = [];
  const port = match.destination_port;
  if (port !== undefined) parts.push(`port ${String(port)}`);
  const ranges = arr(match.prefix_ranges).map((r) => `${str(obj(r).address_prefix) ?? ''}/${String(obj(r).prefix_len ?? 0)}`);
  if (ranges.length) parts.push(`dst ${ranges.join(',')}`);
  const tp = str(match.transport_protocol);
  if (tp) parts.push(`transport ${tp}`);
  const alpn = arr(match.application_protocols).map(String);
  if (alpn.length) parts.push(`alpn ${alpn.join(',')}`);
  const sni = arr(match.server_names).map(String);
  if (sni.length) parts.push(`sni ${sni.join(',')}`);
  const src = str(match.source_type);
  if (src) parts.push(`source ${src}`);
  return parts.length ? parts.join(', ') : '*';
}

function summarizeChain(chain: unknown): FilterChainRow {
  const c = obj(chain);
  const row: FilterChainRow = { match: summarizeChainMatch(c.filter_chain_match), filters: [], clusters: [] };
  const name = str(c.name);
  if (name) row.name = name;
  for (const f of arr(c.filters)) {
    const filter = obj(f);
    const tc = obj(filter.typed_config);
    const type = shortType(str(tc['@type']));
    row.filters.push(str(filter.name) ?? type ?? '?');
    if (type === 'HttpConnectionManager') {
      const rds = str(obj(tc.rds).route_config_name);
      if (rds !== undefined) row.rds = rds;
      const inline = obj(tc.route_config);
      if (Object.keys(inline).length) row.inlineRoute = str(inline.name) ?? '(inline)';
    } else if (type === 'TcpProxy') {
      const cluster = str(tc.cluster);
      if (cluster) row.clusters.push(cluster);
      for (const wc of arr(obj(tc.weighted_clusters).clusters)) {
        const w = obj(wc);
        row.clusters.push(`${str(w.name) ?? ''} (${String(w.weight ?? 0)})`);
      }
    }
  }
  return row;
}

export function summarizeListener(listener: unknown): ListenerRow {
  const l: JsonObj = obj(listener);
  const notes: string[] = [];
  if (l.use_original_dst === true) notes.push('use_original_dst');
  if (obj(l.bind_to_port).value === false || l.bind_to_port === false) notes.push('bind_to_port: false');
  const dir = str(l.traffic_direction);
  if (dir) notes.push(dir.toLowerCase());
  const row: ListenerRow = {
    name: str(l.name) ?? '',
    address: formatAddress(l.address),
    notes,
    chains: arr(l.filter_chains).map(summarizeChain),
  };
  if (l.default_filter_chain !== undefined) row.defaultChain = summarizeChain(l.default_filter_chain);
  return row;
}
