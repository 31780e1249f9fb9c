// Which Ingresses istiod's ingress controller serves (pilot/pkg/config/kube/ingress/virtualservices.go
// shouldProcessIngressWithClass), with the mesh defaults ingressClass `istio` and ingressControllerMode STRICT:
// - the `kubernetes.io/ingress.class` annotation, when present, decides alone: it must equal the ingress class;
// - else `spec.ingressClassName` naming an IngressClass whose `spec.controller` is `istio.io/ingress-controller`;
// - else (no annotation, no class found) STRICT serves nothing; DEFAULT serves it.
// A class name without a matching IngressClass object is not served (the class lookup finds nothing).
import type { KubeObject } from '../parse/objects';
import type { KubeIngress, KubeIngressClass } from '../schema/ingress';

export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
export const ISTIO_INGRESS_CONTROLLER = 'istio.io/ingress-controller';

/** MeshConfig's ingress fields (mesh.proto: ingressClass, ingressControllerMode, ingressSelector, ingressService). */
export interface IngressMeshOptions {
  ingressClass: string;
  ingressControllerMode: 'UNSPECIFIED' | 'OFF' | 'DEFAULT' | 'STRICT';
  ingressSelector?: string;
  ingressService?: string;
}

/** istiod's defaults (pkg/config/mesh DefaultMeshConfig). */
export const DEFAULT_INGRESS_MESH: IngressMeshOptions = {
  ingressClass: 'istio',
  ingressControllerMode: 'STRICT',
  ingressService: 'istio-ingressgateway',
};

const ANNOTATION_PATH = `metadata.annotations.${INGRESS_CLASS_ANNOTATION}`;
const CLASS_PATH = 'spec.ingressClassName';

export type Selection = { served: true } | { served: false; reason: string; path: string };

export function selectIngress(
  ing: KubeObject<KubeIngress>,
  classes: ReadonlyMap<string, KubeObject<KubeIngressClass>>,
  mesh: IngressMeshOptions,
): Selection {
  const mode = mesh.ingressControllerMode;
  const annotated = ing.meta.annotations[INGRESS_CLASS_ANNOTATION];
  if (annotated !== undefined) {
    if (mode !== 'STRICT' && mode !== 'DEFAULT')
      return { served: false, reason: `ingressControllerMode is ${mode}`, path: ANNOTATION_PATH };
    return annotated === mesh.ingressClass
      ? { served: true }
      : {
          served: false,
          reason: `annotation ${INGRESS_CLASS_ANNOTATION}: ${annotated} is not "${mesh.ingressClass}"`,
          path: ANNOTATION_PATH,
        };
  }
  const className = ing.body.spec?.ingressClassName;
  const cls = className !== undefined ? classes.get(className) : undefined;
  if (cls) {
    const controller = cls.body.spec?.controller ?? '';
    return controller === ISTIO_INGRESS_CONTROLLER
      ? { served: true }
      : {
          served: false,
          reason: `IngressClass ${className} has controller "${controller}", not ${ISTIO_INGRESS_CONTROLLER}`,
          path: CLASS_PATH,
        };
  }
  if (mode === 'DEFAULT') return { served: true };
  if (className !== undefined)
    return {
      served: false,
      reason: `IngressClass ${className} not found (istiod serves an ingressClassName only through an IngressClass with controller ${ISTIO_INGRESS_CONTROLLER})`,
      path: CLASS_PATH,
    };
  return { served: false, reason: `no ${INGRESS_CLASS_ANNOTATION} annotation and no ingressClassName`, path: CLASS_PATH };
}

/** getIngressGatewaySelector: ingressSelector, else ingressService unless it is the default, else `istio: ingressgateway`. */
export function ingressGatewaySelector(mesh: IngressMeshOptions): Record<string, string> {
  if (mesh.ingressSelector) return { istio: mesh.ingressSelector };
  if (mesh.ingressService && mesh.ingressService !== 'istio-ingressgateway') return { istio: mesh.ingressService };
  return { istio: 'ingressgateway' };
}

/** The ingress fields of the mesh config in force (MeshConfig ingressClass, ingressControllerMode, ingressSelector, ingressService). */
export function ingressMeshOf(config: {
  ingressClass: string;
  ingressControllerMode: IngressMeshOptions['ingressControllerMode'];
  ingressService: string;
  [field: string]: unknown;
}): IngressMeshOptions {
  const out: IngressMeshOptions = {
    ingressClass: config.ingressClass,
    ingressControllerMode: config.ingressControllerMode,
    ingressService: config.ingressService,
  };
  if (typeof config.ingressSelector === 'string' && config.ingressSelector !== '') out.ingressSelector = config.ingressSelector;
  return out;
}
