// simulate(config, request): walks Envoy resources the way Envoy does — listener → filter chain → HCM
// (route configuration → virtual host → route) or tcp_proxy → cluster(s) → endpoints — reporting every hop,
// every candidate passed over and why, and Istio's simulator wording on failure
// (pilot/pkg/simulation/traffic.go). Pure; never throws.
import type { EnvoyConfig } from '../envoy/dumpReader';
import { isObj, obj, objs, str, type J } from './json';
import { selectListener } from './listener';
import { chainName, detect, selectFilterChain, type ChainPick } from './filterChain';
import { matchChainName } from './chainMatcher';
import { terminalFilter, terminatesTls, walkHcm, walkRouteConfig, type HttpWalk } from './http';
import { requiresMtls, tlsOnlyNote } from './mtls';
import { clusterEndpoints, sourceOf, tcpTarget, type Target } from './action';
import { rbacConfigsOf, walkRbac } from './rbac';
import { normalizeRequest, type Rejection, type SimCtx, type SimRequest, type SimResult } from './types';

export type { SimRequest, SimResult, Rejection, SimSource, SimRedirect, SimMode, SimProtocol, SimTls } from './types';
export type { SimHeaderChange, SimRewrite } from './types';
export type { EnvoyConfig } from '../envoy/dumpReader';

interface Acc {
  listener?: string;
  filterChain?: string;
  walk?: HttpWalk;
  target?: Target;
  endpoints?: string[];
  source?: SimResult['source'];
  authorization?: SimResult['authorization'];
  rejected: Rejection[];
  notes: string[];
  error?: string;
}

/** Assembles the result in DESIGN.md §3 order. */
function finish(a: Acc): SimResult {
  const w = a.walk;
  const r = {} as SimResult;
  if (a.listener !== undefined) r.listener = a.listener;
  if (a.filterChain !== undefined) r.filterChain = a.filterChain;
  if (w?.routeConfig !== undefined) r.routeConfig = w.routeConfig;
  if (w?.virtualHost !== undefined) r.virtualHost = w.virtualHost;
  if (w?.route !== undefined) r.route = w.route;
  if (w?.routeIndex !== undefined) r.routeIndex = w.routeIndex;
  const t = a.target;
  if (t?.kind === 'cluster') r.cluster = t.cluster;
  if (t?.kind === 'weighted') r.weightedClusters = t.clusters;
  if (a.endpoints) r.endpoints = a.endpoints;
  const source = w?.source ?? a.source;
  if (source) r.source = source;
  if (a.authorization) r.authorization = a.authorization;
  if (t?.kind === 'redirect') r.redirect = t.redirect;
  if (w?.redirect) r.redirect = w.redirect;
  if (t?.kind === 'direct') r.directResponse = { status: t.status, ...(t.body !== undefined ? { body: t.body } : {}) };
  if (w?.runtimeFraction !== undefined) r.runtimeFraction = w.runtimeFraction;
  if (w?.rewrite) r.rewrite = w.rewrite;
  if (w?.requestHeaders) r.requestHeaders = w.requestHeaders;
  if (w?.virtualCluster !== undefined) r.virtualCluster = w.virtualCluster;
  if (w?.routerCheck) r.routerCheck = w.routerCheck;
  r.rejected = [...a.rejected, ...(w?.rejected ?? [])];
  const notes = [...a.notes, ...(w?.notes ?? [])];
  if (notes.length > 0) r.notes = notes;
  const error = a.error ?? w?.error;
  if (error !== undefined) r.error = error;
  return r;
}

function pickChain(listener: J, ctx: SimCtx): ChainPick {
  const det = detect(listener, ctx);
  const matcher = obj(listener, 'filter_chain_matcher');
  if (!matcher) return selectFilterChain(listener, ctx, det);
  const chains = objs(listener, 'filter_chains');
  const wanted = matchChainName(matcher, ctx, det);
  const idx = wanted === undefined ? -1 : chains.findIndex((c) => str(c, 'name') === wanted);
  const rejected: Rejection[] = chains
    .map((c, index) => ({ c, index }))
    .filter((x) => x.index !== idx)
    .map((x) => ({
      hop: 'filterChain' as const,
      name: chainName(x.c, x.index),
      index: x.index,
      reason: wanted === undefined ? 'filter_chain_matcher matched no chain' : `filter_chain_matcher selected ${wanted}`,
    }));
  const notes =
    wanted !== undefined && idx < 0 ? [`filter_chain_matcher selected ${wanted}, which is not a filter chain of the listener`] : [];
  const chosen = chains[idx];
  if (chosen) return { chain: chosen, name: chainName(chosen, idx), rejected, notes };
  const def = obj(listener, 'default_filter_chain');
  return def ? { chain: def, name: chainName(def, 'default'), rejected, notes } : { rejected, notes };
}

