// One HTTPRoute / GRPCRoute / TCPRoute / TLSRoute rule → one Istio route, as istiod's conversion.go does
// (convertHTTPRoute, convertGRPCRoute, convertTCPRoute, buildHTTPDestination, buildDestination,
// createURIMatch, createHeadersFilter, createRedirectFilter, createRewriteFilter, createMirrorFilter).
// A rule is converted once per match (the caller splits matches) and named `<ns>.<route>.<rule index>`
// unless the rule has a name.
import type {
  CorsPolicy,
  Destination,
  HeaderOperations,
  HTTPMirrorPolicy,
  HTTPMatchRequest,
  HTTPRedirect,
  HTTPRewrite,
  HTTPRoute,
  HTTPRouteDestination,
  RouteDestination,
  StringMatch,
} from '../istio';
import type { BackendRef, GRPCRouteMatch, GRPCRouteRule, HeaderModifier, HTTPRouteFilter, HTTPRouteMatch, HTTPRouteRule } from './types';

/** A route conversion error, with the Gateway API reason istiod reports in ResolvedRefs. */
export interface RouteError {
  reason: string;
  message: string;
}

export interface BackendContext {
  domainSuffix: string;
  /** The route's namespace. */
  namespace: string;
  routeKind: string;
  /** Whether ReferenceGrants apply (gateway parents; istiod does not enforce them for mesh parents). */
  enforceRefGrant: boolean;
  serviceExists(namespace: string, name: string): boolean;
  hostExists(host: string): boolean;
  backendAllowed(kind: string, toNamespace: string, toName: string): boolean;
}

/** buildDestination: a Service backendRef → destination host/port; a bad one gives an error (and maybe an empty destination). */
export function buildDestination(
  ctx: BackendContext,
  to: Pick<BackendRef, 'group' | 'kind' | 'name' | 'namespace' | 'port'>,
): { dst?: Destination; error?: RouteError; hard?: boolean } {
  const isService = (to.group === '' || to.group === 'core') && to.kind === 'Service';
  const isHostname = to.group === 'networking.istio.io' && to.kind === 'Hostname';
  if (ctx.enforceRefGrant && to.namespace !== undefined && to.namespace !== ctx.namespace) {
    if (!ctx.backendAllowed(to.kind, to.namespace, to.name))
      return {
        dst: { host: '' },
        error: {
          reason: 'RefNotPermitted',
          message: `backendRef ${to.name}/${to.namespace} not accessible to a ${ctx.routeKind} in namespace "${ctx.namespace}" (missing a ReferenceGrant?)`,
        },
      };
  }
  const ns = to.namespace ?? ctx.namespace;
  let host: string;
  let error: RouteError | undefined;
  if (isService) {
    if (to.name.includes('.'))
      return {
        hard: true,
        error: { reason: 'InvalidDestination', message: 'service name invalid; the name of the Service must be used, not the hostname.' },
      };
    host = `${to.name}.${ns}.svc.${ctx.domainSuffix}`;
    if (!ctx.serviceExists(ns, to.name)) error = { reason: 'BackendNotFound', message: `backend(${host}) not found` };
  } else if (isHostname) {
    if (to.namespace !== undefined)
      return { hard: true, error: { reason: 'InvalidDestination', message: 'namespace may not be set with Hostname type' } };
    host = to.name;
    if (!ctx.hostExists(host)) error = { reason: 'BackendNotFound', message: `backend(${host}) not found` };
  } else {
    return {
      dst: { host: '' },
      error: { reason: 'InvalidKind', message: `referencing unsupported backendRef: group "${to.group}" kind "${to.kind}"` },
    };
  }
  if (to.port === undefined) return { hard: true, error: { reason: 'InvalidDestination', message: 'port is required in backendRef' } };
  const dst: Destination = { host, port: { number: to.port } };
  return error ? { dst, error } : { dst };
}

/** headerListToMap: lower-cased names, the first of equal names wins. */
function headerMap(list: { name: string; value: string }[] | undefined): Record<string, string> | undefined {
  if (!list?.length) return undefined;
  const out: Record<string, string> = {};
  for (const h of list) {
    const k = h.name.toLowerCase();
    if (!(k in out)) out[k] = h.value;
  }
  return out;
}

const validHeaderValue = (v: string) => [...v].every((c) => c === '\t' || (c >= ' ' && c !== '\x7f'));

