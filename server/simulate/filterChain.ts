// Filter chain selection with FilterChainMatch, in Envoy's order (listener_components.proto FilterChainMatch
// docs; source/common/listener_manager/filter_chain_manager_impl.cc findFilterChain*): destination port,
// destination IP (longest prefix), server name (exact, then longest wildcard), transport protocol,
// application protocols, direct source IP, source type, source IP, source port. At each step the chains that
// set the criterion and match it win; chains not setting it survive only when none matched. No chain left →
// default_filter_chain. Listeners with filter_chain_matcher are handled in chainMatcher.ts.
import { arr, isObj, num, obj, objs, str, typeName, type J } from './json';
import { cidrContains } from './ip';
import type { Rejection, SimCtx } from './types';

/** What the listener filters let Envoy see about the connection (Istio simulation: hasFilterOnPort). */
export interface Detected {
  transportProtocol: 'tls' | 'raw_buffer';
  sni: string;
  alpn: string[];
}

function evalPredicate(p: unknown, port: number): boolean {
  if (!isObj(p)) return false;
  if (p['any_match'] === true) return true;
  const range = obj(p, 'destination_port_range');
  if (range) return port >= (num(range, 'start') ?? 0) && port < (num(range, 'end') ?? 0);
  const or = obj(p, 'or_match');
  if (or) return arr(or, 'rules').some((r) => evalPredicate(r, port));
  const and = obj(p, 'and_match');
  if (and) return arr(and, 'rules').every((r) => evalPredicate(r, port));
  const not = obj(p, 'not_match');
  if (not) return !evalPredicate(not, port);
  return false;
}

/** Whether the listener has a listener filter (by name or @type fragment) enabled for this port. */
export function hasListenerFilter(listener: J, nameFragment: string, typeFragment: string, port: number): boolean {
  return objs(listener, 'listener_filters').some((f) => {
    const named = (str(f, 'name') ?? '').includes(nameFragment) || typeName(obj(f, 'typed_config')).includes(typeFragment);
    if (!named) return false;
    const disabled = obj(f, 'filter_disabled');
    return !disabled || !evalPredicate(disabled, port);
  });
}

export function detect(listener: J, ctx: SimCtx): Detected {
  const tlsInspector = hasListenerFilter(listener, 'tls_inspector', 'TlsInspector', ctx.port);
  const httpInspector = hasListenerFilter(listener, 'http_inspector', 'HttpInspector', ctx.port);
  const isTls = ctx.tls !== 'plaintext';
  let alpn: string[] = [];
  if (isTls && tlsInspector) alpn = ctx.alpn;
  if (!isTls && httpInspector && ctx.protocol !== 'tcp') alpn = [ctx.protocol === 'http2' ? 'h2c' : 'http/1.1'];
  return {
    transportProtocol: isTls && tlsInspector ? 'tls' : 'raw_buffer',
    sni: isTls && tlsInspector ? ctx.sni : '',
    alpn,
  };
}

/** Score of one chain on one criterion: -1 fails, 0 does not set it, >0 matches (higher is more specific). */
type Criterion = { name: string; score: (m: J | undefined) => number; reason: (m: J | undefined) => string };

function prefixScore(ranges: unknown[], ip: string | undefined): number {
  if (ranges.length === 0) return 0;
  let best = -1;
  for (const r of ranges) {
    const len = num(r, 'prefix_len') ?? 0;
    if (cidrContains(str(r, 'address_prefix') ?? '', len, ip)) best = Math.max(best, len);
  }
  return best;
}

function serverNameScore(names: unknown[], sni: string): number {
  if (names.length === 0) return 0;
  if (sni === '') return -1;
  let best = -1;
  for (const n of names) {
    if (typeof n !== 'string') continue;
    const d = n.toLowerCase();
    if (d === sni) return 1_000_000;
    if (d.startsWith('*.') && sni.endsWith(d.slice(1)) && sni.length > d.length - 1) best = Math.max(best, d.length);
  }
  return best;
}

