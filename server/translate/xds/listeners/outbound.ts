// Sidecar outbound listeners, one per (bind, port) key, with istiod's conflict rules
// (listener.go: buildSidecarOutboundListeners, buildSidecarOutboundListener, mergeTCPFilterChains,
// isConflictWithWellKnownPort, buildSidecarOutboundHTTPListenerOpts).
// Sidecar egress listeners with an explicit port get their own listener on that port (view/egress.ts);
// captureMode NONE (bindToPort) is not modelled (see index.ts).
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';
import type { Protocol, ServiceModel, ServicePort } from '../../../model/mesh';
import { sidecarRouteName, sniffedRouteName } from '../../names';
import { conflictsWith, parsePrefix, type ChainOpts } from './chainOpts';
import type { BuildCtx } from './context';
import { PLAINTEXT_HTTP_ALPNS, RAW_BUFFER_TRANSPORT, RESERVED_PORTS } from './filters';
import { buildOutboundListener, type OutboundEntry, type RouteRefs } from './outboundListener';
import { tcpListenerChains } from './outboundTcp';
import { isHttpProtocol, isSniffedProtocol, isTcpProtocol, listenerProtocol, type ListenerProtocol } from '../../../model/protocol';

const WILDCARD = '0.0.0.0';

type Conflict = 'none' | 'HTTPOverTCP' | 'TCPOverHTTP' | 'TCPOverTCP' | 'TCPOverAuto' | 'AutoOverHTTP' | 'AutoOverTCP';

const serviceLabel = (s: ServiceModel) =>
  `${s.ref.kind || (s.registry === 'Kubernetes' ? 'Service' : 'ServiceEntry')} ${s.namespace}/${s.name}`;

function warn(ctx: BuildCtx, s: ServiceModel, port: ServicePort, message: string): void {
  ctx.errors.push({ severity: 'warning', object: serviceLabel(s), path: `spec.ports[${s.ports.indexOf(port)}]`, message });
}

/** buildSidecarOutboundHTTPListenerOpts: RDS `<port>`, or `<fqdn>:<port>` for sniffed VIP-bound listeners. */
function httpChainOpts(s: ServiceModel, port: ServicePort, bind: string, lp: ListenerProtocol): ChainOpts[] {
  const sniffedVip = lp === 'AUTO' && bind !== WILDCARD;
  const rds = sniffedVip ? sniffedRouteName(s.hostname, port.port) : sidecarRouteName(port.port);
  return [{ http: { rds, protocol: port.protocol, ...(sniffedVip ? { sniffedHost: s.hostname } : {}) } }];
}

/** The HTTP chain of a wildcard or sniffing listener only takes plaintext HTTP (http_inspector ALPNs). */
function withHttpAlpn(opts: ChainOpts[]): ChainOpts[] {
  return opts.map((o) => ({ ...o, applicationProtocols: [...PLAINTEXT_HTTP_ALPNS], transportProtocol: RAW_BUFFER_TRANSPORT }));
}

/** Mongo and MySQL never share a port with another protocol (server-first protocols break under sniffing). */
function wellKnownPortOk(incoming: Protocol, existing: Protocol, conflict: Conflict): boolean {
  if (conflict === 'none') return true;
  const special = (p: Protocol) => p === 'Mongo' || p === 'MySQL';
  return !((special(incoming) || special(existing)) && incoming !== existing);
}

function mergeChains(ctx: BuildCtx, cur: OutboundEntry, incoming: ChainOpts[], s: ServiceModel, port: ServicePort): void {
  for (const inc of incoming) {
    if (cur.chains.some((c) => conflictsWith(c, inc))) {
      warn(
        ctx,
        s,
        port,
        `listener ${cur.bind}_${port.port}: filter chain of ${s.hostname} conflicts with an existing one and is dropped (TCP over TCP)`,
      );
      continue;
    }
    cur.chains.push(inc);
  }
}