function headerOps(m: HeaderModifier | undefined): { ops?: HeaderOperations; error?: RouteError } {
  if (!m) return {};
  for (const h of [...(m.set ?? []), ...(m.add ?? [])])
    if (!validHeaderValue(h.value))
      return { error: { reason: 'InvalidFilter', message: `header "${h.name}" value contains invalid characters` } };
  const ops: HeaderOperations = {};
  const add = headerMap(m.add);
  const set = headerMap(m.set);
  if (add) ops.add = add;
  if (m.remove?.length) ops.remove = [...m.remove];
  if (set) ops.set = set;
  return { ops };
}

/** createURIMatch: PathPrefix drops a trailing `/` (except `/` itself). */
function uriMatch(m: HTTPRouteMatch): StringMatch {
  const v = m.path.value;
  if (m.path.type === 'Exact') return { exact: v };
  if (m.path.type === 'RegularExpression') return { regex: v };
  return { prefix: v !== '/' && v.endsWith('/') ? v.slice(0, -1) : v };
}

function nameValueMatch(list: { type: string; name: string; value: string }[]): Record<string, StringMatch> | undefined {
  if (!list.length) return undefined;
  const out: Record<string, StringMatch> = {};
  for (const h of list) out[h.name] = h.type === 'RegularExpression' ? { regex: h.value } : { exact: h.value };
  return out;
}

function httpMatch(m: HTTPRouteMatch): HTTPMatchRequest {
  const out: HTTPMatchRequest = { uri: uriMatch(m) };
  const headers = nameValueMatch(m.headers);
  const qp = nameValueMatch(m.queryParams);
  if (headers) out.headers = headers;
  if (qp) out.queryParams = qp;
  if (m.method) out.method = { exact: m.method };
  return out;
}

/** createGRPCURIMatch: gRPC `/<service>/<method>` as exact / prefix / regex path matches. */
function grpcUri(m: GRPCRouteMatch): StringMatch | undefined {
  const mm = m.method;
  if (!mm) return undefined;
  if (mm.type === 'Exact') {
    if (mm.method === undefined) return { prefix: `/${mm.service}/` };
    if (mm.service === undefined) return { regex: `/[^/]+/${mm.method}` };
    return { exact: `/${mm.service}/${mm.method}` };
  }
  if (mm.method === undefined) return { regex: `/${mm.service}/.+` };
  if (mm.service === undefined) return { regex: `/[^/]+/${mm.method}` };
  return { regex: `/${mm.service}/${mm.method}` };
}

function redirect(f: NonNullable<HTTPRouteFilter['requestRedirect']>): HTTPRedirect {
  const r: HTTPRedirect = { redirectCode: f.statusCode };
  if (f.hostname !== undefined) r.authority = f.hostname;
  if (f.scheme !== undefined) r.scheme = f.scheme;
  // "When empty, port (if specified) of the request is used" — unlike Istio's default.
  if (f.port !== undefined) r.port = f.port;
  else r.derivePort = f.scheme !== undefined ? 'FROM_PROTOCOL_DEFAULT' : 'FROM_REQUEST_PORT';
  if (f.path?.type === 'ReplaceFullPath' && f.path.replaceFullPath !== undefined) r.uri = f.path.replaceFullPath;
  return r;
}

function rewrite(f: NonNullable<HTTPRouteFilter['urlRewrite']>): HTTPRewrite | undefined {
  const r: HTTPRewrite = {};
  if (f.path?.type === 'ReplacePrefixMatch') {
    const p = (f.path.replacePrefixMatch ?? '').replace(/\/$/, '');
    r.uri = p === '' ? '/' : p;
  } else if (f.path?.type === 'ReplaceFullPath') r.uriRegexRewrite = { match: '/.*', rewrite: f.path.replaceFullPath ?? '' };
  if (f.hostname !== undefined) r.authority = f.hostname;
  return r.uri === undefined && r.uriRegexRewrite === undefined && r.authority === undefined ? undefined : r;
}

function mirror(ctx: BackendContext, f: NonNullable<HTTPRouteFilter['requestMirror']>): { m?: HTTPMirrorPolicy; error?: RouteError } {
  const { dst, error } = buildDestination(ctx, f.backendRef);
  if (error || !dst) return { error };
  const m: HTTPMirrorPolicy = { destination: dst };
  if (f.fraction) m.percentage = { value: (100 * f.fraction.numerator) / f.fraction.denominator };
  else if (f.percent !== undefined) m.percentage = { value: f.percent };
  return { m };
}

