// Kubernetes Services and ServiceEntries → ServiceModel (istio serviceregistry/kube/conversion.go:ConvertService,
// serviceregistry/serviceentry/conversion.go:convertServices).
import type { IstioConfig, LoadError, Resolution, ServiceModel, ServicePort } from '../mesh';
import type { KubeService } from '../schema/kube';
import { isCIDR, isIP } from '../schema/rules';
import { allocateIp } from './hash';
import type { KubeObject } from './objects';
import { locate } from './objects';
import { convertKubeProtocol, parseProtocol } from './protocol';

export function kubeServices(services: readonly KubeObject<KubeService>[], domainSuffix: string): ServiceModel[] {
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
  const allocated = new Map(missing.map((k) => [k, allocateIp('10.96', k, used)]));

  return services.map((s) => {
    const spec = s.body.spec ?? {};
    const { name, namespace } = s.meta;
    let address = spec.clusterIP ?? allocated.get(`${namespace}/${name}`) ?? '0.0.0.0';
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
    };
    if (spec.selector && Object.keys(spec.selector).length > 0) model.selector = spec.selector;
    if (spec.type === 'ExternalName' && spec.externalName) model.externalName = spec.externalName;
    return model;
  });
}

const SE_RESOLUTION: Readonly<Record<string, Resolution>> = {
  NONE: 'Passthrough',
  STATIC: 'ClientSideLB',
  DNS: 'DNS',
  DNS_ROUND_ROBIN: 'DNSRoundRobin',
};

/** One ServiceModel per ServiceEntry host; a later entry repeating a namespace+host is skipped (warning). */
export function serviceEntryServices(
  entries: readonly IstioConfig<'ServiceEntry'>[],
  seen: Set<string>,
  errors: LoadError[],
): { service: ServiceModel; entry: IstioConfig<'ServiceEntry'> }[] {
  const out: { service: ServiceModel; entry: IstioConfig<'ServiceEntry'> }[] = [];
  for (const se of entries) {
    const spec = se.spec;
    const addresses = (spec.addresses ?? []).map((a) => (a.endsWith('/32') || a.endsWith('/128') ? a.slice(0, a.lastIndexOf('/')) : a));
    const first = addresses.find((a) => isIP(a) || isCIDR(a)) ?? '0.0.0.0';
    const ports: ServicePort[] = (spec.ports ?? []).map((p) => {
      const port: ServicePort = { name: p.name, port: p.number, protocol: parseProtocol(p.protocol) };
      if (p.targetPort !== undefined) port.targetPort = p.targetPort;
      return port;
    });
    spec.hosts.forEach((host, i) => {
      const key = `${se.meta.namespace}/${host}`;
      if (seen.has(key)) {
        errors.push(
          locate(
            {
              severity: 'warning',
              message: `host ${host} is already defined in namespace ${se.meta.namespace} by an older service or ServiceEntry; ignored here`,
              object: `ServiceEntry ${se.meta.namespace}/${se.meta.name}`,
              path: `spec.hosts[${i}]`,
            },
            se.origin,
          ),
        );
        return;
      }
      seen.add(key);
      const service: ServiceModel = {
        hostname: host,
        namespace: se.meta.namespace,
        name: se.meta.name,
        registry: 'External',
        address: first,
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
      out.push({ service, entry: se });
    });
  }
  return out;
}
