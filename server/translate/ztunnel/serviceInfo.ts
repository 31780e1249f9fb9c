// The services ztunnel is sent, with what selecting workloads need (istiod's model.ServiceInfo), and the port
// mapping a selected workload carries per service (workloads.go constructServicesFromWorkloadEntry /
// constructServices). Shared by ./workloads (pods) and ./serviceEntries (entries). Pure.
type Json = Record<string, unknown>;
type Labels = Readonly<Record<string, string>>;

/** One service ztunnel may be sent, with what selecting workloads need (model.ServiceInfo). */
export interface ServiceInfo {
  json: Json;
  kind: 'Service' | 'ServiceEntry';
  namespace: string;
  hostname: string;
  /** RFC 3339; the oldest ServiceEntry wins (selectWorkloadServices isBetter). */
  creation: string;
  /** Non-empty label selector (Service selector or ServiceEntry workloadSelector). */
  selector?: Labels;
  /** ServicePortName per service port: the port's name and, for a Kubernetes Service, its named targetPort. */
  portNames: Map<number, { portName: string; targetPortName?: string }>;
  /** The ServiceEntry it came from (`ns/name`). */
  source?: string;
}

/**
 * constructServicesFromWorkloadEntry: per selecting service its ports; a Service's named targetPort is looked up in
 * the entry's ports (missing: the port is left out), else the entry's port of the same name overrides; a
 * ServiceEntry's port name matches the entry's ports, else its target port.
 */
export function entryServicePorts(ports: Readonly<Record<string, number>> | undefined, s: ServiceInfo): Json {
  const out: Json[] = [];
  for (const p of (s.json['ports'] as Json[] | undefined) ?? []) {
    const servicePort = p['servicePort'] as number;
    let target = (p['targetPort'] as number | undefined) ?? 0;
    const named = s.portNames.get(servicePort);
    if (named && s.kind === 'Service') {
      if (named.targetPortName) {
        const v = ports?.[named.targetPortName];
        if (v === undefined) continue;
        target = v;
      } else if (ports?.[named.portName] !== undefined) target = ports[named.portName]!;
    } else if (named) {
      const v = ports?.[named.portName];
      if (v !== undefined) target = v;
      else if (target === 0) target = servicePort;
    }
    out.push(target ? { servicePort, targetPort: target } : { servicePort });
  }
  return out.length ? { ports: out } : {};
}
