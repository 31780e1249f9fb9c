// Node ids of the overview graph (client-safe: the UI imports this without the graph builder).
import type { ServiceModel } from '../model/mesh';

export const nodeId = {
  namespace: (ns: string) => `ns:${ns}`,
  service: (s: Pick<ServiceModel, 'namespace' | 'hostname'>) => `svc:${s.namespace}/${s.hostname}`,
  workload: (ns: string, kind: string, name: string) => `wl:${ns}/${kind}/${name}`,
  proxy: (id: string) => `proxy:${id}`,
  pod: (ns: string, name: string) => `pod:${ns}/${name}`,
};