/** buildSidecarOutboundListener: adds or merges one service port into the listener map. */
function addServicePort(ctx: BuildCtx, map: Map<string, OutboundEntry>, s: ServiceModel, port: ServicePort, bindIn: string): void {
  if (s.resolution === 'Alias') return;
  const lp = listenerProtocol(port.protocol);
  if (lp === 'UNKNOWN') return; // UDP
  let bind = bindIn;
  let cidrs: string[] = [];
  if ((lp === 'TCP' || lp === 'AUTO') && bind === '' && s.address) {
    if (!s.address.includes('/')) bind = s.address;
    else {
      bind = WILDCARD;
      cidrs = [s.address];
    }
  }
  if (lp === 'HTTP' && bind === '') bind = WILDCARD;
  const key = `${bind}:${port.port}`;
  const cur = map.get(key);
  if (cur?.locked) return; // a port-specific egress listener owns this key
  let listenerPortProtocol: Protocol = port.protocol;
  let conflict: Conflict = 'none';
  let opts: ChainOpts[];
  const target = { service: s, port, bind, cidrs };

  if (port.protocol === 'HTTP_PROXY') {
    opts = httpChainOpts(s, port, bind, lp);
  } else if (lp === 'HTTP') {
    if (cur) {
      if (!isTcpProtocol(cur.protocol)) return; // HTTP over HTTP/sniffed: first wins, hosts go to RDS
      conflict = 'HTTPOverTCP';
    }
    opts = httpChainOpts(s, port, bind, lp);
    if (bind === WILDCARD) {
      opts = withHttpAlpn(opts);
      // With the PassthroughFilterChain fallback this listener is effectively a sniffing one.
      listenerPortProtocol = 'Unsupported';
    }
  } else if (lp === 'TCP') {
    opts = tcpListenerChains(ctx, target);
    if (cur) conflict = isHttpProtocol(cur.protocol) ? 'TCPOverHTTP' : isTcpProtocol(cur.protocol) ? 'TCPOverTCP' : 'TCPOverAuto';
  } else if (cur && isSniffedProtocol(cur.protocol)) {
    // Auto over auto (e.g. several endpoints of a headless service): merge only the TCP chains.
    conflict = 'TCPOverAuto';
    opts = tcpListenerChains(ctx, target);
  } else {
    if (cur) conflict = isHttpProtocol(cur.protocol) ? 'AutoOverHTTP' : 'AutoOverTCP';
    opts = [...tcpListenerChains(ctx, target), ...withHttpAlpn(httpChainOpts(s, port, bind, lp))];
  }

  if (cur && !wellKnownPortOk(port.protocol, cur.protocol, conflict)) {
    warn(
      ctx,
      s,
      port,
      `listener ${bind}_${port.port}: ${port.protocol} port of ${s.hostname} conflicts with existing ${cur.protocol} listener on a well-known port and is skipped`,
    );
    return;
  }
  switch (conflict) {
    case 'none':
    case 'AutoOverHTTP':
      map.set(key, { servicePort: port, bind, chains: opts, protocol: listenerPortProtocol });
      return;
    case 'HTTPOverTCP':
    case 'TCPOverHTTP':
    case 'AutoOverTCP':
      if (!cur) return;
      mergeChains(ctx, cur, opts, s, port);
      cur.protocol = 'Unsupported';
      return;
    case 'TCPOverTCP':
    case 'TCPOverAuto':
      if (cur) mergeChains(ctx, cur, opts, s, port);
      return;
  }
}

/** Reserved 0.0.0.0 ports only collide for HTTP ports when no bind is given (context.go conflictWithReservedListener). */
const reserved = (port: ServicePort) => isHttpProtocol(port.protocol) && RESERVED_PORTS.has(port.port);

/** The service once per address (ServiceEntries with several addresses), else the service itself. */
function perAddress(s: ServiceModel): ServiceModel[] {
  if (s.registry !== 'External' || s.addresses.length < 2) return [s];
  return s.addresses.map((address) => ({ ...s, address }));
}

/** All ports of one imported service (headless TCP/sniffed ports: one listener per endpoint address). */
function addService(ctx: BuildCtx, map: Map<string, OutboundEntry>, s: ServiceModel, selfIp: string | undefined): void {
  const { view } = ctx;
  for (const port of s.ports) {
    if (reserved(port)) {
      warn(ctx, s, port, `port ${port.port} of ${s.hostname} conflicts with a sidecar's own listener and gets no outbound listener`);
      continue;
    }
    const headless =
      s.resolution === 'Passthrough' && s.address === WILDCARD && (isTcpProtocol(port.protocol) || isSniffedProtocol(port.protocol));
    if (!headless) {
      // istiod (serviceentry/conversion.go:convertServices) makes one service per ServiceEntry host × address
      // and its egress listeners keep them all, so every address of a TCP/sniffed port gets its own bind.
      for (const each of perAddress(s)) addServicePort(ctx, map, each, port, '');
      continue;
    }
    // Headless TCP/sniffed ports: one listener per endpoint address (the proxy's own IP skipped).
    const endpoints = view.endpoints(s, port.port);
    if (s.registry !== 'Kubernetes' && endpoints.length === 0 && !s.selector) {
      addServicePort(ctx, map, s, port, '');
      continue;
    }
    for (const ep of endpoints) {
      if (!parsePrefix(ep.address) || ep.address.includes('/')) continue;
      if (ep.address === selfIp) continue;
      addServicePort(ctx, map, s, port, ep.address);
    }
  }
}

/**
 * buildSidecarOutboundListeners: per egress listener in Sidecar order. A port-specific one adds each of its
 * services on the listener port (bind: the egress bind, else as for the service); the catch-all then adds
 * every service port, except on keys already built, which are locked.
 */
export function buildOutboundListeners(ctx: BuildCtx, refs: RouteRefs): ListenerJson[] {
  const { view } = ctx;
  const map = new Map<string, OutboundEntry>();
  const selfIp = view.proxy.ips[0];
  for (const egress of view.egressListeners()) {
    const ectx: BuildCtx = { view: egress.view, errors: ctx.errors };
    const listenPort = egress.port;
    if (!listenPort) for (const e of map.values()) e.locked = true;
    for (const s of egress.view.services) {
      try {
        if (listenPort) addServicePort(ectx, map, s, listenPort, egress.bind ?? '');
        else addService(ectx, map, s, selfIp);
      } catch (e) {
        ctx.errors.push({
          severity: 'error',
          object: serviceLabel(s),
          message: `outbound listeners of ${s.hostname}: ${(e as Error).message}`,
        });
      }
    }
  }
  return [...map.values()].map((e) => buildOutboundListener(view, e, refs));
}
