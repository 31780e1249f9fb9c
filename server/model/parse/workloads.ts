// Workload instances: the Pods and WorkloadEntries a ServiceEntry workloadSelector (or, for WorkloadEntries, a
// Kubernetes Service selector) picks, and the endpoints they become.
// istiod: serviceentry/conversion.go (convertWorkloadEntryToWorkloadInstance, convertWorkloadInstanceToServiceInstance,
// getTLSModeFromWorkloadEntry), kube/controller/pod.go (notifyWorkloadHandlers, getPortMap),
// kube/controller/controller.go (serviceInstancesFromWorkloadInstances, serviceInstanceFromWorkloadInstance,
// workloadInstanceHandler) and kube/controller/util.go (findServiceTargetPort).
import type { EndpointModel, IstioConfig, Locality, PodModel, ServiceModel, ServicePort } from '../mesh';
import { isIP } from '../schema/rules';

const UNIX = 'unix://';
const TLS_MODE_LABEL = 'security.istio.io/tlsMode';
/** pkg/model LocalityLabel: `istio-locality`, with `.` standing for `/` (SanitizeLocalityLabel). */
const LOCALITY_LABEL = 'istio-locality';

export interface WorkloadInstance {
  kind: 'Pod' | 'WorkloadEntry';
  name: string;
  namespace: string;
  address: string;
  labels: Readonly<Record<string, string>>;
  /** Port name → number: a WorkloadEntry's `ports`, a pod's named TCP container ports. */
  portMap: Readonly<Record<string, number>>;
  locality: Locality;
  weight: number;
  healthy: boolean;
  serviceAccount?: string;
  network?: string;
  tlsMode?: string;
  podName?: string;
  /** A unix socket or a hostname address: only DNS ServiceEntries may select it (Kubernetes Services never do). */
  dnsOnly: boolean;
}

/** proxy.istio.io/health-checks-enabled: the entry's health is probed and reported in its Healthy condition. */
const HEALTH_CHECK_ANNOTATION = 'proxy.istio.io/health-checks-enabled';

/**
 * isHealthy (serviceentry/conversion.go, WORKLOAD_ENTRY_HEALTH_CHECKS on by default): an entry with health checks
 * enabled counts only once its Healthy condition is True; others always count.
 */
export function workloadEntryHealthy(we: Pick<IstioConfig<'WorkloadEntry'>, 'meta' | 'conditions'>): boolean {
  const v = we.meta.annotations[HEALTH_CHECK_ANNOTATION];
  if (v === undefined || !/^(1|t|T|true|TRUE|True)$/.test(v)) return true;
  return we.conditions?.['Healthy'] === 'True';
}

export function parseLocality(s: string | undefined): Locality {
  const [region = '', zone = '', subzone = ''] = (s ?? '').split('/');
  return { region, zone, subzone };
}

export function podInstance(pod: PodModel): WorkloadInstance {
  return {
    kind: 'Pod',
    name: pod.name,
    namespace: pod.namespace,
    address: pod.ip,
    labels: pod.labels,
    portMap: pod.namedPorts,
    locality: pod.locality,
    weight: 1,
    healthy: pod.ready,
    serviceAccount: pod.serviceAccount,
    podName: pod.name,
    dnsOnly: false,
  };
}

/** convertWorkloadEntryToWorkloadInstance (meta: the WorkloadEntry, or `<se>-<i>` for an inline ServiceEntry endpoint). */
export function workloadEntryInstance(
  spec: IstioConfig<'WorkloadEntry'>['spec'],
  name: string,
  namespace: string,
  kind: WorkloadInstance['kind'] = 'WorkloadEntry',
): WorkloadInstance {
  const address = spec.address ?? '';
  const labels = spec.labels ?? {};
  const localityLabel = labels[LOCALITY_LABEL];
  const locality = spec.locality || (localityLabel ? localityLabel.replaceAll('.', '/') : '');
  // getTLSModeFromWorkloadEntry: the tlsMode label, else istio when a service account is given.
  const tlsMode = labels[TLS_MODE_LABEL] ?? (spec.serviceAccount ? 'istio' : 'disabled');
  const wi: WorkloadInstance = {
    kind,
    name,
    namespace,
    address,
    labels,
    portMap: spec.ports ?? {},
    locality: parseLocality(locality),
    weight: spec.weight ?? 0,
    healthy: true,
    tlsMode,
    dnsOnly: address.startsWith(UNIX) || (address !== '' && !isIP(address)),
  };
  if (spec.serviceAccount) wi.serviceAccount = spec.serviceAccount;
  if (spec.network) wi.network = spec.network;
  return wi;
}

