// mergeGateways (model/push_context.go:mergeGateways + model/gateway.go:mergeGateways): every Gateway
// whose selector selects the router (creation order), its servers' hosts sanitized, each server port
// resolved to the port the pod listens on (resolvePorts), and servers merged per resolved port:
// plaintext HTTP servers share `http.<port>`, TLS servers are told apart by SNI (duplicate hosts skipped),
// HTTPS servers that terminate TLS get `https.<server port>.<port name>.<gw name>.<gw ns>`.
import { sanitizeServerHosts } from '../../../model/host';
import type { Server } from '../../../model/istio';
import type { IstioConfig, LoadError, MeshSnapshot, ProxyModel } from '../../../model/mesh';
import { parseProtocol } from '../../../model/parse/protocol';
import { isHttpProtocol } from '../../../model/protocol';
import { configError } from '../../configError';
import { gatewayHttpRouteName, gatewayHttpsRouteName } from '../../names';
import { labelsMatch } from '../hosts';
import type { ServiceTarget } from '../types';
import { serverPortKey, type GwServer, type MergedGateway, type ServerPort } from './types';
import { byteCompare } from '../../../lib/compare';

/** Annotation istiod puts on the Gateways it generates from Gateway API Gateways (model.InternalGatewayServiceAnnotation). */
export const GATEWAY_SERVICE_ANNOTATION = 'internal.istio.io/gateway-service';

/**
 * The Gateways whose selector selects a router's labels, in creation order
 * (push_context.go:mergeGateways; no selector = every gateway pod). A Gateway generated from the Gateway API
 * instead binds to the proxies that are targets of one of the Services its `internal.istio.io/gateway-service`
 * annotation names, in the Gateway's namespace.
 */
export function gatewaysForRouter(snapshot: MeshSnapshot, proxy: ProxyModel): IstioConfig<'Gateway'>[] {
  return snapshot.gateways.filter((g) => {
    const svcs = g.meta.annotations?.[GATEWAY_SERVICE_ANNOTATION];
    if (svcs === undefined) return labelsMatch(g.spec?.selector, proxy.labels);
    return svcs
      .split(',')
      .some((host) =>
        (snapshot.servicesByHost.get(host) ?? []).some(
          (s) =>
            s.namespace === g.meta.namespace &&
            s.namespace === proxy.namespace &&
            s.selector !== undefined &&
            labelsMatch(s.selector, proxy.labels),
        ),
      );
  });
}

/** kube label that opts a gateway Service out of port translation (model.DisableGatewayPortTranslationLabel). */
export const DISABLE_PORT_TRANSLATION_LABEL = 'experimental.istio.io/disable-gateway-port-translation';

/**
 * resolvePorts with legacy label selection: the target port of the first service target whose service
 * port equals the server port; the server port itself when none does.
 */
export function resolvePort(number: number, targets: readonly ServiceTarget[]): number {
  for (const t of targets) {
    if (t.service.labels[DISABLE_PORT_TRANSLATION_LABEL] !== undefined) continue;
    if (t.port.port === number) return t.targetPort;
  }
  return number;
}

export const isPassthroughServer = (s: Server): boolean => s.tls?.mode === 'PASSTHROUGH' || s.tls?.mode === 'AUTO_PASSTHROUGH';
/** gateway.IsTLSServer: TLS settings on a non-HTTP port. */
export const isTlsServer = (g: GwServer): boolean => g.server.tls !== undefined && !isHttpProtocol(g.protocol);
/** gateway.IsHTTPServer: HTTP-class port, or HTTPS that is not passthrough. */
export const isHttpServer = (g: GwServer): boolean =>
  isHttpProtocol(g.protocol) || (g.protocol === 'HTTPS' && !isPassthroughServer(g.server));
/** gateway.IsHTTPSServerWithTLSTermination. */
export const isHttpsWithTermination = (g: GwServer): boolean =>
  g.server.tls !== undefined && g.protocol === 'HTTPS' && !isPassthroughServer(g.server);

/** gatewayRDSRouteName: `http.<resolved port>` / `https.<server port>.<port name>.<gw>.<ns>` (+ `.<bind>`); '' otherwise. */
export function gatewayRouteName(g: GwServer, resolvedPort: number): string {
  const bind = g.server.bind ? `.${g.server.bind}` : '';
  if (isHttpProtocol(g.protocol)) return gatewayHttpRouteName(resolvedPort) + bind;
  if (g.protocol === 'HTTPS' && !isPassthroughServer(g.server)) {
    return gatewayHttpsRouteName(g.server.port.number, g.server.port.name ?? '', g.gateway.meta.name, g.gateway.meta.namespace) + bind;
  }
  return '';
}

/** GetSNIHostsForServer: hosts without their `ns/` part, deduplicated and sorted. */
export function sniHostsForServer(s: Server): string[] {
  if (!s.tls) return [];
  const set = new Set<string>();
  for (const h of s.hosts ?? []) set.add(h.includes('/') ? (h.split('/')[1] ?? h) : h);
  return [...set].sort(byteCompare);
}

/** canMergeProtocols: an HTTP-class server may join an HTTP-class (or same-protocol) plaintext port. */
const canMergeProtocols = (current: string, p: string): boolean => {
  const c = parseProtocol(current);
  const n = parseProtocol(p);
  return (isHttpProtocol(c) || c === n) && isHttpProtocol(n);
};

