// Which VirtualService rules reach which services from one proxy, read from the proxy's view (the
// VirtualServices bound to it, hosts already resolved to FQDNs). Pure. The rules followed, as istiod
// applies them when it builds routes (istio-translation.md §4–5):
//  - sidecars: for one host the first imported VirtualService owns it (route/route.go
//    BuildSidecarVirtualHostWrapper: the first virtual host with a name wins); an exact host beats a
//    wildcard one (model/sidecar.go computeWildcardHostVirtualServiceIndex). Gateways merge every bound VS.
//  - a match applies only when its `gateways` name the current gateway (`mesh` for sidecars), else when
//    its sourceLabels ⊆ proxy labels and sourceNamespace = proxy namespace (route.go sourceMatchHTTP);
//  - an http rule without match, or with a catch-all match, ends the list: later rules are never emitted
//    (route.go BuildHTTPRoutesForVirtualService / IsCatchAllRoute);
//  - weights: one destination → 100%; several → each weight over their sum (route.go translateRoute).
import type { Destination, HTTPMatchRequest, HTTPRoute, L4MatchAttributes, StringMatch } from '../model/istio';
import type { IstioConfig, ProxyModel } from '../model/mesh';
import { hostsMatch, isWildcard, mostSpecificHost } from '../model/host';
import { gatewayNames, MESH_GATEWAY } from '../translate/view/virtualServices';
import { usesSeparatedPrefix } from '../translate/xds/routes/match';

/** One destination a rule sends traffic to, as seen from one proxy. */
export interface RuleTarget {
  vs: IstioConfig<'VirtualService'>;
  /** `http[0]`, `tcp[1]`, `tls[0]`. */
  rule: string;
  /** Rule name, when the rule has one. */
  name?: string;
  /** Human-readable match: `uri prefix /api, header end-user=jason`, or `any`. */
  match: string;
  host: string;
  subset?: string;
  port?: number;
  /** Share of this rule's traffic, 0–100 (rounded to 0.1). */
  percent: number;
  /** Several destinations share the rule's traffic. */
  split: boolean;
  kind: 'route' | 'mirror';
  fault: boolean;
  /** The rule also mirrors traffic somewhere. */
  mirror: boolean;
}

const sm = (m: StringMatch | undefined): string | undefined =>
  m?.exact !== undefined
    ? `=${m.exact}`
    : m?.prefix !== undefined
      ? ` prefix ${m.prefix}`
      : m?.regex !== undefined
        ? ` ~ ${m.regex}`
        : undefined;

/**
 * `GET /api/* with end-user=jason`-style summary of one HTTP match (istioctl describe-like). `separatedPrefix`:
 * the VirtualService has Ingress / Gateway API route semantics, where a prefix other than `/` matches at a
 * path-segment boundary (Envoy path_separated_prefix: `/api` and `/api/*`, not `/apix`).
 */
export function describeHttpMatch(m: HTTPMatchRequest | undefined, separatedPrefix = false): string {
  if (!m) return 'any';
  const parts: string[] = [];
  const method = m.method?.exact ?? m.method?.prefix ?? m.method?.regex;
  if (method) parts.push(method);
  if (m.uri?.exact !== undefined) parts.push(m.uri.exact);
  else if (m.uri?.prefix !== undefined) {
    const p = m.uri.prefix.endsWith('/') ? m.uri.prefix.slice(0, -1) : m.uri.prefix;
    parts.push(separatedPrefix && m.uri.prefix !== '/' ? `${p}, ${p}/*` : `${m.uri.prefix}*`);
  } else if (m.uri?.regex !== undefined) parts.push(`~${m.uri.regex}`);
  const a = sm(m.authority);
  if (a) parts.push(`authority${a}`);
  const hs = Object.entries(m.headers ?? {}).map(([k, v]) => `${k}${sm(v) ?? ' present'}`);
  if (hs.length) parts.push(`with ${hs.join(', ')}`);
  const qs = Object.entries(m.queryParams ?? {}).map(([k, v]) => `?${k}${sm(v) ?? ''}`);
  if (qs.length) parts.push(qs.join(' '));
  const wh = Object.keys(m.withoutHeaders ?? {});
  if (wh.length) parts.push(`without ${wh.join(', ')}`);
  if (m.port !== undefined) parts.push(`port ${m.port}`);
  if (m.sourceLabels)
    parts.push(
      `from ${Object.entries(m.sourceLabels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`,
    );
  return parts.length ? parts.join(' ') : 'any';
}

