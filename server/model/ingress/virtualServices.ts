// Ingress rules → one VirtualService per host across every served Ingress
// (pilot/pkg/config/kube/ingress/virtualservices.go VirtualServices, convertIngressRule, sortHTTPRoutes;
// ingress.go RuleCollection). Rules for a host are ordered by their Ingress's creation time, name,
// namespace and rule index; each path becomes a route to `<svc>.<ingress ns>.svc.<domain>`; the routes are
// then stably sorted longest path first, exact before prefix at equal length. The VirtualService is named
// after the first rule's Ingress, lives in its namespace, binds to its Gateway, and carries the
// `internal.istio.io/route-semantics: ingress` annotation (prefixes become Envoy path_separated_prefix).
import type { HTTPMatchRequest, HTTPRoute, StringMatch } from '../istio';
import type { IstioConfig } from '../mesh';
import type { KubeObject } from '../parse/objects';
import type { KubeIngress, KubeIngressBackend, KubeIngressRule } from '../schema/ingress';
import { byteCompare } from '../../lib/compare';
import { INGRESS_GATEWAY_NAME, INGRESS_NAMESPACE, ZERO_TIME, ingressGatewayName } from './gateway';
import type { IngressProblem } from './types';

export const ROUTE_SEMANTICS_ANNOTATION = 'internal.istio.io/route-semantics';

export interface IngressRuleRef {
  ingress: KubeObject<KubeIngress>;
  index: number;
  rule: KubeIngressRule;
}

/** Named service ports, `namespace/name` → port name → number (ServicesWithPorts). */
export type ServicePorts = ReadonlyMap<string, ReadonlyMap<string, number>>;

const time = (ts: string): number => {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? 0 : t;
};

/** sortRulesByCreationTimestamp. */
function byRuleOrder(a: IngressRuleRef, b: IngressRuleRef): number {
  return (
    time(a.ingress.meta.creationTimestamp) - time(b.ingress.meta.creationTimestamp) ||
    byteCompare(a.ingress.meta.name, b.ingress.meta.name) ||
    byteCompare(a.ingress.meta.namespace, b.ingress.meta.namespace) ||
    a.index - b.index
  );
}

/** createFallbackStringMatch: `*`, `/*`, `.*`, '' → no match; `x.*` and `x/*` → prefix x; else exact. */
export function fallbackStringMatch(s: string): StringMatch | undefined {
  if (s === '' || s === '*' || s === '/*' || s === '.*') return undefined;
  if (s.endsWith('.*')) return { prefix: s.slice(0, -2) };
  if (s.endsWith('/*')) return { prefix: s.slice(0, -2) };
  return { exact: s };
}

/** The URI match of one path by pathType (Exact, Prefix; ImplementationSpecific and absent use the fallback). */
export function pathMatch(path: string, pathType: string | undefined): StringMatch | undefined {
  if (pathType === 'Exact') return { exact: path };
  if (pathType === 'Prefix') return { prefix: path };
  return fallbackStringMatch(path);
}

/** getMatchURILength. */
function uriLength(r: HTTPRoute): { len: number; exact: boolean } {
  const uri = r.match?.[0]?.uri;
  if (!r.match?.length) return { len: 0, exact: false };
  if (uri?.exact !== undefined) return { len: uri.exact.length, exact: true };
  if (uri?.prefix !== undefined) return { len: uri.prefix.length, exact: false };
  return { len: -1, exact: false };
}

/** sortHTTPRoutes (stable): longer URI first; at equal length exact before the rest. */
export function sortIngressRoutes(routes: HTTPRoute[]): HTTPRoute[] {
  const less = (a: HTTPRoute, b: HTTPRoute) => {
    const x = uriLength(a);
    const y = uriLength(b);
    return x.len === y.len ? x.exact && !y.exact : x.len > y.len;
  };
  return routes.sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
}