function endpointOf(wi: WorkloadInstance, address: string, port: number, servicePort: number, namespace: string): EndpointModel {
  const ep: EndpointModel = {
    address,
    port,
    servicePort,
    labels: wi.labels,
    namespace,
    locality: wi.locality,
    weight: wi.weight > 0 ? wi.weight : 1,
    healthy: wi.healthy,
  };
  if (wi.podName !== undefined) ep.podName = wi.podName;
  if (wi.serviceAccount !== undefined) ep.serviceAccount = wi.serviceAccount;
  if (wi.kind !== 'Pod') {
    ep.workloadName = wi.name;
    if (wi.network) ep.network = wi.network;
    if (wi.tlsMode) ep.tlsMode = wi.tlsMode;
  }
  return ep;
}

/**
 * convertWorkloadInstanceToServiceInstance: one endpoint per ServiceEntry port. Port priority: a unix socket
 * (port 0, the path as address) > the workload's port of that name > the ServiceEntry targetPort > the port number.
 */
export function serviceEntryInstanceEndpoints(
  wi: WorkloadInstance,
  ports: readonly { name: string; number: number; targetPort?: number }[],
): EndpointModel[] {
  // An entry without an address is only reachable through its network's gateway, which meshscope does not model:
  // EDS drops it (endpoint_builder.go filterIstioEndpoint, no multi-network gateways).
  if (wi.address === '') return [];
  return ports.map((p) => {
    if (wi.address.startsWith(UNIX)) return endpointOf(wi, wi.address.slice(UNIX.length), 0, p.number, wi.namespace);
    const mapped = wi.portMap[p.name];
    const port = mapped !== undefined && mapped > 0 ? mapped : p.targetPort && p.targetPort > 0 ? p.targetPort : p.number;
    return endpointOf(wi, wi.address, port, p.number, wi.namespace);
  });
}

/** The ServiceEntry workloadSelector's choice: instances of its namespace whose labels match (dnsOnly ones only for DNS). */
export function selectedBy(
  entry: IstioConfig<'ServiceEntry'>,
  dnsService: boolean,
  instances: readonly WorkloadInstance[],
): WorkloadInstance[] {
  const sel = entry.spec.workloadSelector?.labels ?? {};
  return instances.filter(
    (wi) =>
      wi.namespace === entry.meta.namespace && (!wi.dnsOnly || dnsService) && Object.entries(sel).every(([k, v]) => wi.labels[k] === v),
  );
}

/**
 * Endpoints a Kubernetes Service gets from WorkloadEntries its selector matches (serviceInstancesFromWorkloadInstances):
 * only client-side-LB services with a selector; only labelled, IP-addressed entries of the service's namespace.
 * A numeric targetPort is used unless the entry names a port like the service port; a named targetPort must be
 * one of the entry's ports, else the entry is skipped for that port.
 */
export function kubeServiceWorkloadEntryEndpoints(service: ServiceModel, instances: readonly WorkloadInstance[]): EndpointModel[] {
  const sel = service.selector;
  if (!sel || service.registry !== 'Kubernetes' || service.meshExternal || service.resolution !== 'ClientSideLB') return [];
  const out: EndpointModel[] = [];
  for (const wi of instances) {
    if (wi.kind !== 'WorkloadEntry' || wi.dnsOnly || wi.address === '' || wi.namespace !== service.namespace) continue;
    if (Object.keys(wi.labels).length === 0 || !Object.entries(sel).every(([k, v]) => wi.labels[k] === v)) continue;
    for (const sp of service.ports) {
      const port = workloadEntryTargetPort(sp, wi);
      if (port !== undefined) out.push(endpointOf(wi, wi.address, port, sp.port, service.namespace));
    }
  }
  return out;
}

function workloadEntryTargetPort(sp: ServicePort, wi: WorkloadInstance): number | undefined {
  const tp = sp.targetPort;
  const num = typeof tp === 'number' ? tp : tp !== undefined && /^\d+$/.test(tp) ? Number(tp) : undefined;
  if (num !== undefined && num > 0) return wi.portMap[sp.name] || num;
  if (typeof tp === 'string' && tp !== '') return wi.portMap[tp] || undefined;
  return wi.portMap[sp.name] || sp.port;
}
