// HTTPMatchRequest → Envoy RouteMatch (istio route.go:TranslateRouteMatch), the per-proxy match
// filter (translateRoute's port check + sourceMatchHTTP) and IsCatchAllRoute.
import type {
  RouteJson,
  RouteMatchJson,
  HeaderMatcherJson,
  QueryParameterMatcherJson,
} from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { StringMatcherJson } from '../../../gen/envoy/type/matcher/v3/string_pb';
import type { MetadataMatcherJson } from '../../../gen/envoy/type/matcher/v3/metadata_pb';
import type { HTTPMatchRequest, StringMatch } from '../../../model/istio';
import { byteCompare } from '../../../lib/compare';

/** Istio StringMatch → Envoy StringMatcher (networking/util ConvertToEnvoyMatch); undefined when no match type is set. */
export function toStringMatcher(m: StringMatch | undefined): StringMatcherJson | undefined {
  if (!m) return undefined;
  if (m.exact !== undefined) return { exact: String(m.exact) };
  if (m.prefix !== undefined) return { prefix: String(m.prefix) };
  if (m.regex !== undefined) return { safeRegex: { regex: String(m.regex) } };
  return undefined;
}

/** canBeConvertedToPresentMatch: no match type at all, or the non-RE2 `regex: "*"`. */
export function isPresentMatch(m: StringMatch | undefined | null): boolean {
  if (!m || (m.exact === undefined && m.prefix === undefined && m.regex === undefined)) return true;
  return m.exact === undefined && m.prefix === undefined && m.regex === '*';
}

function headerMatcher(name: string, m: StringMatch | undefined): HeaderMatcherJson {
  if (isPresentMatch(m)) return { name, presentMatch: true };
  const sm = toStringMatcher(m);
  return sm ? { name, stringMatch: sm } : { name };
}

function queryMatcher(name: string, m: StringMatch | undefined): QueryParameterMatcherJson {
  if (isPresentMatch(m)) return { name, presentMatch: true };
  const sm = toStringMatcher(m);
  return sm ? { name, stringMatch: sm } : { name };
}

const JWT_CLAIM_HEADER = '@request.auth.claims';

/** pkg/jwt ToRoutingClaim: `@request.auth.claims.a.b` or `@request.auth.claims[a][b]` → claim path. */
export function routingClaims(headerName: string): string[] | undefined {
  if (!headerName.toLowerCase().startsWith(JWT_CLAIM_HEADER)) return undefined;
  const rest = headerName.slice(JWT_CLAIM_HEADER.length);
  if (rest.startsWith('.') && rest.length > 1) return rest.slice(1).split('.');
  if (rest.startsWith('[') && rest.endsWith(']') && rest.length > 2) return rest.slice(1, -1).split('][');
  return undefined;
}

/** authz MetadataMatcherForJWTClaims (extended-JWT form: list-oneOf OR plain string). */
function jwtClaimMatcher(claims: string[], m: StringMatch | undefined): MetadataMatcherJson {
  const sm = toStringMatcher(m) ?? {};
  return {
    filter: 'envoy.filters.http.jwt_authn',
    path: ['payload', ...claims].map((key) => ({ key })),
    value: { orMatch: { valueMatchers: [{ listMatch: { oneOf: { stringMatch: sm } } }, { stringMatch: sm }] } },
  };
}

/** internal.istio.io/route-semantics (model.UseIngressSemantics / UseGatewaySemantics): set on generated VirtualServices. */
export const ROUTE_SEMANTICS = 'internal.istio.io/route-semantics';

/** Ingress- and Gateway-API-generated VirtualServices turn a uri prefix (other than `/`) into path_separated_prefix. */
export const usesSeparatedPrefix = (vs: { meta: { annotations: Readonly<Record<string, string>> } }): boolean => {
  const s = vs.meta.annotations[ROUTE_SEMANTICS];
  return s === 'ingress' || s === 'gateway';
};

/**
 * TranslateRouteMatch. `match` undefined → `{prefix: "/"}` only (no case_sensitive), as istiod does
 * for routes without match. Header matchers are sorted by name; :method, :authority, :scheme are
 * appended after sorting, then query parameters (sorted by name here; istiod leaves map order).
 */