const quoteMeta = (s: string): string => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

/** createCorsFilter: `*` → an origin-shaped regex, no wildcard → exact, one trailing `*` → prefix, else a regex. */
function cors(f: NonNullable<HTTPRouteFilter['cors']>): CorsPolicy {
  const out: CorsPolicy = {};
  const origins: StringMatch[] = [];
  for (const o of f.allowOrigins) {
    if (o === '') continue;
    if (o === '*') origins.push({ regex: '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/\\s?#]+$' });
    else if (!o.includes('*')) origins.push({ exact: o });
    else if (o.indexOf('*') === o.length - 1) origins.push({ prefix: o.slice(0, -1) });
    else origins.push({ regex: `^${quoteMeta(o).replaceAll('\\*', '.*')}$` });
  }
  if (origins.length) out.allowOrigins = origins;
  if (f.allowCredentials) out.allowCredentials = true;
  if (f.allowMethods.length) out.allowMethods = [...f.allowMethods];
  if (f.allowHeaders.length) out.allowHeaders = [...f.allowHeaders];
  if (f.exposeHeaders.length) out.exposeHeaders = [...f.exposeHeaders];
  if (f.maxAge > 0) out.maxAge = `${f.maxAge}s`;
  out.unmatchedPreflights = 'IGNORE';
  return out;
}

/** Go time.ParseDuration subset → proto duration string (`1.5s`), or undefined when zero/invalid. */
function goDuration(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 };
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/g;
  let m: RegExpExecArray | null = re.exec(s);
  while (m) {
    total += Number(m[1]) * (units[m[2] as string] ?? 0);
    m = re.exec(s);
  }
  if (total === 0) return undefined;
  return `${Number(total.toFixed(9))}s`;
}

interface Built {
  route?: HTTPRoute;
  /** ResolvedRefs error (the route is still used, with invalid backends kept as empty destinations). */
  error?: RouteError;
}

function applyFilters(
  ctx: BackendContext,
  vs: HTTPRoute,
  filters: HTTPRouteFilter[],
  grpc: boolean,
): RouteError | { hard: RouteError } | undefined {
  let soft: RouteError | undefined;
  for (const f of filters) {
    if (f.type === 'RequestHeaderModifier' || f.type === 'ResponseHeaderModifier') {
      const { ops, error } = headerOps(f.type === 'RequestHeaderModifier' ? f.requestHeaderModifier : f.responseHeaderModifier);
      if (error) return { hard: error };
      if (!ops) continue;
      vs.headers = { ...vs.headers, [f.type === 'RequestHeaderModifier' ? 'request' : 'response']: ops };
    } else if (f.type === 'RequestMirror' && f.requestMirror) {
      const { m, error } = mirror(ctx, f.requestMirror);
      if (m) vs.mirrors = [...(vs.mirrors ?? []), m];
      else if (error) soft = error;
    } else if (!grpc && f.type === 'RequestRedirect' && f.requestRedirect) vs.redirect = redirect(f.requestRedirect);
    else if (!grpc && f.type === 'CORS' && f.cors) vs.corsPolicy = cors(f.cors);
    else if (!grpc && f.type === 'URLRewrite' && f.urlRewrite) {
      const r = rewrite(f.urlRewrite);
      if (r) vs.rewrite = r;
    } else return { hard: { reason: 'InvalidFilter', message: `unsupported filter type "${f.type}"` } };
  }
  return soft;
}

/** buildHTTPDestination: weight-0 backends dropped; a single remaining backend gets weight 0 (= 100). */
function destinations(ctx: BackendContext, refs: BackendRef[]): { route?: HTTPRouteDestination[]; error?: RouteError; hard?: RouteError } {
  const kept = refs.filter((r) => r.weight !== 0);
  let error: RouteError | undefined;
  const route: HTTPRouteDestination[] = [];
  for (const ref of kept) {
    const b = buildDestination(ctx, ref);
    if (b.hard) return { hard: b.error };
    if (b.error) error = b.error;
    const rd: HTTPRouteDestination = { destination: b.dst ?? { host: '' } };
    if (kept.length > 1) rd.weight = ref.weight;
    for (const f of ref.filters) {
      if (f.type !== 'RequestHeaderModifier' && f.type !== 'ResponseHeaderModifier')
        return { hard: { reason: 'InvalidFilter', message: `unsupported filter type "${f.type}"` } };
      const { ops, error: e } = headerOps(f.type === 'RequestHeaderModifier' ? f.requestHeaderModifier : f.responseHeaderModifier);
      if (e) return { hard: e };
      if (ops) rd.headers = { ...rd.headers, [f.type === 'RequestHeaderModifier' ? 'request' : 'response']: ops };
    }
    route.push(rd);
  }
  return error ? { route, error } : { route };
}

