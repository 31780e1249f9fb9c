// Kubernetes Ingress → Istio Gateway + VirtualServices, as istiod's ingress controller converts them
// (pilot/pkg/config/kube/ingress). Pure: parsed inputs in, generated configs and located problems out.
import type { IstioConfig, LoadError } from '../mesh';
import type { KubeObject } from '../parse/objects';
import type { KubeIngress, KubeIngressClass } from '../schema/ingress';
import type { KubeService } from '../schema/kube';
import { convertIngressGateway } from './gateway';
import { DEFAULT_INGRESS_MESH, selectIngress, type IngressMeshOptions } from './select';
import type { IngressProblem } from './types';
import { convertIngressVirtualServices, type ServicePorts } from './virtualServices';

export { DEFAULT_INGRESS_MESH, ingressMeshOf, type IngressMeshOptions } from './select';
export { ROUTE_SEMANTICS_ANNOTATION } from './virtualServices';

export interface IngressInputs {
  ingresses: readonly KubeObject<KubeIngress>[];
  ingressClasses: readonly KubeObject<KubeIngressClass>[];
  services: readonly KubeObject<KubeService>[];
  domainSuffix: string;
  mesh?: IngressMeshOptions;
}

export interface IngressOutput {
  gateways: IstioConfig<'Gateway'>[];
  virtualServices: IstioConfig<'VirtualService'>[];
  errors: LoadError[];
}

function located(p: IngressProblem): LoadError {
  const e: LoadError = {
    severity: p.severity ?? 'warning',
    message: p.message,
    object: `Ingress ${p.ingress.meta.namespace}/${p.ingress.meta.name}`,
    path: p.path,
  };
  if (p.ingress.origin.file !== undefined) e.file = p.ingress.origin.file;
  if (p.ingress.origin.doc !== undefined) e.doc = p.ingress.origin.doc;
  return e;
}

export function convertIngresses(inputs: IngressInputs): IngressOutput {
  const mesh = inputs.mesh ?? DEFAULT_INGRESS_MESH;
  const problems: IngressProblem[] = [];
  const classes = new Map(inputs.ingressClasses.map((c) => [c.meta.name, c]));
  const served = inputs.ingresses.filter((ing) => {
    const s = selectIngress(ing, classes, mesh);
    if (!s.served) problems.push({ ingress: ing, path: s.path, message: `not served by Istio: ${s.reason}`, severity: 'info' });
    return s.served;
  });
  const ports: ServicePorts = new Map(
    inputs.services.map((s) => [
      `${s.meta.namespace}/${s.meta.name}`,
      new Map((s.body.spec?.ports ?? []).filter((p) => p.name).map((p) => [p.name as string, p.port])),
    ]),
  );
  const gateways = served.map((ing) => convertIngressGateway(ing, mesh, problems));
  const virtualServices = convertIngressVirtualServices(served, inputs.domainSuffix, ports, problems);
  return { gateways, virtualServices, errors: problems.map(located) };
}