function criteria(ctx: SimCtx, det: Detected): Criterion[] {
  return [
    {
      name: 'destination_port',
      score: (m) => (num(m, 'destination_port') === undefined ? 0 : num(m, 'destination_port') === ctx.port ? 1 : -1),
      reason: (m) => `destination_port ${num(m, 'destination_port')} does not match ${ctx.port}`,
    },
    {
      name: 'prefix_ranges',
      score: (m) => prefixScore(arr(m, 'prefix_ranges'), ctx.address),
      reason: () => `destination IP ${ctx.address ?? '(unknown)'} not in prefix_ranges`,
    },
    {
      name: 'server_names',
      score: (m) => serverNameScore(arr(m, 'server_names'), det.sni),
      reason: (m) => `server name "${det.sni}" does not match ${JSON.stringify(arr(m, 'server_names'))}`,
    },
    {
      name: 'transport_protocol',
      score: (m) => (!str(m, 'transport_protocol') ? 0 : str(m, 'transport_protocol') === det.transportProtocol ? 1 : -1),
      reason: (m) => `transport_protocol ${str(m, 'transport_protocol')} does not match ${det.transportProtocol}`,
    },
    {
      name: 'application_protocols',
      score: (m) => {
        const set = arr(m, 'application_protocols');
        if (set.length === 0) return 0;
        const i = det.alpn.findIndex((p) => set.includes(p));
        return i < 0 ? -1 : 1000 - i;
      },
      reason: (m) => `application protocols ${JSON.stringify(det.alpn)} not in ${JSON.stringify(arr(m, 'application_protocols'))}`,
    },
    {
      name: 'direct_source_prefix_ranges',
      score: (m) => prefixScore(arr(m, 'direct_source_prefix_ranges'), undefined),
      reason: () => 'direct source address is not simulated',
    },
    {
      // The simulated client is external (not the proxy's own IP or loopback).
      name: 'source_type',
      score: (m) => ({ EXTERNAL: 1, SAME_IP_OR_LOOPBACK: -1 })[str(m, 'source_type') ?? 'ANY'] ?? 0,
      reason: (m) => `source_type ${str(m, 'source_type')} does not match an external client`,
    },
    {
      name: 'source_prefix_ranges',
      score: (m) => prefixScore(arr(m, 'source_prefix_ranges'), undefined),
      reason: () => 'source address is not simulated',
    },
    {
      name: 'source_ports',
      score: (m) => (arr(m, 'source_ports').length === 0 ? 0 : -1),
      reason: () => 'source port is not simulated',
    },
  ];
}

export interface ChainPick {
  chain?: J;
  /** Display name: the chain's name, or `filter_chains[i]` / `default_filter_chain`. */
  name?: string;
  rejected: Rejection[];
  notes: string[];
  /** More than one chain matched equally: Envoy rejects such a listener (Istio's simulator: ErrMultipleFilterChain). */
  ambiguous?: boolean;
}

export function chainName(chain: J, index: number | 'default'): string {
  return str(chain, 'name') ?? (index === 'default' ? 'default_filter_chain' : `filter_chains[${index}]`);
}

export function selectFilterChain(listener: J, ctx: SimCtx, det: Detected): ChainPick {
  let alive = objs(listener, 'filter_chains').map((chain, index) => ({ chain, index }));
  const rejected: Rejection[] = [];
  for (const c of criteria(ctx, det)) {
    const scored = alive.map((a) => ({ ...a, s: c.score(obj(a.chain, 'filter_chain_match')) }));
    const max = Math.max(-1, ...scored.map((x) => x.s));
    for (const x of scored) {
      if (x.s === max && max >= 0) continue;
      const m = obj(x.chain, 'filter_chain_match');
      rejected.push({
        hop: 'filterChain',
        name: chainName(x.chain, x.index),
        index: x.index,
        reason: x.s < 0 ? c.reason(m) : `another chain matched ${c.name} more specifically`,
      });
    }
    alive = max >= 0 ? scored.filter((x) => x.s === max) : [];
    if (alive.length === 0) break;
  }
  const notes: string[] = [];
  const first = alive[0];
  if (first) {
    if (alive.length > 1) {
      notes.push(
        `multiple filter chains matched (${alive.map((a) => chainName(a.chain, a.index)).join(', ')}); Envoy rejects such a listener`,
      );
      return { rejected, notes, ambiguous: true };
    }
    return { chain: first.chain, name: chainName(first.chain, first.index), rejected, notes };
  }
  const def = obj(listener, 'default_filter_chain');
  if (def) return { chain: def, name: chainName(def, 'default'), rejected, notes };
  return { rejected, notes };
}
