// VirtualService http routes → Envoy routes (istio route.go:BuildHTTPRoutesForVirtualService,
// TranslateRoute, GetRouteOperation). Shared by sidecar RDS and gateway RDS.
import type { AnyJson } from '@bufbuild/protobuf/wkt';
import type { RouteJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPMatchRequest, HTTPRoute } from '../../../model/istio';
import type { IstioConfig, LoadError } from '../../../model/mesh';
import { EXT } from '../../../envoy/typeUrls';
import { parseClusterName } from '../../names';
import { istioConfigMetadata } from '../../provenance';
import type { RouteRuleSource } from '../../types';
import type { BoundVirtualService } from '../../view/types';
import { buildRouteAction, type Problem } from './action';
import { str, vsError, type RouteContext } from './context';
import { CORS_FILTER, translateCorsPolicy } from './cors';
import { FAULT_FILTER, translateFault } from './fault';
import { applyHeaderOps, translateHeadersOperations } from './headers';
import { isCatchAllRoute, matchApplies, translateRouteMatch, usesSeparatedPrefix } from './match';
import { translateDirectResponse, translateRedirect } from './redirect';
import { applyGatewaySemantics, hasGatewaySemantics } from './gatewaySemantics';

export type { RouteContext } from './context';

/** GetRouteOperation: `<host>:<port><path>` for a single valid cluster, else `<vs name>:<listener port><path>`. */
export function routeOperation(r: RouteJson, vsName: string, listenerPort: number): string {
  let path = '/*';
  const m = r.match;
  if (m?.prefix !== undefined) path = `${m.prefix}*`;
  else if (m?.path !== undefined) path = m.path;
  else if (m?.safeRegex !== undefined) path = m.safeRegex.regex ?? '';
  const c = r.route?.cluster;
  const parsed = c !== undefined ? parseClusterName(c) : undefined;
  if (parsed) return `${parsed.hostname}:${parsed.port}${path}`;
  return `${vsName}:${listenerPort}${path}`;
}

/** TranslateRoute for one (http route, match) pair; undefined when filtered out for this proxy/port or unusable. */
export function translateRoute(
  vs: IstioConfig<'VirtualService'>,
  http: HTTPRoute,
  match: HTTPMatchRequest | undefined,
  ctx: RouteContext,
  problems: Problem[],
): RouteJson | undefined {
  if (!matchApplies(match, ctx, vs.meta.namespace)) return undefined;
  let name = str(http.name) ?? '';
  const matchName = str(match?.name);
  if (matchName) name = `${name}.${matchName}`;
  const out: RouteJson = {};
  if (name) out.name = name;
  out.match = translateRouteMatch(match, usesSeparatedPrefix(vs));
  out.metadata = istioConfigMetadata(vs);
  if (str(match?.statPrefix)) out.statPrefix = str(match?.statPrefix) as string;
  let authority = '';
  if (http.headers) {
    const ops = translateHeadersOperations(http.headers);
    applyHeaderOps(out, ops);
    authority = ops.authority;
  }
  if (http.redirect) {
    const r = translateRedirect(http.redirect, ctx.listenerPort, ctx.isTLS ?? false);
    if (!r.redirect) {
      problems.push({ field: `redirect.${r.problem?.field ?? ''}`, message: r.problem?.message ?? 'invalid redirect', severity: 'error' });
      return undefined;
    }
    out.redirect = r.redirect;
  } else if (http.directResponse) {
    const d = translateDirectResponse(http.directResponse);
    if (d.problem) problems.push({ field: `directResponse.${d.problem.field}`, message: d.problem.message, severity: 'error' });
    if (!d.directResponse) return undefined;
    out.directResponse = d.directResponse;
  } else {
    const action = buildRouteAction(out, http, ctx, authority, problems, hasGatewaySemantics(vs));
    if (!action) return undefined;
    out.route = action;
  }
  if (hasGatewaySemantics(vs)) applyGatewaySemantics(out);
  out.decorator = { operation: routeOperation(out, vs.meta.name, ctx.listenerPort) };
  const perFilter: Record<string, AnyJson> = {};
  if (http.fault) {
    const f = translateFault(http.fault);
    for (const p of f.problems) problems.push({ field: `fault.${p.field}`, message: p.message, severity: p.severity });
    perFilter[FAULT_FILTER] = { '@type': EXT.fault, ...(f.fault ?? {}) } as AnyJson;
  }
  if (http.corsPolicy) {
    const c = translateCorsPolicy(http.corsPolicy);
    for (const p of c.problems) problems.push({ field: `corsPolicy.${p.field}`, message: p.message, severity: 'error' });
    perFilter[CORS_FILTER] = { '@type': EXT.corsPolicy, ...c.policy } as AnyJson;
  }
  if (Object.keys(perFilter).length) out.typedPerFilterConfig = perFilter;
  return out;
}

