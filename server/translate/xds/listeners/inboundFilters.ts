// Listener filters of the virtualInbound listener, derived from its chains
// (listener_inbound.go: populateListenerFilters, buildTLSInspector, buildHTTPInspector,
// listenerPredicateExcludePorts/IncludePorts).
import type {
  FilterChainJson,
  ListenerFilterChainMatchPredicateJson,
  ListenerFilterJson,
} from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import { httpInspector, originalDst, TLS_TRANSPORT, tlsInspector } from './filters';

interface Inspectors {
  http: boolean;
  tls: boolean;
}

/** Port ranges [p, p+1); several are OR-ed. */
export function excludePorts(ports: number[]): ListenerFilterChainMatchPredicateJson {
  const rules: ListenerFilterChainMatchPredicateJson[] = ports.map((p) => ({ destinationPortRange: { start: p, end: p + 1 } }));
  return rules.length > 1 ? { orMatch: { rules } } : (rules[0] as ListenerFilterChainMatchPredicateJson);
}
const includePorts = (ports: number[]): ListenerFilterChainMatchPredicateJson => ({ notMatch: excludePorts(ports) });

function buildTlsInspector(ins: Map<number, Inspectors>): ListenerFilterJson {
  // When the port-less (passthrough) chains need TLS, opt ports out; otherwise opt ports in.
  const defaultEnabled = ins.get(0)?.tls === true;
  const ports = [...ins.entries()]
    .filter(([p, i]) => p !== 0 && (defaultEnabled ? !i.tls : i.tls))
    .map(([p]) => p)
    .sort((a, b) => a - b);
  if (ports.length === 0) return tlsInspector();
  return { ...tlsInspector(), filterDisabled: defaultEnabled ? excludePorts(ports) : includePorts(ports) };
}

function buildHttpInspector(ins: Map<number, Inspectors>): ListenerFilterJson {
  const ports = [...ins.entries()]
    .filter(([, i]) => !i.http)
    .map(([p]) => p)
    .sort((a, b) => a - b);
  if (ports.length === 0) return httpInspector();
  return { ...httpInspector(), filterDisabled: excludePorts(ports) };
}

/**
 * original_dst (unless the listener binds its own port), then the TLS and HTTP inspectors where chains need them
 * (populateListenerFilters).
 */
export function inboundListenerFilters(chains: readonly FilterChainJson[], bindToPort = false): ListenerFilterJson[] {
  const out: ListenerFilterJson[] = bindToPort ? [] : [originalDst()];
  const ins = new Map<number, Inspectors>();
  for (const fc of chains) {
    const m = fc.filterChainMatch;
    const port = m?.destinationPort ?? 0;
    const tls = m?.transportProtocol === TLS_TRANSPORT;
    const http = (m?.applicationProtocols ?? []).some((a) => a === 'http/1.1' || a === 'h2c');
    const cur = ins.get(port) ?? { http: false, tls: false };
    ins.set(port, { http: cur.http || http, tls: cur.tls || tls });
  }
  const values = [...ins.values()];
  // The HTTP inspector must come after the TLS inspector: it skips connections already marked TLS.
  if (values.some((i) => i.tls)) out.push(buildTlsInspector(ins));
  if (values.some((i) => i.http)) out.push(buildHttpInspector(ins));
  return out;
}
