// What Envoy's route table check tool (test/tools/router_check/router.cc) reads off a routed request, named as
// its `validate` fields name them, so a route table can be checked the way Envoy's own tool checks it
// (meshscope extension of the simulate result, additive to DESIGN.md §3):
// - a route entry (route action): cluster_name (weighted clusters: the one random_value 0 picks, the first with
//   weight), virtual_cluster_name, virtual_host_name, path_rewrite / host_rewrite (:path and host after
//   finalizeRequestHeaders), timeout (RouteAction.timeout, Envoy's default 15s);
// - a direct response entry (redirect, direct_response, the require_tls redirect): path_redirect (newUri) and
//   code_redirect; the other fields are "" as the tool gives them;
// - request_headers: the request as the router forwards it (what request_header_matches are matched against);
//   response_headers: what the route adds to the response (finalizeResponseHeaders; response_header_matches).
import { arr, bool, obj, objs, str, type J } from './json';
import type { RouterCheck, SimCtx, SimHeaderChange, SimRedirect, SimRewrite } from './types';

export type { RouterCheck } from './types';

export interface RouterCheckInput {
  rc: J;
  vh?: J;
  route?: J;
  ctx: SimCtx;
  /** The matched route's action: route entry (clusters), or a direct response (redirect / status). */
  entry?:
    | { kind: 'route'; clusters: Record<string, number> }
    | { kind: 'redirect'; redirect: SimRedirect }
    | { kind: 'direct'; status: number };
  rewrite?: SimRewrite;
  requestHeaders?: SimHeaderChange[];
  virtualCluster?: string;
}

/** Applies header changes in order (HeaderParser: set / append / add-if-absent / overwrite-if-exists / remove). */
function applyChanges(headers: Map<string, string>, changes: readonly SimHeaderChange[]): void {
  for (const c of changes) {
    const name = c.name.toLowerCase();
    const has = headers.has(name);
    if (c.op === 'remove') headers.delete(name);
    else if (c.op === 'set' || (c.op === 'overwriteIfExists' && has) || (c.op === 'addIfAbsent' && !has)) headers.set(name, c.value ?? '');
    else if (c.op === 'append') headers.set(name, has ? `${headers.get(name)},${c.value ?? ''}` : (c.value ?? ''));
  }
}

/** response_headers_to_remove then response_headers_to_add of one level (HeaderParser::evaluateHeaders). */
function responseLevel(holder: J | undefined): SimHeaderChange[] {
  if (!holder) return [];
  const out: SimHeaderChange[] = [];
  for (const name of arr(holder, 'response_headers_to_remove'))
    if (typeof name === 'string') out.push({ op: 'remove', name, from: 'route' });
  for (const opt of objs(holder, 'response_headers_to_add')) {
    const h = obj(opt, 'header');
    const name = str(h, 'key');
    if (name === undefined) continue;
    const action = str(opt, 'append_action');
    const op: SimHeaderChange['op'] =
      action === 'OVERWRITE_IF_EXISTS_OR_ADD'
        ? 'set'
        : action === 'ADD_IF_ABSENT'
          ? 'addIfAbsent'
          : action === 'OVERWRITE_IF_EXISTS'
            ? 'overwriteIfExists'
            : action === 'APPEND_IF_EXISTS_OR_ADD'
              ? 'append'
              : bool(opt, 'append') === false
                ? 'set'
                : 'append';
    out.push({ op, name, value: str(h, 'value') ?? str(h, 'raw_value') ?? '', from: 'route' });
  }
  return out;
}

const record = (m: Map<string, string>): Record<string, string> =>
  Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The check tool's view of one routed request. */
export function routerCheck(i: RouterCheckInput): RouterCheck {
  const e = i.entry;
  const routeEntry = e?.kind === 'route';
  const request = new Map(i.ctx.headers);
  if (request.get(':authority') === undefined && i.ctx.host) request.set(':authority', i.ctx.host);
  const response = new Map<string, string>();
  let pathRewrite = '';
  let hostRewrite = '';
  if (routeEntry) {
    if (i.rewrite?.path !== undefined) request.set(':path', i.rewrite.path);
    if (i.rewrite?.host !== undefined) request.set(':authority', i.rewrite.host);
    applyChanges(request, i.requestHeaders ?? []);
    pathRewrite = request.get(':path') ?? '';
    hostRewrite = request.get(':authority') ?? '';
    // getResponseHeaderParsers: route → virtual host → route configuration, reversed when the most specific wins.
    const levels = [i.route, i.vh, i.rc];
    if (bool(i.rc, 'most_specific_header_mutations_wins') === true) levels.reverse();
    applyChanges(response, levels.flatMap(responseLevel));
  } else if (e) {
    response.set(':status', String(e.kind === 'redirect' ? e.redirect.status : e.status));
    applyChanges(response, [i.route, i.vh, i.rc].flatMap(responseLevel));
  }
  const clusters = e?.kind === 'route' ? Object.entries(e.clusters) : [];
  const cluster = clusters.length === 1 ? clusters[0]![0] : (clusters.find(([, w]) => w > 0)?.[0] ?? '');
  const timeout = routeEntry ? (str(obj(i.route, 'route'), 'timeout') ?? '15s') : undefined;
  return {
    cluster_name: cluster,
    virtual_cluster_name: routeEntry ? (i.virtualCluster ?? '') : '',
    virtual_host_name: routeEntry ? (str(i.vh, 'name') ?? '') : '',
    path_rewrite: pathRewrite,
    host_rewrite: hostRewrite,
    path_redirect: e?.kind === 'redirect' ? e.redirect.location : '',
    code_redirect: e?.kind === 'redirect' ? e.redirect.status : e?.kind === 'direct' ? e.status : 0,
    ...(timeout !== undefined ? { timeout } : {}),
    request_headers: record(request),
    response_headers: record(response),
  };
}