export function mergeGateways(
  gateways: IstioConfig<'Gateway'>[],
  serviceTargets: readonly ServiceTarget[],
): { merged: MergedGateway; errors: LoadError[] } {
  const errors: LoadError[] = [];
  const merged: MergedGateway = {
    serverPorts: [],
    mergedServers: new Map(),
    serversByRouteName: new Map(),
    tlsServerInfo: new Map(),
    gateways,
  };
  const gatewayPorts = new Set<number>();
  const plainText = new Map<number, ServerPort>();
  const nonPlainTextBinds = new Map<number, Set<string>>();
  const tlsHostsByPort = new Map<number, Map<string, string>>();

  const skip = (g: GwServer, message: string) => errors.push(configError(g.gateway, `spec.servers[${g.index}]`, message));
  const addPlainText = (g: GwServer, sp: ServerPort, routeName: string) => {
    if (!isTlsServer(g)) plainText.set(sp.number, sp);
    if (isHttpServer(g)) merged.serversByRouteName.set(routeName, [g]);
    merged.mergedServers.set(serverPortKey(sp), { servers: [g], routeName });
    merged.serverPorts.push(sp);
  };
  const appendRoute = (routeName: string, g: GwServer) =>
    merged.serversByRouteName.set(routeName, [...(merged.serversByRouteName.get(routeName) ?? []), g]);

  for (const gw of gateways) {
    const gatewayName = `${gw.meta.namespace}/${gw.meta.name}`;
    const servers = Array.isArray(gw.spec?.servers) ? gw.spec.servers : [];
    servers.forEach((raw, index) => {
      if (!raw || typeof raw !== 'object' || !raw.port || !Number.isInteger(raw.port.number) || raw.port.number <= 0) {
        errors.push(configError(gw, `spec.servers[${index}].port`, 'server without a valid port: skipped', 'error'));
        return;
      }
      const hosts = Array.isArray(raw.hosts) ? raw.hosts.filter((h): h is string => typeof h === 'string') : [];
      const server: Server = { ...raw, hosts: sanitizeServerHosts(hosts, gw.meta.namespace) };
      const g: GwServer = { server, gateway: gw, index, gatewayName, protocol: parseProtocol(raw.port.protocol), httpsTermination: false };
      g.httpsTermination = isHttpsWithTermination(g);
      const resolved = resolvePort(raw.port.number, serviceTargets);
      const routeName = gatewayRouteName(g, resolved);
      const bind = server.bind ?? '';
      if (server.tls) {
        let known = tlsHostsByPort.get(resolved);
        if (!known) tlsHostsByPort.set(resolved, (known = new Map()));
        const dup = server.hosts.filter((h) => known?.get(h) === bind);
        if (dup.length > 0) {
          skip(g, `server skipped: TLS host(s) ${dup.join(', ')} already served on port ${resolved} by an older server`);
          return;
        }
        for (const h of server.hosts) known.set(h, bind);
        merged.tlsServerInfo.set(g, { sniHosts: sniHostsForServer(server), routeName });
      }
      const sp: ServerPort = { number: resolved, protocol: raw.port.protocol ?? '', bind };
      if (!gatewayPorts.has(resolved)) {
        gatewayPorts.add(resolved);
        addPlainText(g, sp, routeName);
        return;
      }
      const current = plainText.get(resolved);
      if (current) {
        if (!canMergeProtocols(current.protocol, sp.protocol) && current.bind === bind) {
          skip(g, `server skipped: port ${resolved} (${sp.protocol}) conflicts with an existing ${current.protocol} server on that port`);
          return;
        }
        if (routeName === '' && current.bind === bind) {
          skip(g, `server skipped: port ${resolved} is already used by a plaintext server`);
          return;
        }
        if (current.bind !== bind) {
          const ms = merged.mergedServers.get(serverPortKey(sp));
          if (!ms) addPlainText(g, sp, routeName);
          else {
            ms.routeName = routeName;
            ms.servers.push(g);
            appendRoute(routeName, g);
          }
        } else {
          merged.mergedServers.get(serverPortKey(current))?.servers.push(g);
          appendRoute(routeName, g);
        }
        return;
      }
      if (!isTlsServer(g)) {
        plainText.set(resolved, sp);
        if (isHttpServer(g)) merged.serversByRouteName.set(routeName, [g]);
        merged.mergedServers.set(serverPortKey(sp), { servers: [g], routeName });
        merged.serverPorts.push(sp);
        return;
      }
      if (isHttpServer(g)) {
        if (routeName === '') {
          skip(g, 'server skipped: no route name can be built for it');
          return;
        }
        if (merged.serversByRouteName.has(routeName)) {
          skip(g, `server skipped: HTTPS port name is not unique (route ${routeName} exists)`);
          return;
        }
        merged.serversByRouteName.set(routeName, [g]);
      }
      const binds = nonPlainTextBinds.get(resolved) ?? new Set<string>();
      nonPlainTextBinds.set(resolved, binds);
      const newBind = !binds.has(bind);
      binds.add(bind);
      if (!server.tls && !newBind) {
        skip(g, 'server skipped: a TLS port shared with other servers needs TLS settings');
        return;
      }
      const ms = merged.mergedServers.get(serverPortKey(sp));
      if (!ms) {
        merged.mergedServers.set(serverPortKey(sp), { servers: [g], routeName: '' });
        merged.serverPorts.push(sp);
      } else ms.servers.push(g);
    });
  }
  return { merged, errors };
}