function backendRoute(
  backend: KubeIngressBackend | undefined,
  namespace: string,
  domainSuffix: string,
  ports: ServicePorts,
): { route?: HTTPRoute; problem?: string } {
  const svc = backend?.service;
  if (!svc) return { problem: 'no service backend: path skipped (istiod: "backend service must be specified")' };
  let number = svc.port?.number ?? 0;
  if (!(number > 0)) {
    const portName = svc.port?.name ?? '';
    const resolved = ports.get(`${namespace}/${svc.name}`)?.get(portName);
    if (resolved === undefined)
      return { problem: `named port "${portName}" not found on Service ${namespace}/${svc.name}: path skipped (istiod cannot resolve it)` };
    number = resolved;
  }
  return { route: { route: [{ destination: { host: `${svc.name}.${namespace}.svc.${domainSuffix}`, port: { number } }, weight: 100 }] } };
}

function convertRule(ref: IngressRuleRef, domainSuffix: string, ports: ServicePorts, problems: IngressProblem[]): HTTPRoute[] {
  const out: HTTPRoute[] = [];
  (ref.rule.http?.paths ?? []).forEach((p, j) => {
    const { route, problem } = backendRoute(p.backend, ref.ingress.meta.namespace, domainSuffix, ports);
    if (!route) {
      problems.push({ ingress: ref.ingress, path: `spec.rules[${ref.index}].http.paths[${j}].backend`, message: problem ?? '' });
      return;
    }
    const uri = pathMatch(p.path ?? '', p.pathType);
    if (uri) route.match = [{ uri } satisfies HTTPMatchRequest];
    out.push(route);
  });
  return out;
}

/** RuleCollection: every rule with an `http` section, indexed by host (`*` when empty). */
export function rulesByHost(ingresses: readonly KubeObject<KubeIngress>[], problems: IngressProblem[]): Map<string, IngressRuleRef[]> {
  const byHost = new Map<string, IngressRuleRef[]>();
  for (const ingress of ingresses) {
    if (ingress.body.spec?.defaultBackend)
      problems.push({
        ingress,
        path: 'spec.defaultBackend',
        message: 'default backend ignored: istiod does not serve it (it would match every host and path; use a VirtualService)',
        severity: 'info',
      });
    (ingress.body.spec?.rules ?? []).forEach((rule, index) => {
      if (!rule.http) {
        problems.push({ ingress, path: `spec.rules[${index}].http`, message: 'no paths defined: rule skipped' });
        return;
      }
      const host = rule.host || '*';
      const list = byHost.get(host) ?? [];
      list.push({ ingress, index, rule });
      byHost.set(host, list);
    });
  }
  return byHost;
}

export function convertIngressVirtualServices(
  ingresses: readonly KubeObject<KubeIngress>[],
  domainSuffix: string,
  ports: ServicePorts,
  problems: IngressProblem[],
): IstioConfig<'VirtualService'>[] {
  const out: IstioConfig<'VirtualService'>[] = [];
  for (const [host, rules] of [...rulesByHost(ingresses, problems)].sort(([a], [b]) => byteCompare(a, b))) {
    rules.sort(byRuleOrder);
    const http = sortIngressRoutes(rules.flatMap((r) => convertRule(r, domainSuffix, ports, problems)));
    const first = rules[0]!.ingress;
    out.push({
      kind: 'VirtualService',
      apiVersion: 'networking.istio.io/v1',
      meta: {
        name: `${host.replaceAll('.', '-')}-${first.meta.name}-${INGRESS_GATEWAY_NAME}`,
        namespace: first.meta.namespace,
        labels: {},
        annotations: { [ROUTE_SEMANTICS_ANNOTATION]: 'ingress' },
        creationTimestamp: ZERO_TIME,
      },
      spec: { hosts: [host], gateways: [`${INGRESS_NAMESPACE}/${ingressGatewayName(first.meta.name, first.meta.namespace)}`], http },
      origin: { ...first.origin },
      generatedBy: { kind: 'Ingress', namespace: first.meta.namespace, name: first.meta.name },
    });
  }
  return out;
}