function finishRoute(ctx: BackendContext, vs: HTTPRoute, refs: BackendRef[], soft: RouteError | undefined): Built {
  const weightSum = refs.reduce((s, r) => s + r.weight, 0);
  if (weightSum === 0 && !vs.redirect) {
    // Per the Gateway API spec: no backend with weight > 0 → 500.
    vs.directResponse = { status: 500 };
    return soft ? { route: vs, error: soft } : { route: vs };
  }
  if (vs.redirect) return soft ? { route: vs, error: soft } : { route: vs };
  const d = destinations(ctx, refs);
  if (d.hard) return { error: d.hard };
  vs.route = d.route;
  const error = d.error ?? soft;
  return error ? { route: vs, error } : { route: vs };
}

export const ruleName = (ns: string, route: string, index: number, name: string | undefined): string => name ?? `${ns}.${route}.${index}`;

/** convertHTTPRoute for one match of rule `index` (match undefined = a rule without matches). */
export function convertHttpRule(
  ctx: BackendContext,
  routeName: string,
  index: number,
  rule: HTTPRouteRule,
  match: HTTPRouteMatch | undefined,
): Built {
  const vs: HTTPRoute = { name: ruleName(ctx.namespace, routeName, index, rule.name) };
  if (match) vs.match = [httpMatch(match)];
  const soft = applyFilters(ctx, vs, rule.filters, false);
  if (soft && 'hard' in soft) return { error: soft.hard };
  if (rule.retry) {
    const retryOn = ['connect-failure', 'refused-stream', 'unavailable', 'cancelled', ...(rule.retry.codes ?? []).map(String)];
    const attempts = rule.retry.attempts ?? 2;
    vs.retries = { attempts, ...(attempts > 0 ? { retryOn: retryOn.join(',') } : {}) };
    const backoff = goDuration(rule.retry.backoff);
    if (backoff) vs.retries.backoff = backoff;
  }
  const request = goDuration(rule.timeouts?.request);
  const backend = goDuration(rule.timeouts?.backendRequest);
  if (request) vs.timeout = request;
  if (backend) {
    if (vs.retries) vs.retries.perTryTimeout = backend;
    else vs.timeout = backend;
  }
  return finishRoute(ctx, vs, rule.backendRefs, soft);
}

/** convertGRPCRoute for one match of rule `index`. */
export function convertGrpcRule(
  ctx: BackendContext,
  routeName: string,
  index: number,
  rule: GRPCRouteRule,
  match: GRPCRouteMatch | undefined,
): Built {
  const vs: HTTPRoute = { name: ruleName(ctx.namespace, routeName, index, rule.name) };
  if (match) {
    const m: HTTPMatchRequest = {};
    const uri = grpcUri(match);
    const headers = nameValueMatch(match.headers);
    if (uri) m.uri = uri;
    if (headers) m.headers = headers;
    vs.match = [m];
  }
  const soft = applyFilters(ctx, vs, rule.filters, true);
  if (soft && 'hard' in soft) return { error: soft.hard };
  return finishRoute(ctx, vs, rule.backendRefs, soft);
}

/** convertTCPRoute / convertTLSRoute destinations (buildTCPDestination); no weight → a blackhole destination. */
export function l4Destinations(ctx: BackendContext, refs: BackendRef[]): { route?: RouteDestination[]; error?: RouteError } {
  if (refs.reduce((s, r) => s + r.weight, 0) === 0)
    return { route: [{ destination: { host: 'internal.cluster.local', subset: 'zero-weight', port: { number: 65535 } }, weight: 0 }] };
  const kept = refs.filter((r) => r.weight !== 0);
  const route: RouteDestination[] = [];
  let error: RouteError | undefined;
  for (const ref of kept) {
    const b = buildDestination(ctx, ref);
    if (b.hard) return { error: b.error };
    if (b.error) error = b.error;
    route.push(kept.length > 1 ? { destination: b.dst ?? { host: '' }, weight: ref.weight } : { destination: b.dst ?? { host: '' } });
  }
  return error ? { route, error } : { route };
}
