// Delegate VirtualServices (Istio model/virtualservice_controller.go:mergeVirtualServices,
// model/virtualservice.go:MergeHTTPRoutes / mergeHTTPRoute / mergeHTTPMatchRequests / hasConflict /
// stringMatchConflict). A VirtualService without hosts is a delegate: never bound directly, but a root
// http route `delegate: {name, namespace}` is replaced by the delegate's http routes, each merged with the
// root route (matches combined, root defaults filled in); a delegate route whose matches conflict with the
// root's is dropped. Pure: reads only its arguments, never mutates them.
import type { HTTPMatchRequest, HTTPRoute, StringMatch } from '../../model/istio';
import type { IstioConfig } from '../../model/mesh';

/** Delegates (VirtualServices with no hosts) by `namespace/name`. */
export type DelegateIndex = ReadonlyMap<string, IstioConfig<'VirtualService'>>;

export function delegateIndex(all: readonly IstioConfig<'VirtualService'>[]): DelegateIndex {
  const out = new Map<string, IstioConfig<'VirtualService'>>();
  for (const vs of all) if (!vs.spec.hosts || vs.spec.hosts.length === 0) out.set(`${vs.meta.namespace}/${vs.meta.name}`, vs);
  return out;
}

/** isRootVs: some http route delegates. */
export function isRootVirtualService(vs: IstioConfig<'VirtualService'>): boolean {
  return (vs.spec.http ?? []).some((r) => r?.delegate !== undefined && r.delegate !== null);
}

/**
 * convertExportToSet (+ the mesh default `*` when empty): the delegate is usable by a root in `rootNamespace`
 * when its exportTo holds `*`, or the root's namespace (`.` meaning the delegate's own namespace).
 */
export function delegateVisibleTo(delegate: IstioConfig<'VirtualService'>, rootNamespace: string): boolean {
  const exportTo = delegate.spec.exportTo ?? [];
  if (exportTo.length === 0) return true;
  return exportTo.some((e) => e === '*' || e === rootNamespace || (e === '.' && delegate.meta.namespace === rootNamespace));
}

const has = (m: StringMatch | undefined): m is StringMatch => m !== undefined && m !== null;

/**
 * stringMatchConflict: no conflict when either side is unset; a regex on one side conflicts with any
 * regex/prefix/exact on the other; root exact needs the same leaf exact; root prefix needs a leaf prefix/exact
 * starting with it; anything else (e.g. an empty root match) conflicts.
 */
export function stringMatchConflict(root: StringMatch | undefined, leaf: StringMatch | undefined): boolean {
  if (!has(root) || !has(leaf)) return false;
  const any = (m: StringMatch) => !!m.regex || !!m.prefix || !!m.exact;
  if (root.regex && any(leaf)) return true;
  if (leaf.regex && any(root)) return true;
  if (root.exact) return !!leaf.prefix || leaf.exact !== root.exact;
  if (root.prefix) {
    if (leaf.prefix) return !leaf.prefix.startsWith(root.prefix);
    if (leaf.exact) return !leaf.exact.startsWith(root.prefix);
  }
  return true;
}

const entries = (m: Record<string, StringMatch> | undefined) => Object.entries(m ?? {});

/** hasConflict(root match, delegate match). */
export function matchConflict(root: HTTPMatchRequest, leaf: HTTPMatchRequest): boolean {
  const pairs: [StringMatch | undefined, StringMatch | undefined][] = [
    [root.uri, leaf.uri],
    [root.scheme, leaf.scheme],
    [root.method, leaf.method],
    [root.authority, leaf.authority],
  ];
  if (pairs.some(([r, l]) => stringMatchConflict(r, l))) return true;
  if (entries(leaf.headers).some(([k, v]) => stringMatchConflict(root.headers?.[k], v))) return true;
  if (entries(leaf.withoutHeaders).some(([k, v]) => stringMatchConflict(root.withoutHeaders?.[k], v))) return true;
  if (entries(leaf.queryParams).some(([k, v]) => stringMatchConflict(root.queryParams?.[k], v))) return true;
  if (!!root.ignoreUriCase !== !!leaf.ignoreUriCase) return true;
  if ((root.port ?? 0) > 0 && (leaf.port ?? 0) > 0 && root.port !== leaf.port) return true;
  if (root.sourceNamespace && leaf.sourceNamespace !== root.sourceNamespace) return true;
  for (const [k, v] of Object.entries(leaf.sourceLabels ?? {})) {
    const rv = root.sourceLabels?.[k];
    if (rv !== undefined && rv !== v) return true;
  }
  const rg = root.gateways ?? [];
  const lg = leaf.gateways ?? [];
  if (rg.length > 0 && lg.length > 0 && (rg.length < lg.length || lg.some((g) => !rg.includes(g)))) return true;
  return false;
}

const joinName = (root: string | undefined, leaf: string | undefined): string | undefined =>
  !leaf ? root : root ? `${root}-${leaf}` : leaf;

