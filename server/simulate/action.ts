// Route actions (envoy.config.route.v3.Route: route / redirect / direct_response), tcp_proxy targets,
// cluster endpoints (EDS by eds_cluster_config.service_name or cluster name; inline load_assignment;
// ORIGINAL_DST → the request's destination) and Istio provenance (filter_metadata.istio.config).
import { num, obj, objs, str, type J } from './json';
import { hostPort } from './ip';
import type { SimCtx, SimRedirect, SimSource } from './types';
import { stripPort } from './types';
import { requestScheme } from './forwardedProto';
import { matchedPrefix, substitute } from './requestChanges';

export type Target =
  | { kind: 'cluster'; cluster: string }
  | { kind: 'weighted'; clusters: Record<string, number> }
  | { kind: 'redirect'; redirect: SimRedirect }
  | { kind: 'direct'; status: number; body?: string }
  | { kind: 'none'; error: string };

function weighted(wc: J): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of objs(wc, 'clusters')) {
    const name = str(c, 'name');
    if (name !== undefined) out[name] = (out[name] ?? 0) + (num(c, 'weight') ?? 0);
  }
  return out;
}

const REDIRECT_CODE: Record<string, number> = {
  MOVED_PERMANENTLY: 301,
  FOUND: 302,
  SEE_OTHER: 303,
  TEMPORARY_REDIRECT: 307,
  PERMANENT_REDIRECT: 308,
};

/** Location header per Envoy's RouteEntryImplBase::newUri (scheme, host, port, path/prefix rewrite, query). */
function redirectOf(r: J, route: J, ctx: SimCtx): SimRedirect {
  // Utility::newUri: scheme_redirect, else https_redirect, else the request's :scheme (not the connection's).
  const original = requestScheme(ctx);
  const scheme = str(r, 'scheme_redirect') ?? (r['https_redirect'] === true ? 'https' : original);
  const origHost = ctx.host;
  let host = str(r, 'host_redirect') ?? origHost;
  const port = num(r, 'port_redirect');
  if (port !== undefined) host = `${stripPort(host)}:${port}`;
  else if (str(r, 'host_redirect') === undefined && scheme !== original) {
    // Switching scheme drops a default port of the old scheme.
    const bare = stripPort(host);
    const oldPort = host.slice(bare.length + 1);
    if (oldPort === '80' || oldPort === '443') host = bare;
  }
  let path = ctx.path;
  const pathRedirect = str(r, 'path_redirect');
  const prefixRewrite = str(r, 'prefix_rewrite');
  const matchPrefix = matchedPrefix(route);
  if (pathRedirect !== undefined) path = pathRedirect;
  else if (prefixRewrite !== undefined && matchPrefix !== undefined && path.startsWith(matchPrefix))
    path = prefixRewrite + path.slice(matchPrefix.length);
  else {
    const rr = obj(r, 'regex_rewrite');
    const re = str(obj(rr, 'pattern'), 'regex');
    if (rr && re !== undefined) {
      // RE2 GlobalReplace; an invalid pattern or rewrite keeps the path.
      path = substitute(path, re, str(rr, 'substitution') ?? '') ?? path;
    }
  }
  const keepQuery = r['strip_query'] !== true && ctx.query !== '' && !(pathRedirect ?? '').includes('?');
  const status = REDIRECT_CODE[str(r, 'response_code') ?? 'MOVED_PERMANENTLY'] ?? 301;
  return { status, location: `${scheme}://${host}${path}${keepQuery ? `?${ctx.query}` : ''}` };
}

export function routeTarget(route: J, ctx: SimCtx): Target {
  const ra = obj(route, 'route');
  if (ra) {
    const cluster = str(ra, 'cluster');
    if (cluster !== undefined) return { kind: 'cluster', cluster };
    const wc = obj(ra, 'weighted_clusters');
    if (wc) return { kind: 'weighted', clusters: weighted(wc) };
    const header = str(ra, 'cluster_header');
    if (header !== undefined) {
      const v = ctx.headers.get(header.toLowerCase());
      return v ? { kind: 'cluster', cluster: v } : { kind: 'none', error: `cluster_header ${header} absent (Envoy answers 404)` };
    }
    if (obj(ra, 'cluster_specifier_plugin') || obj(ra, 'inline_cluster_specifier_plugin') || str(ra, 'cluster_specifier_plugin'))
      return { kind: 'none', error: 'cluster specifier plugins are not supported by the simulator' };
    return { kind: 'none', error: 'route action names no cluster' };
  }
  const rd = obj(route, 'redirect');
  if (rd) return { kind: 'redirect', redirect: redirectOf(rd, route, ctx) };
  const dr = obj(route, 'direct_response');
  if (dr) {
    const body = obj(dr, 'body');
    const text = str(body, 'inline_string') ?? str(body, 'inline_bytes') ?? str(body, 'filename');
    return { kind: 'direct', status: num(dr, 'status') ?? 200, ...(text !== undefined ? { body: text } : {}) };
  }
  if (obj(route, 'non_forwarding_action')) return { kind: 'none', error: 'non_forwarding_action: the request is not forwarded' };
  return { kind: 'none', error: 'route has no action' };
}

