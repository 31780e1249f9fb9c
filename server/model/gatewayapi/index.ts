// Gateway API → internal Istio config, the way istiod's Gateway API controller
// (pilot/pkg/config/kube/gateway) turns GatewayClass / Gateway / HTTPRoute / GRPCRoute / TCPRoute / TLSRoute /
// ReferenceGrant into Gateways and VirtualServices, with the status it writes back. Pure: called by
// ../snapshot with what the snapshot already knows (namespaces, services, pods).
import type { IstioConfig, LoadError, NamespaceModel, PodModel } from '../mesh';
import { byteCompare } from '../../lib/compare';
import { proxyIdOf } from '../proxyIdentity';
import {
  type ConvertedGateway,
  convertGateway,
  effectiveClasses,
  GATEWAY_CONTROLLER,
  GATEWAY_NAME_LABEL,
  type ListenerParent,
} from './listeners';
import { convertHttpLikeRoute, convertL4Route, mergeByKey, type RouteOutput } from './routes';
import type { Condition, GatewayApiModel, GatewayApiObjects, GatewayStatusModel } from './types';

export interface GatewayApiContext {
  domainSuffix: string;
  namespaces: ReadonlyMap<string, NamespaceModel>;
  /** `ns/name` of every Kubernetes Service. */
  services: ReadonlySet<string>;
  /** Every service host known (ServiceEntry hosts included). */
  hosts: ReadonlySet<string>;
  pods: readonly PodModel[];
  /** istiod runs with the ambient profile (built-in class istio-waypoint). */
  ambient?: boolean;
  /** Whether the service `host` of namespace `ns` has endpoints on service port `port`. */
  hasEndpoints(ns: string, host: string, port: number): boolean;
}

export interface GatewayApiResult {
  gateways: IstioConfig<'Gateway'>[];
  virtualServices: IstioConfig<'VirtualService'>[];
  model: GatewayApiModel;
  errors: LoadError[];
}

/** ReferenceGrant check (gatewaycommon.ReferenceGrants.BackendAllowed): a grant in the target namespace names the route kind + namespace. */
function grantChecker(objs: GatewayApiObjects) {
  return (fromKind: string, fromNs: string, toKind: string, toNs: string, toName: string): boolean =>
    objs.referenceGrants.some(
      (g) =>
        g.meta.namespace === toNs &&
        g.spec.from.some((f) => f.group === 'gateway.networking.k8s.io' && f.kind === fromKind && f.namespace === fromNs) &&
        g.spec.to.some((t) => (t.group === '' || t.group === 'core') && t.kind === toKind && (t.name === undefined || t.name === toName)),
    );
}

const condition = (type: string, ok: boolean, reason: string, message: string): Condition => ({
  type,
  status: ok ? 'True' : 'False',
  reason,
  message,
});

export function convertGatewayApi(objs: GatewayApiObjects, ctx: GatewayApiContext): GatewayApiResult {
  const errors: LoadError[] = [];
  const classes = effectiveClasses(objs.gatewayClasses, ctx.ambient);
  const ours = (cls: string) => classes.get(cls) === GATEWAY_CONTROLLER;

  const converted: ConvertedGateway[] = objs.gateways
    .filter((g) => ours(g.spec.gatewayClassName))
    .map((g) => convertGateway(g, ctx.namespaces, ctx.domainSuffix));
  const listenersByGateway = new Map<string, ListenerParent[]>(
    converted.map((c) => [`${c.gateway.meta.namespace}/${c.gateway.meta.name}`, c.parents]),
  );
  for (const g of objs.gateways)
    if (!ours(g.spec.gatewayClassName) && !classes.has(g.spec.gatewayClassName))
      errors.push({
        severity: 'warning',
        message: `GatewayClass "${g.spec.gatewayClassName}" not found: istiod does not program this Gateway`,
        object: `Gateway ${g.meta.namespace}/${g.meta.name}`,
        path: 'spec.gatewayClassName',
        ...(g.origin.file !== undefined ? { file: g.origin.file } : {}),
        ...(g.origin.doc !== undefined ? { doc: g.origin.doc } : {}),
      });

  const grants = grantChecker(objs);
  const serviceExists = (ns: string, name: string) => ctx.services.has(`${ns}/${name}`);
  const routeCtx = (kind: string, ns: string) => ({
    domainSuffix: ctx.domainSuffix,
    listenersOf: (gns: string, name: string) => listenersByGateway.get(`${gns}/${name}`),
    serviceExists,
    hostExists: (h: string) => ctx.hosts.has(h),
    backendAllowed: (toKind: string, toNs: string, toName: string) => grants(kind, ns, toKind, toNs, toName),
  });

  const outputs: RouteOutput[] = [];
  for (const r of [...objs.httpRoutes, ...objs.grpcRoutes]) outputs.push(convertHttpLikeRoute(routeCtx(r.kind, r.meta.namespace), r));
  for (const r of [...objs.tcpRoutes, ...objs.tlsRoutes]) outputs.push(convertL4Route(routeCtx(r.kind, r.meta.namespace), r));

  for (const o of outputs) for (const l of o.attachedTo) (l as ListenerParent).status.attachedRoutes++;
  const virtualServices = mergeByKey(outputs.flatMap((o) => o.virtualServices));
  // Which generated VS carries each route's rules (by its parents annotation).
  for (const vs of virtualServices)
    for (const parent of (vs.meta.annotations['internal.istio.io/parents'] ?? '').split(',')) {
      const o = outputs.find((x) => `${x.status.kind}/${x.status.name}.${x.status.namespace}` === parent);
      o?.status.generated.push(`${vs.meta.namespace}/${vs.meta.name}`);
    }

  const proxyPods = ctx.pods.filter((p) => p.proxy !== 'none');
  const gateways: GatewayStatusModel[] = converted.map((c) => gatewayStatus(c, proxyPods, ctx));

  const model: GatewayApiModel = {
    gatewayClasses: [...classes]
      .filter(([, controller]) => controller === GATEWAY_CONTROLLER)
      .map(([name, controllerName]) => ({
        name,
        controllerName,
        conditions: [condition('Accepted', true, 'Accepted', 'Handled by Istio controller')],
      }))
      .sort((a, b) => byteCompare(a.name, b.name)),
    gateways,
    routes: outputs.map((o) => o.status),
  };
  return { gateways: converted.flatMap((c) => c.configs), virtualServices, model, errors };
}