function describeL4Match(m: L4MatchAttributes & { sniHosts?: string[] }): string {
  const parts: string[] = [];
  if (m.sniHosts?.length) parts.push(`sni ${m.sniHosts.join(',')}`);
  if (m.port !== undefined) parts.push(`port ${m.port}`);
  if (m.destinationSubnets?.length) parts.push(`to ${m.destinationSubnets.join(',')}`);
  if (m.sourceLabels)
    parts.push(
      `from ${Object.entries(m.sourceLabels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`,
    );
  return parts.length ? parts.join(' ') : 'any';
}

/** sourceMatchHTTP / the L4 equivalent: does this match apply to this proxy behind these gateway names? */
export function matchApplies(
  m: { gateways?: string[]; sourceLabels?: Record<string, string>; sourceNamespace?: string },
  proxy: ProxyModel,
  gateways: ReadonlySet<string>,
): boolean {
  if (m.gateways && m.gateways.length > 0) return m.gateways.some((g) => gateways.has(g));
  for (const [k, v] of Object.entries(m.sourceLabels ?? {})) if (proxy.labels[k] !== v) return false;
  if (m.sourceNamespace && m.sourceNamespace !== proxy.namespace) return false;
  return true;
}

/** IsCatchAllRoute on the VirtualService side: no uri or prefix `/` or regex `.*`, and nothing else to match. */
export function isCatchAllMatch(m: HTTPMatchRequest): boolean {
  const u = m.uri;
  const uriAll = !u || u.prefix === '/' || u.regex === '.*' || (u.exact === undefined && u.prefix === undefined && u.regex === undefined);
  const other = m.headers || m.queryParams || m.withoutHeaders || m.method || m.authority || m.scheme;
  return uriAll && !other;
}

/** Weight share per destination: a single destination takes everything; several share by weight. */
export function shares(weights: readonly (number | undefined)[]): number[] {
  if (weights.length === 1) return [100];
  const total = weights.reduce<number>((n, w) => n + (w ?? 0), 0);
  return weights.map((w) => (total > 0 ? Math.round(((w ?? 0) * 1000) / total) / 10 : 0));
}

const dest = (d: Destination) => ({
  host: d.host,
  ...(d.subset ? { subset: d.subset } : {}),
  ...(d.port?.number !== undefined ? { port: d.port.number } : {}),
});

function httpTargets(vs: IstioConfig<'VirtualService'>, proxy: ProxyModel, gateways: ReadonlySet<string>): RuleTarget[] {
  const out: RuleTarget[] = [];
  const rules: readonly HTTPRoute[] = vs.spec.http ?? [];
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    const matches = r.match?.length ? r.match.filter((m) => matchApplies(m, proxy, gateways)) : [undefined];
    if (matches.length === 0) continue; // every match skipped for this proxy
    const catchAll = matches.some((m) => m === undefined || isCatchAllMatch(m));
    const mirrors = [...(r.mirror ? [r.mirror] : []), ...(r.mirrors ?? []).map((x) => x.destination)];
    const base = {
      vs,
      rule: `http[${i}]`,
      ...(r.name ? { name: r.name } : {}),
      match: matches.map((m) => describeHttpMatch(m, usesSeparatedPrefix(vs))).join(' | '),
      fault: !!r.fault,
      mirror: mirrors.length > 0,
    };
    const routes = r.route ?? [];
    const pct = shares(routes.map((d) => d.weight));
    routes.forEach((d, j) => out.push({ ...base, ...dest(d.destination), percent: pct[j] ?? 0, split: routes.length > 1, kind: 'route' }));
    for (const m of mirrors) out.push({ ...base, ...dest(m), percent: 100, split: false, kind: 'mirror' });
    if (catchAll) break; // later rules can never match
  }
  return out;
}