/** tcp_proxy: `cluster` or `weighted_clusters`. */
export function tcpTarget(tcp: J): Target {
  const cluster = str(tcp, 'cluster');
  if (cluster !== undefined) return { kind: 'cluster', cluster };
  const wc = obj(tcp, 'weighted_clusters');
  if (wc) return { kind: 'weighted', clusters: weighted(wc) };
  return { kind: 'none', error: 'tcp_proxy names no cluster' };
}

function addressString(a: unknown): string | undefined {
  const sa = obj(a, 'socket_address');
  if (sa) return hostPort(str(sa, 'address') ?? '', num(sa, 'port_value'));
  const pipe = obj(a, 'pipe');
  if (pipe) return `unix://${str(pipe, 'path') ?? ''}`;
  const internal = obj(a, 'envoy_internal_address');
  if (internal) return `envoy://${str(internal, 'server_listener_name') ?? ''}/${str(internal, 'endpoint_id') ?? ''}`;
  return undefined;
}

/** `ip:port` of every lb endpoint of a ClusterLoadAssignment, in order. */
export function assignmentEndpoints(cla: J | undefined): string[] {
  const out: string[] = [];
  for (const locality of objs(cla, 'endpoints'))
    for (const lb of objs(locality, 'lb_endpoints')) {
      const a = addressString(obj(obj(lb, 'endpoint'), 'address'));
      if (a !== undefined) out.push(a);
    }
  return out;
}

/**
 * HBONE endpoints (endpoint_builder.go buildEnvoyLbEndpoint with a tunnel): the internal address of
 * `connect_originate`, whose ORIGINAL_DST cluster dials `original_dst.waypoint` (else the endpoint id) on port 15008
 * and sends CONNECT to `original_dst.local`. One note per such endpoint, saying where the tunnel goes.
 */
export function hboneNotes(cla: J | undefined): string[] {
  const out: string[] = [];
  for (const locality of objs(cla, 'endpoints'))
    for (const lb of objs(locality, 'lb_endpoints')) {
      const internal = obj(obj(obj(lb, 'endpoint'), 'address'), 'envoy_internal_address');
      if (!internal || str(internal, 'server_listener_name') !== 'connect_originate') continue;
      const id = str(internal, 'endpoint_id') ?? '';
      const od = obj(obj(obj(lb, 'metadata'), 'filter_metadata'), 'envoy.filters.listener.original_dst');
      const local = str(od, 'local') ?? id;
      const waypoint = str(od, 'waypoint');
      const host = (waypoint ?? id).replace(/:\d+$/, '');
      out.push(
        waypoint
          ? `envoy://connect_originate/${id}: HBONE to the waypoint ${host}:15008, CONNECT ${local} (the Service behind the waypoint)`
          : `envoy://connect_originate/${id}: HBONE to ${host}:15008, CONNECT ${local}`,
      );
    }
  return out;
}

export interface ClusterEndpoints {
  endpoints: string[];
  notes: string[];
}

export function clusterEndpoints(clusters: J[], assignments: J[], name: string, ctx: SimCtx): ClusterEndpoints {
  const cluster = clusters.find((c) => str(c, 'name') === name);
  const byName = (n: string) => assignments.find((a) => str(a, 'cluster_name') === n);
  if (!cluster) {
    const cla = byName(name);
    return { endpoints: assignmentEndpoints(cla), notes: [`cluster ${name} is not in the config`] };
  }
  const type = str(cluster, 'type') ?? (obj(cluster, 'cluster_type') ? 'CUSTOM' : 'STATIC');
  if (type === 'ORIGINAL_DST')
    return ctx.address
      ? { endpoints: [hostPort(ctx.address, ctx.port)], notes: [] }
      : { endpoints: [], notes: [`${name} is ORIGINAL_DST: the destination is the request's original address`] };
  if (type === 'EDS') {
    const service = str(obj(cluster, 'eds_cluster_config'), 'service_name') ?? name;
    const cla = byName(service);
    return { endpoints: assignmentEndpoints(cla), notes: cla ? hboneNotes(cla) : [`no endpoints (EDS ${service}) in the config`] };
  }
  if (type === 'CUSTOM') return { endpoints: [], notes: [`${name} has a custom cluster type`] };
  return { endpoints: assignmentEndpoints(obj(cluster, 'load_assignment')), notes: [] };
}

const KIND: Record<string, string> = {
  'virtual-service': 'VirtualService',
  'destination-rule': 'DestinationRule',
  gateway: 'Gateway',
  'service-entry': 'ServiceEntry',
  sidecar: 'Sidecar',
  'envoy-filter': 'EnvoyFilter',
};

/** Provenance from `metadata.filter_metadata.istio.config` = /apis/GROUP/VERSION/namespaces/NS/KIND/NAME. */
export function sourceOf(resource: J, rule?: string): SimSource | undefined {
  const cfg = str(obj(obj(obj(resource, 'metadata'), 'filter_metadata'), 'istio'), 'config');
  if (!cfg) return undefined;
  const m = /^\/apis\/[^/]+\/[^/]+\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(cfg);
  if (!m) return undefined;
  const [, namespace = '', kind = '', name = ''] = m;
  return { kind: KIND[kind] ?? kind, namespace, name, ...(rule ? { rule } : {}) };
}