/** reportGatewayStatus + the proxy the deployment controller would run (`<gw>-<class>` pods). */
function gatewayStatus(c: ConvertedGateway, pods: readonly PodModel[], ctx: GatewayApiContext): GatewayStatusModel {
  const gw = c.gateway;
  const ns = gw.meta.namespace;
  const total = gw.spec.listeners.length;
  const accepted =
    c.validListeners === 0
      ? condition('Accepted', false, 'ListenersNotValid', "None of the Gateway's listeners are valid")
      : c.validListeners < total
        ? condition('Accepted', true, 'ListenersNotValid', "One or more of the Gateway's listeners are invalid")
        : condition('Accepted', true, 'Accepted', 'Resource accepted');
  // ResolveGatewayInstances (gatewaycommon/context.go): each gateway Service must exist and have endpoints on the
  // listener ports; `host:port` pairs found are the "internal" addresses the Programmed message names.
  const ports = [...new Set(gw.spec.listeners.map((l) => l.port))];
  const internal: string[] = [];
  const warnings: string[] = [];
  for (const h of c.serviceHosts) {
    const m = /^([^.]+)\.([^.]+)\.svc\./.exec(h);
    if (!(m ? ctx.services.has(`${m[2]}/${m[1]}`) : ctx.hosts.has(h))) {
      warnings.push(`hostname "${h}" not found`);
      continue;
    }
    const svcNs = m ? (m[2] as string) : ns;
    const found = ports.filter((p) => ctx.hasEndpoints(svcNs, h, p));
    for (const p of found) internal.push(`${h}:${p}`);
    if (found.length < ports.length && found.length === 0) warnings.push(`no instances found for hostname "${h}"`);
  }
  internal.sort(byteCompare);
  const join = (ss: string[]) =>
    ss.length <= 1 ? (ss[0] ?? '') : ss.length === 2 ? `${ss[0]} and ${ss[1]}` : `${ss.slice(0, -1).join(', ')}, and ${ss.at(-1)}`;
  const programmed =
    warnings.length === 0
      ? condition(
          'Programmed',
          true,
          'Programmed',
          internal.length ? `Resource programmed, assigned to service(s) ${join(internal)}` : 'Resource programmed',
        )
      : condition(
          'Programmed',
          false,
          'AddressNotAssigned',
          internal.length
            ? `Assigned to service(s) ${join(internal)}, but failed to assign to all requested addresses: ${warnings.join('; ')}`
            : `Failed to assign to any requested addresses: ${warnings.join('; ')}`,
        );
  // Pods of the gateway deployment: label gateway.networking.k8s.io/gateway-name=<gw> (kube-gateway.yaml), or selected by the named Service.
  const proxies = pods
    .filter((p) => p.namespace === ns && p.labels[GATEWAY_NAME_LABEL] === gw.meta.name)
    .map((p) => proxyIdOf(p.name, p.namespace))
    .sort(byteCompare);
  return {
    namespace: ns,
    name: gw.meta.name,
    className: gw.spec.gatewayClassName,
    conditions: [accepted, programmed, condition('ResolvedRefs', true, 'ResolvedRefs', 'All references resolved')],
    listeners: c.parents.map((p) => p.status),
    proxy: { deploymentName: c.deploymentName, serviceHosts: c.serviceHosts, proxies, managed: c.managed },
    generated: c.configs.map((g) => `${g.meta.namespace}/${g.meta.name}`),
    origin: gw.origin,
  };
}

export type { GatewayApiModel } from './types';
