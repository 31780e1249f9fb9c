// gRPC LDS name filter (pilot/pkg/networking/grpcgen/lds.go: newListenerNameFilter, tryFindFQDN).
// A proxyless client asks for listeners by the authority of its target: `host[:port]`, where host may be a
// short name (`reviews`, `reviews.default`, `reviews.default.svc`). Each requested name is kept as asked
// (the listener must carry exactly that name) and also indexed under its FQDN when one can be derived
// from the node's DNS domain (`<ns>.svc.<suffix>`). Names under the server prefix are inbound listeners.

/** grpcxds.ServerListenerNamePrefix: xDS-enabled gRPC servers ask for `xds.istio.io/grpc/lds/inbound/IP:PORT`. */
export const GRPC_INBOUND_PREFIX = 'xds.istio.io/grpc/lds/inbound/';

export interface ListenerNameEntry {
  /** The host part of every name the client asked for that maps to this entry (as written). */
  requestedHosts: Set<string>;
  /** Requested ports; undefined = any port (a name without a port was asked for). */
  ports: Set<number> | undefined;
}

/** host (as asked, or its FQDN) → entry. Empty filter = nothing requested. */
export type ListenerNameFilter = Map<string, ListenerNameEntry>;

/** net.SplitHostPort for the names gRPC sends: `host:port`, `[v6]:port`; undefined when there is no port. */
export function splitHostPort(name: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(name);
  if (!m) return undefined;
  const port = Number(m[3]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return undefined;
  return { host: m[1] ?? m[2] ?? '', port };
}

/** tryFindFQDN: a short name relative to the node's namespace → FQDN; '' when none can be derived. */
export function tryFindFqdn(name: string, namespace: string, domainSuffix: string): string {
  const dnsDomain = `${namespace}.svc.${domainSuffix}`;
  if (!name.includes('.')) return `${name}.${dnsDomain}`;
  for (const suffix of [namespace, `${namespace}.svc`]) {
    if (name.endsWith(`.${suffix}`) && dnsDomain.startsWith(suffix)) return `${name.slice(0, -(suffix.length + 1))}.${dnsDomain}`;
  }
  return '';
}

export function listenerNameFilter(names: Iterable<string>, namespace: string, domainSuffix: string): ListenerNameFilter {
  const filter: ListenerNameFilter = new Map();
  for (const name of names) {
    if (name.startsWith(GRPC_INBOUND_PREFIX)) {
      filter.set(name, { requestedHosts: new Set([name]), ports: undefined });
      continue;
    }
    const hp = splitHostPort(name);
    const requested = hp ? hp.host : name;
    const keys = [requested];
    const fqdn = tryFindFqdn(requested, namespace, domainSuffix);
    if (fqdn) keys.push(fqdn);
    for (const key of keys) {
      const existing = filter.get(key);
      const entry: ListenerNameEntry = existing ?? { requestedHosts: new Set(), ports: undefined };
      entry.requestedHosts.add(requested);
      // Istio keeps the port set only while every name for this host carried a port.
      if (hp && (!existing || entry.ports !== undefined)) (entry.ports ??= new Set()).add(hp.port);
      else if (!hp) entry.ports = undefined;
      filter.set(key, entry);
    }
  }
  return filter;
}