function resolveEndpoints(config: EnvoyConfig, a: Acc, ctx: SimCtx): void {
  const t = a.target;
  const names = t?.kind === 'cluster' ? [t.cluster] : t?.kind === 'weighted' ? Object.keys(t.clusters) : [];
  if (names.length === 0) return;
  const eps: string[] = [];
  for (const n of names) {
    const r = clusterEndpoints(config.clusters, config.endpoints, n, ctx);
    eps.push(...r.endpoints);
    a.notes.push(...r.notes);
  }
  a.endpoints = eps;
}

function validate(req: SimRequest): string | undefined {
  if (!isObj(req as unknown)) return 'request must be an object';
  if (!['outbound', 'inbound', 'gateway', 'waypoint'].includes(req.mode)) return `invalid mode ${String(req.mode)}`;
  if (!Number.isInteger(req.port) || req.port < 0 || req.port > 65535) return `invalid port ${String(req.port)}`;
  if (req.protocol !== undefined && !['http', 'http2', 'tcp'].includes(req.protocol)) return `invalid protocol ${String(req.protocol)}`;
  if (req.tls !== undefined && !['plaintext', 'tls', 'mtls'].includes(req.tls)) return `invalid tls ${String(req.tls)}`;
  return undefined;
}

/**
 * A bare RouteConfiguration (a route table, as Envoy's router_check_tool takes it; a config dump without
 * listeners still answers `no listener matched`): the request starts at the router, its headers as the router sees them — x-forwarded-proto as
 * given (no connection manager to overwrite it), else the connection's scheme. With several route
 * configurations, the one named after the port (`9080`, `http.8080`).
 */
function walkRoutesOnly(config: EnvoyConfig, ctx: SimCtx, a: Acc): void {
  const rc =
    config.routes.length === 1
      ? config.routes[0]
      : config.routes.find((r) => [String(ctx.port), `http.${ctx.port}`].includes(str(r, 'name') ?? ''));
  if (!rc) {
    a.notes.push(
      `no listener in the config and no route configuration named ${ctx.port} or http.${ctx.port} among ${config.routes.length}`,
    );
    return void (a.error = 'no listener matched');
  }
  const name = str(rc, 'name');
  a.walk = walkRouteConfig(rc, ctx, undefined, { ...(name !== undefined ? { routeConfig: name } : {}), rejected: [] });
  const t = a.walk.target;
  if (t?.kind === 'none') a.error = t.error;
  else if (t) a.target = t;
  resolveEndpoints(config, a, ctx);
}

