// Kubernetes Services and ServiceEntries → ServiceModel (istio serviceregistry/kube/conversion.go:ConvertService,
// serviceregistry/serviceentry/conversion.go:convertServices).
import type { IstioConfig, LoadError, Resolution, ServiceModel, ServicePort } from '../mesh';
import type { KubeService } from '../schema/kube';
import { isCIDR, isIP } from '../schema/rules';
import { IpPool } from './hash';
import type { KubeObject } from './objects';
import { locate } from './objects';
import { convertKubeProtocol, parseProtocol } from './protocol';

/** ServiceModels of the last build per Service object (model/snapshotCache), with the inputs they depend on. */
export type ServicesMemo = WeakMap<object, { address: string; domainSuffix: string; model: ServiceModel }>;

export function kubeServices(services: readonly KubeObject<KubeService>[], domainSuffix: string, memo?: ServicesMemo): ServiceModel[] {
  const used = new Set<string>();
  for (const s of services) {
    const ip = s.body.spec?.clusterIP;
    if (ip && ip !== 'None') used.add(ip);
  }
  // Allocate missing VIPs in a deterministic order (namespace, name), independent of input order.
  const missing = services
    .filter((s) => !s.body.spec?.clusterIP && s.body.spec?.type !== 'ExternalName')
    .map((s) => `${s.meta.namespace}/${s.meta.name}`)
    .sort();
  const pool = new IpPool('10.96', used);
  const allocated = new Map(missing.map((k) => [k, pool.allocate(k)]));

  return services.map((s) => {
    const spec = s.body.spec ?? {};
    const { name, namespace } = s.meta;
    let address = spec.clusterIP ?? allocated.get(`${namespace}/${name}`) ?? '0.0.0.0';
    const hit = memo?.get(s);
    if (hit && hit.address === address && hit.domainSuffix === domainSuffix) return hit.model;
    const allocatedAddress = address;
    let resolution: Resolution = 'ClientSideLB';
    if (spec.type === 'ExternalName') {
      resolution = 'Alias';
      address = '0.0.0.0';
    } else if (spec.clusterIP === 'None') {
      resolution = 'Passthrough';
      address = '0.0.0.0';
    }
    const ports: ServicePort[] = (spec.ports ?? []).map((p) => ({
      name: p.name ?? '',
      port: p.port,
      protocol: convertKubeProtocol(p.port, p.name, p.protocol, p.appProtocol),
      targetPort: p.targetPort ?? p.port,
    }));
    const exportTo = (s.meta.annotations['networking.istio.io/exportTo'] ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    const model: ServiceModel = {
      hostname: `${name}.${namespace}.svc.${domainSuffix}`,
      namespace,
      name,
      registry: 'Kubernetes',
      address,
      addresses: address === '0.0.0.0' ? [] : [address],
      ports,
      resolution,
      meshExternal: false,
      exportTo,
      labels: s.meta.labels,
      creationTimestamp: s.meta.creationTimestamp,
      ref: { kind: 'Service', group: '', version: 'v1', namespace, name },
      origin: s.origin,
    };
    if (spec.selector && Object.keys(spec.selector).length > 0) model.selector = spec.selector;
    if (spec.type === 'ExternalName' && spec.externalName) model.externalName = spec.externalName;
    memo?.set(s, { address: allocatedAddress, domainSuffix, model });
    return model;
  });
}

const SE_RESOLUTION: Readonly<Record<string, Resolution>> = {
  NONE: 'Passthrough',
  STATIC: 'ClientSideLB',
  DNS: 'DNS',
  DNS_ROUND_ROBIN: 'DNSRoundRobin',
};

/** A ServiceEntry-derived service and every ServiceEntry that defines its (namespace, host), oldest first. */
export interface ServiceEntryService {
  service: ServiceModel;
  /** The oldest ServiceEntry for the host (the service's provenance). */
  entry: IstioConfig<'ServiceEntry'>;
  /** All ServiceEntries of this namespace repeating the host, oldest first (entries[0] === entry); each adds its endpoints. */
  entries: IstioConfig<'ServiceEntry'>[];
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const sameMap = (a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined) => {
  const ea = Object.entries(a ?? {});
  return ea.length === Object.keys(b ?? {}).length && ea.every(([k, v]) => b?.[k] === v);
};

/**
 * canMergeServices (model/sidecar.go): two ServiceEntry services of one namespace and host merge when their
 * resolution, labels, workload selector and exportTo agree.
 */
function canMerge(a: ServiceModel, b: ServiceModel): boolean {
  return a.resolution === b.resolution && sameMap(a.labels, b.labels) && sameMap(a.selector, b.selector) && sameSet(a.exportTo, b.exportTo);
}

/**
 * appendSidecarServices' merge of a newer service into an older one: ports of new numbers appended, and
 * (meshscope's stand-in for istiod keeping one service per host × address in its egress listeners) the
 * newer entry's addresses appended too.
 */
function mergeInto(old: ServiceModel, add: ServiceModel): ServiceModel {
  const ports = [...old.ports, ...add.ports.filter((p) => !old.ports.some((o) => o.port === p.port))];
  const addresses = [...old.addresses, ...add.addresses.filter((a) => !old.addresses.includes(a))];
  return { ...old, ports, addresses, address: addresses[0] ?? old.address };
}

/**
 * convertServices: a CIDR whose prefix is the whole address (`/32` for IPv4, `/128` for IPv6:
 * `cidr.Bits() == cidr.Addr().BitLen()`) is that address; any other CIDR stays one (an IPv6 `/32` is a prefix).
 */
function hostPrefixAsIp(a: string): string {
  const slash = a.lastIndexOf('/');
  if (slash < 0) return a;
  const bits = a.slice(slash + 1);
  const ip = a.slice(0, slash);
  return bits === (ip.includes(':') ? '128' : '32') ? ip : a;
}

/**
 * ServiceEntries → services (convertServices): one service per host. Every valid address is kept (IP, or CIDR;
 * a host prefix, IPv4 /32 or IPv6 /128, turned into the plain IP); the first is the default address, the rest stand for istiod's
 * additional host × address services (the listener builder binds each). A later ServiceEntry of the same
 * namespace repeating a host is merged into the older service as istiod's sidecar scope merges them
 * (appendSidecarServices / canMergeServices); when it cannot merge (different resolution, labels, selector or
 * exportTo) only its endpoints are kept (the endpoint index is keyed by host and namespace) and a warning says so.
 */
export function serviceEntryServices(
  entries: readonly IstioConfig<'ServiceEntry'>[],
  seen: Set<string>,
  errors: LoadError[],
): ServiceEntryService[] {
  const out: ServiceEntryService[] = [];
  const byKey = new Map<string, ServiceEntryService>();
  for (const se of entries) {
    const spec = se.spec;
    const addresses = (spec.addresses ?? []).map(hostPrefixAsIp).filter((a) => isIP(a) || isCIDR(a));
    const ports: ServicePort[] = (spec.ports ?? []).map((p) => {
      const port: ServicePort = { name: p.name, port: p.number, protocol: parseProtocol(p.protocol) };
      if (p.targetPort !== undefined) port.targetPort = p.targetPort;
      return port;
    });
    spec.hosts.forEach((host, i) => {
      const key = `${se.meta.namespace}/${host}`;
      const service: ServiceModel = {
        hostname: host,
        namespace: se.meta.namespace,
        name: se.meta.name,
        registry: 'External',
        address: addresses[0] ?? '0.0.0.0',
        addresses,
        ports,
        resolution: SE_RESOLUTION[spec.resolution ?? 'NONE'] ?? 'Passthrough',
        meshExternal: (spec.location ?? 'MESH_EXTERNAL') === 'MESH_EXTERNAL',
        exportTo: spec.exportTo ?? [],
        labels: se.meta.labels,
        creationTimestamp: se.meta.creationTimestamp,
        ref: { kind: 'ServiceEntry', group: 'networking.istio.io', version: 'v1', namespace: se.meta.namespace, name: se.meta.name },
      };
      if (spec.workloadSelector?.labels) service.selector = spec.workloadSelector.labels;
      const prev = byKey.get(key);
      if (prev) {
        if (prev.entries.includes(se)) return; // the same host listed twice in one entry
        prev.entries.push(se);
        if (canMerge(prev.service, service)) prev.service = mergeInto(prev.service, service);
        else
          errors.push(
            locate(
              {
                severity: 'warning',
                message: `host ${host} is already defined in namespace ${se.meta.namespace} by ServiceEntry ${prev.entry.meta.name} with a different resolution, labels, workloadSelector or exportTo; only this entry's endpoints are merged`,
                object: `ServiceEntry ${se.meta.namespace}/${se.meta.name}`,
                path: `spec.hosts[${i}]`,
              },
              se.origin,
            ),
          );
        return;
      }
      seen.add(key);
      const pair: ServiceEntryService = { service, entry: se, entries: [se] };
      byKey.set(key, pair);
      out.push(pair);
    });
  }
  return out;
}
