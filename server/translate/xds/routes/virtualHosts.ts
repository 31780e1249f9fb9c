// Sidecar outbound virtual hosts for one listener port (httproute.go:BuildSidecarOutboundVirtualHosts,
// route.go:BuildSidecarVirtualHostWrapper, separateVSHostsAndServices, selectVirtualServices,
// model/sidecar.go:computeWildcardHostVirtualServiceIndex).
import type { RouteJson, VirtualHostJson } from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { IstioConfig, LoadError, Protocol, ServiceModel } from '../../../model/mesh';
import { hasGatewaySemantics } from './gatewaySemantics';
import { domainName, outboundCluster } from '../../names';
import type { RouteSourceSink } from '../../routeSources';
import type { ProxyView } from '../../view/types';
import { byteCompare } from '../../../lib/compare';
import type { RouteContext } from './context';
import { defaultOutboundRoute, traceOperation } from './defaultRoute';
import { dedupeDomains, ipv6Compliant, serviceDomains } from './domains';
import { hashForDestination, hashForService, hashPolicy } from './hash';
import { hostsMatch, isWildcard, mostSpecificHostMatch } from '../../../model/host';
import { buildHttpRoutesForVirtualService, dedupeErrors } from './httpRoutes';

const HTTP_OR_SNIFFED: ReadonlySet<Protocol> = new Set<Protocol>(['HTTP', 'HTTP2', 'GRPC', 'GRPC-Web', 'HTTP_PROXY', 'Unsupported']);
export const isHttpOrSniffed = (p: Protocol): boolean => HTTP_OR_SNIFFED.has(p);

type VS = IstioConfig<'VirtualService'>;
const vsKey = (vs: VS) => `${vs.meta.namespace}/${vs.meta.name}`;
const vsHosts = (vs: VS): string[] =>
  Array.isArray(vs.spec?.hosts) ? vs.spec.hosts.filter((h): h is string => typeof h === 'string') : [];

interface Wrapper {
  services: ServiceModel[];
  /** Non-registry hosts of the VirtualService. */
  hosts: string[];
  routes: RouteJson[];
}

/** The view's services that have port P, narrowed to that port, keyed by lower-cased hostname (first wins). */
export function servicesForPort(view: ProxyView, port: number): Map<string, ServiceModel> {
  const out = new Map<string, ServiceModel>();
  for (const s of view.services) {
    const h = s.hostname.toLowerCase();
    if (out.has(h)) continue;
    const p = s.ports.find((sp) => sp.port === port);
    if (!p) continue;
    // already in that form (a lower-case host with just this port: the common case): the service itself, no copy
    out.set(h, h === s.hostname && s.ports.length === 1 ? s : { ...s, hostname: h, ports: [p] });
  }
  return out;
}

/** selectVirtualServices: VirtualServices with a host equal to, or wildcard-matching, one of the services. */
export function selectVirtualServices(vss: readonly VS[], services: ReadonlyMap<string, ServiceModel>): VS[] {
  const wildcardSvc = [...services.keys()].filter(isWildcard);
  return vss.filter((vs) =>
    vsHosts(vs).some((raw) => {
      const h = raw.toLowerCase();
      if (services.has(h)) return true;
      const candidates = isWildcard(h) ? [...services.keys()] : wildcardSvc;
      return candidates.some((s) => hostsMatch(h, s));
    }),
  );
}

/** computeWildcardHostVirtualServiceIndex: service hostname → key of its most specific VirtualService host's owner. */
export function wildcardVsIndex(vss: readonly VS[], services: readonly ServiceModel[]): Map<string, string> {
  const exact = new Map<string, string>();
  const wild = new Map<string, string>();
  for (const vs of vss) {
    for (const h of vsHosts(vs)) {
      const m = isWildcard(h) ? wild : exact;
      if (!m.has(h)) m.set(h, vsKey(vs));
    }
  }
  const out = new Map<string, string>();
  for (const s of services) {
    const v = mostSpecificHostMatch(s.hostname, exact, wild);
    if (v !== undefined) out.set(s.hostname.toLowerCase(), v);
  }
  return out;
}

/** separateVSHostsAndServices: registry services claimed by the VirtualService, and its other hosts. */
function separateHosts(vs: VS, registry: ReadonlyMap<string, ServiceModel>, index: ReadonlyMap<string, string>) {
  const hosts: string[] = [];
  const services: ServiceModel[] = [];
  const wildcards: string[] = [];
  const gatewaySemantics = hasGatewaySemantics(vs);
  for (const raw of vsHosts(vs)) {
    // Gateway API routes: a wildcard host is never expanded to registry services.
    if (isWildcard(raw) && gatewaySemantics) hosts.push(raw);
    else if (isWildcard(raw)) {
      wildcards.push(raw);
      continue;
    }
    const svc = registry.get(raw.toLowerCase());
    if (svc) services.push(svc);
    else hosts.push(raw);
  }
  for (const w of wildcards) {
    let found = false;
    for (const [svcHost, svc] of registry) {
      if (!hostsMatch(svcHost, w)) continue;
      found = true;
      if (index.get(svcHost) === vsKey(vs)) services.push(svc);
    }
    if (!found) hosts.push(w);
  }
  return { hosts, services };
}