function mergeMap<T>(a: Record<string, T> | undefined, b: Record<string, T> | undefined): Record<string, T> | undefined {
  if (!a && !b) return undefined;
  const out = { ...(a ?? {}), ...(b ?? {}) };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** mergeHTTPMatchRequest: delegate fields win; unset ones come from the root; maps merged (delegate wins per key). */
export function mergeMatch(root: HTTPMatchRequest, leaf: HTTPMatchRequest): HTTPMatchRequest {
  const out: HTTPMatchRequest = { ...leaf };
  const name = joinName(root.name, leaf.name);
  if (name !== undefined) out.name = name;
  if (!has(out.uri) && has(root.uri)) out.uri = root.uri;
  if (!has(out.scheme) && has(root.scheme)) out.scheme = root.scheme;
  if (!has(out.method) && has(root.method)) out.method = root.method;
  if (!has(out.authority) && has(root.authority)) out.authority = root.authority;
  const maps = ['headers', 'withoutHeaders', 'queryParams'] as const;
  for (const k of maps) {
    const m = mergeMap(root[k], leaf[k]);
    if (m) out[k] = m;
    else delete out[k];
  }
  if (!out.port && root.port) out.port = root.port;
  const labels = mergeMap(root.sourceLabels, leaf.sourceLabels);
  if (labels) out.sourceLabels = labels;
  if (!out.sourceNamespace && root.sourceNamespace) out.sourceNamespace = root.sourceNamespace;
  if ((out.gateways ?? []).length === 0 && root.gateways) out.gateways = root.gateways;
  if (!out.statPrefix && root.statPrefix) out.statPrefix = root.statPrefix;
  return out;
}

/**
 * mergeHTTPMatchRequests: no root matches → the delegate's; no delegate matches → the root's; else every
 * delegate match must be compatible with at least one root match (each compatible pair merged, root order
 * inside delegate order), otherwise the whole delegate route conflicts (undefined).
 */
export function mergeMatches(root: readonly HTTPMatchRequest[], leaf: readonly HTTPMatchRequest[]): HTTPMatchRequest[] | undefined {
  if (root.length === 0) return [...leaf];
  if (leaf.length === 0) return [...root];
  const out: HTTPMatchRequest[] = [];
  for (const l of leaf) {
    const compatible = root.filter((r) => !matchConflict(r, l));
    if (compatible.length === 0) return undefined;
    for (const r of compatible) out.push(mergeMatch(r, l));
  }
  return out.length > 0 ? out : undefined;
}

const DEFAULTED = [
  'rewrite',
  'directResponse',
  'timeout',
  'retries',
  'fault',
  'mirror',
  'mirrorPercent',
  'mirrorPercentage',
  'corsPolicy',
  'mirrors',
  'headers',
] as const;

/** mergeHTTPRoute: the delegate route with merged matches, `<root>-<leaf>` name and the root's defaults; undefined on conflict. */
export function mergeRoute(root: HTTPRoute, leaf: HTTPRoute): HTTPRoute | undefined {
  const match = mergeMatches(root.match ?? [], leaf.match ?? []);
  if (!match) return undefined;
  const out: HTTPRoute = { ...leaf };
  if (match.length > 0) out.match = match;
  else delete out.match;
  const name = joinName(root.name, leaf.name);
  if (name !== undefined) out.name = name;
  const o = out as Record<string, unknown>;
  const r = root as Record<string, unknown>;
  for (const k of DEFAULTED) if ((o[k] === undefined || o[k] === null) && r[k] !== undefined && r[k] !== null) o[k] = r[k];
  delete out.delegate;
  return out;
}

/** Where a route of a merged root VirtualService comes from: the root's http index, and for delegated routes the delegate's. */
export interface MergedRouteOrigin {
  rootIndex: number;
  delegate?: { namespace: string; name: string; index: number };
}

/**
 * The root VirtualService (already name-resolved) with every resolvable delegating route replaced by the
 * delegate's merged routes, plus the origin of every resulting http route (parallel to `spec.http`). The
 * delegate's own short names resolve relative to the delegate's namespace. A delegating route whose delegate
 * is missing or not exported to the root's namespace is left in place (Istio drops it; the route builder
 * skips it with a located warning, producing the same routes).
 */
export function mergeDelegatesWithOrigins(
  root: IstioConfig<'VirtualService'>,
  delegates: DelegateIndex,
  resolve: (delegate: IstioConfig<'VirtualService'>) => IstioConfig<'VirtualService'>,
): { vs: IstioConfig<'VirtualService'>; origins: MergedRouteOrigin[] } {
  const http: HTTPRoute[] = [];
  const origins: MergedRouteOrigin[] = [];
  (root.spec.http ?? []).forEach((route, rootIndex) => {
    if (!route) return;
    const d = route.delegate;
    const delegate = d ? delegates.get(`${d.namespace || root.meta.namespace}/${d.name ?? ''}`) : undefined;
    if (!d || !delegate || !delegateVisibleTo(delegate, root.meta.namespace)) {
      http.push(route);
      origins.push({ rootIndex });
      return;
    }
    (resolve(delegate).spec.http ?? []).forEach((leaf, index) => {
      if (!leaf || typeof leaf !== 'object') return;
      const merged = mergeRoute(route, leaf);
      if (!merged) return;
      http.push(merged);
      origins.push({ rootIndex, delegate: { namespace: delegate.meta.namespace, name: delegate.meta.name, index } });
    });
  });
  return { vs: { ...root, spec: { ...root.spec, http } }, origins };
}

/** mergeDelegatesWithOrigins without the origins; a VirtualService without delegating routes is returned as is. */
export function mergeDelegates(
  root: IstioConfig<'VirtualService'>,
  delegates: DelegateIndex,
  resolve: (delegate: IstioConfig<'VirtualService'>) => IstioConfig<'VirtualService'>,
): IstioConfig<'VirtualService'> {
  if (!isRootVirtualService(root)) return root;
  return mergeDelegatesWithOrigins(root, delegates, resolve).vs;
}