/**
 * The rule as written behind `spec.http[index]` of a bound VirtualService (delegates merged: the root's rule
 * and the delegate's), with the match index when the rule is the VirtualService's own.
 */
export function ruleSourceOf(vs: BoundVirtualService, index: number, match: number | undefined): RouteRuleSource {
  const origin = vs.httpOrigins?.[index];
  const source: RouteRuleSource = {
    kind: 'VirtualService',
    namespace: vs.meta.namespace,
    name: vs.meta.name,
    rule: `http[${origin?.rootIndex ?? index}]`,
  };
  const d = origin?.delegate;
  if (d) source.delegate = { namespace: d.namespace, name: d.name, rule: `http[${d.index}]` };
  else if (match !== undefined) source.match = match;
  return source;
}

/** translateRoute that never throws: malformed input the schema layer let through becomes a problem. */
function safeTranslate(
  vs: BoundVirtualService,
  h: HTTPRoute,
  m: HTTPMatchRequest | undefined,
  ctx: RouteContext,
  problems: Problem[],
): RouteJson | undefined {
  if (m !== undefined && (typeof m !== 'object' || Array.isArray(m))) {
    problems.push({ field: 'match', message: 'a match entry must be an object', severity: 'error' });
    return undefined;
  }
  try {
    return translateRoute(vs, h, m, ctx, problems);
  } catch (e) {
    problems.push({ field: '', message: `cannot translate http route: ${(e as Error).message}`, severity: 'error' });
    return undefined;
  }
}

function emitRoute(
  routes: RouteJson[],
  r: RouteJson,
  vs: BoundVirtualService,
  i: number,
  match: number | undefined,
  ctx: RouteContext,
): void {
  routes.push(r);
  ctx.routeSources?.record(r, ruleSourceOf(vs, i, match));
}

/**
 * BuildHTTPRoutesForVirtualService: routes in order; an http route without match yields one route
 * and stops; a translated catch-all route (IsCatchAllRoute) stops all later matches and routes;
 * a match filtered out for this proxy is neither emitted nor catch-all. Never throws.
 */
export function buildHttpRoutesForVirtualService(vs: BoundVirtualService, ctx: RouteContext): { routes: RouteJson[]; errors: LoadError[] } {
  const routes: RouteJson[] = [];
  const errors: LoadError[] = [];
  const http = Array.isArray(vs.spec?.http) ? vs.spec.http : [];
  for (let i = 0; i < http.length; i++) {
    const h = http[i];
    if (!h || typeof h !== 'object') continue;
    const problems: Problem[] = [];
    let catchAll = false;
    if (h.delegate) {
      errors.push(
        vsError(
          vs,
          `spec.http[${i}].delegate`,
          'delegate was not resolved (missing or not exported delegate VirtualService); route skipped',
          'warning',
        ),
      );
      continue;
    }
    const matches = Array.isArray(h.match) ? h.match : [];
    // Plain loops and module-level helpers (no closures per rule): this runs for every route of every proxy.
    if (matches.length === 0) {
      const r = safeTranslate(vs, h, undefined, ctx, problems);
      if (r) emitRoute(routes, r, vs, i, undefined, ctx);
      catchAll = true;
    } else {
      for (let j = 0; j < matches.length; j++) {
        const r = safeTranslate(vs, h, matches[j] ?? undefined, ctx, problems);
        if (!r) continue;
        emitRoute(routes, r, vs, i, j, ctx);
        if (isCatchAllRoute(r)) {
          catchAll = true;
          break;
        }
      }
    }
    for (const p of problems) errors.push(vsError(vs, `spec.http[${i}]${p.field ? `.${p.field}` : ''}`, p.message, p.severity));
    if (catchAll) break;
  }
  return { routes, errors: dedupeErrors(errors) };
}

export function dedupeErrors(errors: LoadError[]): LoadError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.object}|${e.path}|${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