/** The routing context of a sidecar on listener port P. */
export function sidecarRouteContext(
  view: ProxyView,
  port: number,
  registry: ReadonlyMap<string, ServiceModel>,
  routeSources?: RouteSourceSink,
): RouteContext {
  const ctx: RouteContext = {
    listenerPort: port,
    gatewayNames: new Set(['mesh']),
    proxyLabels: view.proxy.labels,
    proxyNamespace: view.proxy.namespace,
    serviceLookup: (h) => registry.get(h.toLowerCase()),
    consistentHash: (dst) =>
      dst.destination ? hashForDestination(view.destinationRule(dst.destination.host)?.spec, dst.destination) : undefined,
    isGateway: false,
  };
  // route.go:translateRoute: a route without `retries` takes MeshConfig.defaultHttpRetryPolicy.
  if (view.options.defaultHttpRetryPolicy) ctx.defaultRetryPolicy = view.options.defaultHttpRetryPolicy;
  if (routeSources) ctx.routeSources = routeSources;
  return ctx;
}

/**
 * Concrete-service aliases: hostname → the ExternalName (Alias) services pointing at it, lower-cased, in the
 * view's order. One pass over the services instead of one per virtual host.
 */
export function aliasIndex(services: readonly ServiceModel[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of services) {
    if (s.resolution !== 'Alias' || s.externalName === undefined) continue;
    const target = s.externalName.toLowerCase();
    const list = out.get(target);
    if (list) list.push(s.hostname.toLowerCase());
    else out.set(target, [s.hostname.toLowerCase()]);
  }
  return out;
}
const NO_ALIASES: readonly string[] = Object.freeze([]);

/** Virtual hosts (sorted by name, no catch-all) of route config `<port>` for a sidecar. */
export function buildSidecarVirtualHosts(
  view: ProxyView,
  port: number,
  routeSources?: RouteSourceSink,
): { vhosts: VirtualHostJson[]; errors: LoadError[] } {
  const errors: LoadError[] = [];
  const registry = servicesForPort(view, port);
  const vss = port === 80 ? [...view.virtualServices] : selectVirtualServices(view.virtualServices, registry);
  const index = wildcardVsIndex(view.virtualServices, view.services);
  const ctx = sidecarRouteContext(view, port, registry, routeSources);

  const wrappers: Wrapper[] = [];
  for (const vs of vss) {
    const built = buildHttpRoutesForVirtualService(vs, ctx);
    errors.push(...built.errors);
    if (built.routes.length === 0) continue;
    const separated = separateHosts(vs, registry, index);
    const { hosts } = separated;
    let { services } = separated;
    if (hasGatewaySemantics(vs)) {
      // BuildSidecarVirtualHostWrapper: a Gateway API (GAMMA) route applies only to services of its own namespace,
      // or to every service for proxies in the route's namespace (a consumer route).
      services = services.filter((s) => s.namespace === vs.meta.namespace || view.proxy.namespace === vs.meta.namespace);
      if (services.length === 0) continue;
    }
    const httpServices = services.filter((s) => s.ports.some((p) => isHttpOrSniffed(p.protocol)));
    if (httpServices.length === 0 && port !== 80) continue;
    wrappers.push({ services: httpServices, hosts, routes: built.routes });
  }
  const claimed = new Set(wrappers.flatMap((w) => w.services.map((s) => s.hostname)));
  for (const [h, svc] of registry) {
    if (claimed.has(h) || svc.resolution === 'Alias') continue;
    const p = svc.ports[0];
    if (!p || !isHttpOrSniffed(p.protocol)) continue;
    const hp = hashPolicy(hashForService(view.destinationRule(svc.hostname)?.spec, p.port));
    // BuildDefaultHTTPOutboundRoute: retry.ConvertPolicy(mesh.defaultHttpRetryPolicy)
    const route = defaultOutboundRoute(
      outboundCluster(p.port, svc.hostname),
      traceOperation(svc.hostname, p.port),
      hp,
      view.options.defaultHttpRetryPolicy,
    );
    wrappers.push({ services: [svc], hosts: [], routes: [route] });
  }

  const knownFqdn = new Set<string>();
  for (const w of wrappers) for (const s of w.services) knownFqdn.add(domainName(s.hostname, port)).add(s.hostname);
  const names = new Set<string>();
  const used = new Set<string>();
  const proxyDomain = `${view.proxy.namespace}.svc.${view.options.domainSuffix}`;
  const vhosts: VirtualHostJson[] = [];
  const aliases = aliasIndex(view.services);
  const add = (host: string, w: Wrapper, svc?: ServiceModel) => {
    const name = domainName(host, port);
    if (names.has(name)) return; // the first virtual host with a name wins
    names.add(name);
    const set = svc
      ? serviceDomains(svc, proxyDomain, aliases.get(svc.hostname) ?? NO_ALIASES)
      : { domains: [ipv6Compliant(host)], altHosts: [] };
    const domains = dedupeDomains(set, used, knownFqdn);
    if (domains.length) vhosts.push({ name, domains, routes: w.routes, includeRequestAttemptCount: true });
  };
  for (const w of wrappers) {
    if (w.routes.length === 0) continue;
    for (const h of w.hosts) add(h.toLowerCase(), w);
    for (const s of w.services) add(s.hostname, w, s);
  }
  vhosts.sort((a, b) => byteCompare(a.name ?? '', b.name ?? ''));
  return { vhosts, errors: dedupeErrors(errors) };
}