export function translateRouteMatch(match: HTTPMatchRequest | undefined, separatedPrefix = false): RouteMatchJson {
  const out: RouteMatchJson = { prefix: '/' };
  if (!match) return out;
  const headers: HeaderMatcherJson[] = [];
  const dynamicMetadata: MetadataMatcherJson[] = [];
  for (const name of Object.keys(match.headers ?? {}).sort(byteCompare)) {
    const m = match.headers?.[name];
    const claims = routingClaims(name);
    if (claims) dynamicMetadata.push(jwtClaimMatcher(claims, m));
    else headers.push(headerMatcher(name, m));
  }
  for (const name of Object.keys(match.withoutHeaders ?? {}).sort(byteCompare)) {
    const m = match.withoutHeaders?.[name];
    const claims = routingClaims(name);
    if (claims) {
      dynamicMetadata.push({ ...jwtClaimMatcher(claims, m), invert: true });
      continue;
    }
    const h: HeaderMatcherJson = { ...headerMatcher(name, m), invertMatch: true };
    // treat_missing_header_as_empty conflicts with present_match
    if (!isPresentMatch(m)) h.treatMissingHeaderAsEmpty = true;
    headers.push(h);
  }
  // Stable sort by name (headers before withoutHeaders for equal names).
  headers.sort((a, b) => byteCompare(a.name ?? '', b.name ?? ''));

  const uri = match.uri;
  if (uri) {
    if (uri.exact !== undefined) {
      delete out.prefix;
      out.path = String(uri.exact);
    } else if (uri.prefix !== undefined) {
      const prefix = String(uri.prefix);
      if (separatedPrefix && prefix !== '/') {
        // `/a/` and `/a` both become `/a`: Envoy matches it at a path-segment boundary.
        delete out.prefix;
        out.pathSeparatedPrefix = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
      } else out.prefix = prefix;
    } else if (uri.regex !== undefined) {
      delete out.prefix;
      out.safeRegex = { regex: String(uri.regex) };
    }
  }
  out.caseSensitive = !match.ignoreUriCase;
  if (match.method) headers.push(headerMatcher(':method', match.method));
  if (match.authority) headers.push(headerMatcher(':authority', match.authority));
  if (match.scheme) headers.push(headerMatcher(':scheme', match.scheme));
  if (headers.length) out.headers = headers;
  const query = Object.keys(match.queryParams ?? {}).sort(byteCompare);
  if (query.length) out.queryParameters = query.map((n) => queryMatcher(n, match.queryParams?.[n]));
  if (dynamicMetadata.length) out.dynamicMetadata = dynamicMetadata;
  return out;
}

/** IsCatchAllRoute: prefix `/`, path_separated_prefix `/` or regex `.*`, and no header/query/metadata matchers. */
export function isCatchAllRoute(r: Pick<RouteJson, 'match'>): boolean {
  const m = r.match;
  if (!m) return false;
  let catchAll = false;
  if (m.prefix !== undefined) catchAll = m.prefix === '/';
  else if (m.pathSeparatedPrefix !== undefined) catchAll = m.pathSeparatedPrefix === '/';
  else if (m.safeRegex !== undefined) catchAll = m.safeRegex.regex === '.*';
  return catchAll && !m.headers?.length && !m.queryParameters?.length && !m.dynamicMetadata?.length;
}

/** model/config.go resolveGatewayName: `name`/`./name` → `<ns>/name`; legacy `name.ns.svc…` → `ns/name`; `mesh` kept. */
export function resolveGatewayName(gw: string, namespace: string): string {
  if (gw === 'mesh') return gw;
  const slash = gw.indexOf('/');
  if (slash < 0) {
    const dot = gw.indexOf('.');
    if (dot < 0) return `${namespace}/${gw}`;
    const rest = gw.slice(dot + 1);
    const dot2 = rest.indexOf('.');
    return `${dot2 < 0 ? rest : rest.slice(0, dot2)}/${gw.slice(0, dot)}`;
  }
  return gw.slice(0, slash) === '.' ? `${namespace}/${gw.slice(slash + 1)}` : gw;
}

/**
 * translateRoute's filter: a match applies to this proxy/listener when its port (if any) equals
 * the listener port and sourceMatchHTTP holds (gateways listed → one must be ours; otherwise
 * sourceLabels ⊆ proxy labels and sourceNamespace (if any) = proxy namespace).
 */
export function matchApplies(
  match: HTTPMatchRequest | undefined,
  ctx: { listenerPort: number; gatewayNames: ReadonlySet<string>; proxyLabels: Readonly<Record<string, string>>; proxyNamespace: string },
  vsNamespace: string,
): boolean {
  if (!match) return true;
  if (match.port !== undefined && match.port !== 0 && match.port !== ctx.listenerPort) return false;
  if (Array.isArray(match.gateways) && match.gateways.length > 0) {
    return match.gateways.some((g) => ctx.gatewayNames.has(resolveGatewayName(String(g), vsNamespace)));
  }
  for (const [k, v] of Object.entries(match.sourceLabels ?? {})) {
    if (ctx.proxyLabels[k] !== v) return false;
  }
  return !match.sourceNamespace || match.sourceNamespace === ctx.proxyNamespace;
}
