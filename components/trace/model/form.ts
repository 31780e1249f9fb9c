// The trace form and its URL form: `?tab=trace&mode=outbound&host=reviews:9080&path=/reviews/1&h=end-user:jason`.
// Pure: parse / format URLSearchParams, turn the form into a simulator request (DESIGN.md §3 flags).
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import type { SimMode, SimProtocol, SimRequest, SimTls } from '@/server/simulate/types';

export interface TraceForm {
  mode: SimMode;
  host: string;
  /** As typed; empty means "the port in host, else 80 (443 with tls)". */
  port: string;
  path: string;
  method: string;
  /** `name: value` lines. */
  headers: string[];
  sni: string;
  protocol: SimProtocol;
  tls: SimTls;
  /** Destination IP (optional). */
  address: string;
  /** The caller, for AuthorizationPolicies: SPIFFE principal, namespace, IP (all optional). */
  sourcePrincipal: string;
  sourceNamespace: string;
  sourceIp: string;
}

/** URL parameter names the trace owns (the rest of the URL is left alone). */
export const TRACE_PARAMS = [
  'mode',
  'host',
  'port',
  'path',
  'method',
  'h',
  'sni',
  'protocol',
  'tls',
  'addr',
  'from',
  'fromns',
  'fromip',
] as const;

const MODES: readonly SimMode[] = ['outbound', 'inbound', 'gateway'];
const PROTOCOLS: readonly SimProtocol[] = ['http', 'http2', 'tcp'];
const TLS: readonly SimTls[] = ['plaintext', 'tls', 'mtls'];

const pick = <T extends string>(v: string | null, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(v ?? '') ? (v as T) : fallback;

export const emptyForm = (mode: SimMode): TraceForm => ({
  mode,
  host: '',
  port: '',
  path: '/',
  method: 'GET',
  headers: [],
  sni: '',
  protocol: 'http',
  tls: 'plaintext',
  address: '',
  sourcePrincipal: '',
  sourceNamespace: '',
  sourceIp: '',
});

/** `h=end-user:jason` → `end-user: jason` (the first `:` separates name and value). */
function headerFromParam(h: string): string {
  const i = h.indexOf(':');
  return i <= 0 ? h : `${h.slice(0, i).trim()}: ${h.slice(i + 1).trim()}`;
}

export function formFromParams(p: URLSearchParams, defaultMode: SimMode): TraceForm {
  return {
    mode: pick(p.get('mode'), MODES, defaultMode),
    host: p.get('host') ?? '',
    port: p.get('port') ?? '',
    path: p.get('path') ?? '/',
    method: (p.get('method') ?? 'GET').toUpperCase(),
    headers: p
      .getAll('h')
      .filter((h) => h.trim() !== '')
      .map(headerFromParam),
    sni: p.get('sni') ?? '',
    protocol: pick(p.get('protocol'), PROTOCOLS, 'http'),
    tls: pick(p.get('tls'), TLS, 'plaintext'),
    address: p.get('addr') ?? '',
    sourcePrincipal: p.get('from') ?? '',
    sourceNamespace: p.get('fromns') ?? '',
    sourceIp: p.get('fromip') ?? '',
  };
}

/** The form written into `base` (other parameters kept); defaults are left out so links stay short. */
export function formToParams(f: TraceForm, base: URLSearchParams, defaultMode: SimMode): URLSearchParams {
  const p = new URLSearchParams(base);
  for (const k of TRACE_PARAMS) p.delete(k);
  if (f.mode !== defaultMode) p.set('mode', f.mode);
  if (f.host) p.set('host', f.host);
  if (f.port) p.set('port', f.port);
  if (f.path && f.path !== '/') p.set('path', f.path);
  if (f.method && f.method !== 'GET') p.set('method', f.method);
  for (const h of f.headers) {
    const i = h.indexOf(':');
    if (i > 0) p.append('h', `${h.slice(0, i).trim()}:${h.slice(i + 1).trim()}`);
  }
  if (f.sni) p.set('sni', f.sni);
  if (f.protocol !== 'http') p.set('protocol', f.protocol);
  if (f.tls !== 'plaintext') p.set('tls', f.tls);
  if (f.address) p.set('addr', f.address);
  if (f.sourcePrincipal) p.set('from', f.sourcePrincipal);
  if (f.sourceNamespace) p.set('fromns', f.sourceNamespace);
  if (f.sourceIp) p.set('fromip', f.sourceIp);
  return p;
}

/** Whether the URL asks for a trace (a host or a port is given). */
export const hasTrace = (p: URLSearchParams) => !!(p.get('host') || p.get('port'));

/** The port in `host:port` (not for bracketed IPv6 without a port). */
function hostPort(host: string): number | undefined {
  const m = /^(?:\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/.exec(host.trim());
  return m ? Number(m[1]) : undefined;
}

export type RequestOrError = { request: SimRequest; error?: undefined } | { error: string; request?: undefined };

export function formToRequest(f: TraceForm): RequestOrError {
  const portText = f.port.trim();
  let port: number;
  if (portText !== '') {
    if (!/^\d+$/.test(portText) || Number(portText) > 65535) return { error: `port must be a number 0–65535, got "${f.port}"` };
    port = Number(portText);
  } else port = hostPort(f.host) ?? (f.tls === 'tls' ? 443 : 80);
  const path = f.path.trim() || '/';
  if (!path.startsWith('/')) return { error: `path must start with /, got "${f.path}"` };
  const headers: Record<string, string> = {};
  for (const line of f.headers) {
    if (line.trim() === '') continue;
    const i = line.indexOf(':');
    if (i <= 0) return { error: `header must look like "name: value", got "${line}"` };
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const request: SimRequest = {
    mode: f.mode,
    port,
    path,
    method: (f.method.trim() || 'GET').toUpperCase(),
    protocol: f.protocol,
    tls: f.tls,
  };
  if (f.host.trim()) request.host = f.host.trim();
  if (Object.keys(headers).length) request.headers = headers;
  if (f.sni.trim()) request.sni = f.sni.trim();
  if (f.address.trim()) request.address = f.address.trim();
  if (f.sourcePrincipal.trim()) request.sourcePrincipal = f.sourcePrincipal.trim();
  if (f.sourceNamespace.trim()) request.sourceNamespace = f.sourceNamespace.trim();
  if (f.sourceIp.trim()) request.sourceIp = f.sourceIp.trim();
  return { request };
}

/**
 * The mode a proxy's own traffic most likely uses: sidecars (a `virtualOutbound` listener, Istio's 15001)
 * send outbound; anything else with listeners (gateways) receives as a gateway.
 */
export function defaultMode(config: EnvoyConfig): SimMode {
  const names = config.listeners.map((l) => (typeof l['name'] === 'string' ? l['name'] : ''));
  if (names.includes('virtualOutbound')) return 'outbound';
  return names.length > 0 ? 'gateway' : 'outbound';
}
