// describeView: a ProxyView as plain, deterministic JSON — what applies to the proxy and why, without the
// Envoy output: the Sidecar in force, imported services and VirtualServices (with delegate merge origins),
// service targets, Sidecar egress listeners, the services that get clusters, the DestinationRule per
// imported host, and for routers the merged Gateways with each server's VirtualService bindings. The view
// goldens (view/golden.test.ts) pin it per translator test case, like Envoy Gateway pins each stage.
import type { IstioConfig, ServiceModel } from '../../model/mesh';
import type { GwServer } from './gateway/types';
import type { BoundVirtualService, ProxyView } from './types';

const ref = (c: Pick<IstioConfig, 'meta'>) => `${c.meta.namespace}/${c.meta.name}`;
const svc = (s: ServiceModel) => `${s.hostname} (${s.namespace}) ${s.ports.map((p) => `${p.port}/${p.protocol}`).join(',')}`;
const server = (g: GwServer) => `${g.gatewayName} spec.servers[${g.index}]`;

function vsEntry(vs: BoundVirtualService) {
  const out: Record<string, unknown> = { name: ref(vs), hosts: vs.spec.hosts ?? [] };
  if (vs.httpOrigins)
    out.http = vs.httpOrigins.map((o) =>
      o.delegate ? `http[${o.rootIndex}] ← ${o.delegate.namespace}/${o.delegate.name} http[${o.delegate.index}]` : `http[${o.rootIndex}]`,
    );
  return out;
}

function gatewayEntry(view: ProxyView) {
  const gw = view.gateway;
  if (!gw) return undefined;
  const m = gw.merged;
  const servers = [...m.mergedServers.values()].flatMap((ms) => ms.servers);
  return {
    gateways: m.gateways.map(ref),
    serverPorts: m.serverPorts.map((p) => ({
      port: p.number,
      protocol: p.protocol,
      ...(p.bind ? { bind: p.bind } : {}),
      routeName: gw.serversAt(p)?.routeName ?? '',
      servers: (gw.serversAt(p)?.servers ?? []).map(server),
    })),
    routes: Object.fromEntries([...m.serversByRouteName].map(([name, ss]) => [name, ss.map(server)])),
    tls: servers.flatMap((g) => {
      const info = m.tlsServerInfo.get(g);
      return info ? [{ server: server(g), routeName: info.routeName, sniHosts: info.sniHosts }] : [];
    }),
    bindings: servers.map((g) => ({
      server: server(g),
      hosts: g.server.hosts,
      http: gw.httpBindings(g).map((b) => ({ virtualService: ref(b.vs), hosts: b.hosts })),
      l4: gw.l4Bindings(g).map(ref),
    })),
  };
}

export function describeView(view: ProxyView): Record<string, unknown> {
  const egress = view.egressListeners();
  const out: Record<string, unknown> = {
    proxy: { id: view.proxy.id, type: view.proxy.type, namespace: view.proxy.namespace },
    ...(view.sidecar ? { sidecar: ref(view.sidecar) } : {}),
    outboundTrafficPolicy: view.outboundTrafficPolicy,
    services: view.services.map(svc),
    virtualServices: view.virtualServices.map(vsEntry),
    serviceTargets: view.serviceTargets.map((t) => `${t.service.hostname}:${t.port.port} → ${t.targetPort}`),
    egressListeners:
      egress.length === 1 && egress[0]?.index === -1
        ? 'catch-all: the view itself'
        : egress.map((e) => ({
            index: e.index,
            ...(e.port ? { port: `${e.port.port}/${e.port.protocol}` } : {}),
            ...(e.bind ? { bind: e.bind } : {}),
            services: e.view.services.map(svc),
            virtualServices: e.view.virtualServices.map(ref),
          })),
    clusterServices: view.clusterServices().map(svc),
    destinationRules: Object.fromEntries(
      view.services.flatMap((s) => {
        const dr = view.destinationRule(s.hostname);
        return dr ? [[s.hostname, dr.from.map(ref)]] : [];
      }),
    ),
  };
  const gateway = gatewayEntry(view);
  if (gateway) out.gateway = gateway;
  return out;
}