function walk(config: EnvoyConfig, ctx: SimCtx, a: Acc): void {
  if (config.routeTable && config.listeners.length === 0) return walkRoutesOnly(config, ctx, a);
  const lp = selectListener(config.listeners, ctx);
  a.rejected.push(...lp.rejected);
  a.notes.push(...lp.notes);
  if (!lp.listener) return void (a.error = 'no listener matched');
  a.listener = lp.name;
  const cp = pickChain(lp.listener, ctx);
  a.rejected.push(...cp.rejected);
  a.notes.push(...cp.notes);
  // traffic.go matchFilterChain: more than one equally specific chain is ErrMultipleFilterChain.
  if (cp.ambiguous) return void (a.error = 'multiple filter chains matched');
  if (!cp.chain) {
    const why = tlsOnlyNote(lp.listener, ctx);
    if (why) a.notes.push(why);
    return void (a.error = 'no filter chains matched');
  }
  a.filterChain = cp.name;
  const tlsChain = terminatesTls(cp.chain);
  // Plaintext to a TLS-terminating chain fails the handshake (traffic.go: ErrTLSError).
  if (tlsChain && ctx.tls === 'plaintext') return void (a.error = 'invalid TLS');
  // An mTLS chain accepts only mTLS, and a plain TLS chain no mTLS client (traffic.go requiresMTLS: ErrMTLSError).
  if (tlsChain && requiresMtls(cp.chain) !== (ctx.tls === 'mtls')) return void (a.error = 'invalid mTLS');
  const { hcm, tcp } = terminalFilter(cp.chain);
  // Network RBAC filters run on the connection, before the HCM or tcp_proxy sees it.
  if (!authorize(rbacConfigsOf(objs(cp.chain, 'filters')), ctx, a)) return;
  if (hcm) {
    // TLS not terminated, or raw TCP, reaching an HCM cannot be decoded (traffic.go: ErrProtocolError).
    if ((ctx.tls !== 'plaintext' && !tlsChain) || ctx.protocol === 'tcp') return void (a.error = 'protocol error');
    // HTTP RBAC filters run on the request headers, before the router picks a route.
    if (!authorize(rbacConfigsOf(objs(hcm, 'http_filters')), ctx, a)) return;
    a.walk = walkHcm(hcm, config.routes, ctx);
    const t = a.walk.target;
    if (t?.kind === 'none') a.error = t.error;
    else if (t) a.target = t;
  } else if (tcp) {
    const t = tcpTarget(tcp);
    if (t.kind === 'none') return void (a.error = t.error);
    a.target = t;
    const src = sourceOf(cp.chain) ?? sourceOf(tcp);
    if (src) a.source = src;
  } else return void (a.error = 'no HTTP connection manager or TCP proxy in the filter chain');
  resolveEndpoints(config, a, ctx);
}

/** Runs RBAC filters; false (with `RBAC: access denied`) when they deny the request. */
function authorize(configs: J[], ctx: SimCtx, a: Acc): boolean {
  const r = walkRbac(configs, ctx);
  if (!r) return true;
  a.rejected.push(...r.rejected);
  a.notes.push(...r.notes);
  // A later filter's decision (HTTP after network) replaces an earlier allow.
  if (r.authorization) a.authorization = r.authorization;
  if (ctx.source.principal && ctx.tls === 'plaintext' && !a.notes.some((n) => n.startsWith('RBAC:')))
    a.notes.push(
      `RBAC: ${ctx.source.principal} is taken as the peer's mTLS identity; over a real plaintext connection Envoy sees no peer certificate, so principal and namespace rules would not match`,
    );
  if (!r.denied) return true;
  a.error = 'RBAC: access denied';
  return false;
}

function guarded(req: SimRequest, body: (ctx: SimCtx, a: Acc) => void): SimResult {
  const a: Acc = { rejected: [], notes: [] };
  const bad = validate(req);
  if (bad) return { rejected: [], error: `invalid request: ${bad}` };
  try {
    body(normalizeRequest(req), a);
  } catch (e) {
    a.error = `simulator error: ${(e as Error).message}`;
  }
  return finish(a);
}

/** Where a request would go through these Envoy resources. */
export function simulate(config: EnvoyConfig, req: SimRequest): SimResult {
  return guarded(req, (ctx, a) => walk(config, ctx, a));
}

/**
 * The HTTP part only, starting at a route configuration by name (e.g. a dump holding only RDS, or the
 * UI's route view): virtual host → route → cluster(s) → endpoints. `mode`/`port` still matter (port stripping).
 */
export function simulateRoute(config: EnvoyConfig, routeConfigName: string, req: SimRequest): SimResult {
  return guarded(req, (ctx, a) => {
    const rc = config.routes.find((r) => str(r, 'name') === routeConfigName);
    if (!rc) {
      a.rejected.push({ hop: 'routeConfig', name: routeConfigName, reason: 'route configuration not in the config' });
      a.error = 'no virtual host matched';
      return;
    }
    a.walk = walkRouteConfig(rc, ctx, undefined, { routeConfig: routeConfigName, rejected: [] });
    const t = a.walk.target;
    if (t?.kind === 'none') a.error = t.error;
    else if (t) a.target = t;
    resolveEndpoints(config, a, ctx);
  });
}
