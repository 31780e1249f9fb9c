// ServiceTargets of a proxy (aggregate/controller.go GetProxyServiceTargets over every registry, sorted by
// model/context.go SetServiceTargets: service creation time, then hostname; model/service.go:ServiceTarget).
// - Kubernetes (kube/controller/controller.go GetProxyServiceTargetsByPod): every (service, port) whose selector
//   selects the proxy's pod, with the resolved target port (number, a named container port, or the service port
//   when unset). UDP ports are targets too (GetProxyServiceTargetsByPod does not filter protocols).
// - ServiceEntries (serviceentry/controller.go GetProxyServiceTargets): every service instance whose endpoint
//   address is one of the proxy's IPs — a workloadSelector choosing the pod, a static endpoint or a selected
//   WorkloadEntry at the pod's IP — for services of the proxy's namespace; the target port is the endpoint port.
import type { MeshSnapshot, PodModel, ProxyModel, ServiceModel } from '../../model/mesh';
import { endpointKey } from '../../model/mesh';
import type { ServiceTarget } from './types';
import { labelsMatch } from './hosts';
import { memoPerProxy, podNamed, servicesInNamespace } from './snapshotIndex';

export function findPod(snapshot: MeshSnapshot, proxy: ProxyModel): PodModel | undefined {
  return podNamed(snapshot, proxy.namespace, proxy.name);
}

/** The proxy's service targets (made once per snapshot and proxy: the key, the view and the inbound build all ask). */
export function serviceTargets(snapshot: MeshSnapshot, proxy: ProxyModel): readonly ServiceTarget[] {
  return memoPerProxy(snapshot, proxy, () => computeServiceTargets(snapshot, proxy));
}

function computeServiceTargets(snapshot: MeshSnapshot, proxy: ProxyModel): ServiceTarget[] {
  const pod = findPod(snapshot, proxy);
  const labels = pod?.labels ?? proxy.labels;
  const namedPorts = pod?.namedPorts ?? {};
  const out: ServiceTarget[] = [];
  // Both registries' targets are services of the proxy's namespace (selects, serviceEntryTargets): only those are read.
  for (const service of servicesInNamespace(snapshot, proxy.namespace)) {
    if (service.registry !== 'Kubernetes') {
      out.push(...serviceEntryTargets(snapshot, proxy, service));
      continue;
    }
    if (!selects(service, proxy.namespace, labels)) continue;
    // several ports of one service mapping to the same target port and protocol yield one target (the first)
    const seen = new Set<string>();
    for (const port of service.ports) {
      const tp = port.targetPort;
      const targetPort = tp === undefined || tp === '' ? port.port : typeof tp === 'number' ? tp : (namedPorts[tp] ?? numeric(tp));
      if (targetPort === undefined) continue; // named port the pod does not declare: no endpoint, no target
      const key = `${targetPort}/${port.protocol}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ service, port, targetPort });
    }
  }
  return out;
}

/** ServiceInstancesByIP: the ServiceEntry's endpoints at one of the proxy's IPs, per port in port order. */
function serviceEntryTargets(snapshot: MeshSnapshot, proxy: ProxyModel, service: ServiceModel): ServiceTarget[] {
  if (service.namespace !== proxy.namespace || proxy.ips.length === 0) return [];
  const byPort = snapshot.endpoints.get(endpointKey(service));
  if (!byPort) return [];
  const out: ServiceTarget[] = [];
  for (const port of service.ports)
    for (const ep of byPort.get(port.port) ?? []) if (proxy.ips.includes(ep.address)) out.push({ service, port, targetPort: ep.port });
  return out;
}

const numeric = (s: string): number | undefined => (/^\d+$/.test(s) ? Number(s) : undefined);

function selects(service: ServiceModel, namespace: string, labels: Readonly<Record<string, string>>): boolean {
  if (service.namespace !== namespace) return false;
  if (service.resolution === 'Alias') return false;
  const sel = service.selector;
  if (!sel || Object.keys(sel).length === 0) return false;
  return labelsMatch(sel, labels);
}