function l4Targets(vs: IstioConfig<'VirtualService'>, proxy: ProxyModel, gateways: ReadonlySet<string>, kind: 'tcp' | 'tls'): RuleTarget[] {
  const out: RuleTarget[] = [];
  const rules = (kind === 'tcp' ? vs.spec.tcp : vs.spec.tls) ?? [];
  rules.forEach((r, i) => {
    const all: (L4MatchAttributes & { sniHosts?: string[] })[] = r.match ?? [];
    const matches = all.length ? all.filter((m) => matchApplies(m, proxy, gateways)) : [{}];
    if (matches.length === 0) return;
    const routes = r.route ?? [];
    const pct = shares(routes.map((d) => d.weight));
    const base = { vs, rule: `${kind}[${i}]`, match: matches.map(describeL4Match).join(' | '), fault: false, mirror: false };
    routes.forEach((d, j) => out.push({ ...base, ...dest(d.destination), percent: pct[j] ?? 0, split: routes.length > 1, kind: 'route' }));
  });
  return out;
}

/**
 * The VirtualServices that actually take effect for a proxy: gateways keep all; sidecars keep, per
 * registry host, only its owner (exact host before wildcard, then import order). Returns the kept VS
 * and, for sidecars, which registry hosts each one owns.
 */
export function effectiveVirtualServices(
  virtualServices: readonly IstioConfig<'VirtualService'>[],
  hostnames: readonly string[],
  isRouter: boolean,
): { kept: IstioConfig<'VirtualService'>[]; owner: Map<string, IstioConfig<'VirtualService'>> } {
  const owner = new Map<string, IstioConfig<'VirtualService'>>();
  if (isRouter) return { kept: [...virtualServices], owner };
  for (const h of hostnames) {
    // Exact host wins regardless of age; else the most specific wildcard; ties: import order.
    for (const pass of ['exact', 'wildcard'] as const) {
      if (owner.has(h)) break;
      let best: { vs: IstioConfig<'VirtualService'>; len: number } | undefined;
      for (const vs of virtualServices) {
        const hosts = vs.spec.hosts ?? [];
        if (pass === 'exact' ? hosts.includes(h) : false) {
          best = { vs, len: Infinity };
          break;
        }
        if (pass === 'wildcard') {
          const m = mostSpecificHost(h, hosts.filter(isWildcard));
          if (m && (!best || m.length > best.len)) best = { vs, len: m.length };
        }
      }
      if (best) owner.set(h, best.vs);
    }
  }
  const ownsSomething = new Set(owner.values());
  // A VS whose hosts are not registry services (e.g. external names) still yields routes for them.
  const kept = virtualServices.filter(
    (vs) => ownsSomething.has(vs) || (vs.spec.hosts ?? []).some((h) => !hostnames.some((n) => hostsMatch(n, h))),
  );
  return { kept, owner };
}

/** Every rule target of the VirtualServices in force for a proxy. */
export function ruleTargets(
  proxy: ProxyModel,
  virtualServices: readonly IstioConfig<'VirtualService'>[],
  hostnames: readonly string[],
  routerGateways: readonly string[],
): RuleTarget[] {
  const isRouter = proxy.type === 'router';
  const gateways = new Set(isRouter ? routerGateways : [MESH_GATEWAY]);
  const { kept } = effectiveVirtualServices(
    virtualServices.filter((vs) => gatewayNames(vs).some((g) => gateways.has(g))),
    hostnames,
    isRouter,
  );
  return kept.flatMap((vs) => [
    ...httpTargets(vs, proxy, gateways),
    ...l4Targets(vs, proxy, gateways, 'tcp'),
    ...l4Targets(vs, proxy, gateways, 'tls'),
  ]);
}
