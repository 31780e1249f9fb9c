// zod schemas of networking.k8s.io/v1 Ingress and IngressClass: only the fields istiod's ingress controller
// reads (pilot/pkg/config/kube/ingress); everything else passes through untouched.
import { z } from 'zod';

const serviceBackendPort = z.looseObject({ name: z.string().optional(), number: z.number().int().min(0).max(65535).optional() });

export const ingressBackend = z.looseObject({
  service: z.looseObject({ name: z.string(), port: serviceBackendPort.optional() }).optional(),
  resource: z.looseObject({ kind: z.string().optional(), name: z.string().optional() }).optional(),
});

const httpIngressPath = z.looseObject({
  path: z.string().optional(),
  /** Required by the v1 API server; istiod still handles it being absent (the legacy fallback match). */
  pathType: z.string().optional(),
  backend: ingressBackend.optional(),
});

export const ingressRule = z.looseObject({
  host: z.string().optional(),
  http: z.looseObject({ paths: z.array(httpIngressPath).optional() }).optional(),
});

export const ingress = z.looseObject({
  spec: z
    .looseObject({
      ingressClassName: z.string().optional(),
      defaultBackend: ingressBackend.optional(),
      tls: z.array(z.looseObject({ hosts: z.array(z.string()).optional(), secretName: z.string().optional() })).optional(),
      rules: z.array(ingressRule).optional(),
    })
    .optional(),
});

export const ingressClass = z.looseObject({
  spec: z.looseObject({ controller: z.string().optional() }).optional(),
});

/** A Secret after redaction (../secrets): metadata and type only. */
export const secret = z.looseObject({ type: z.string().optional() });

export type KubeIngress = z.infer<typeof ingress>;
export type KubeIngressRule = z.infer<typeof ingressRule>;
export type KubeIngressBackend = z.infer<typeof ingressBackend>;
export type KubeIngressClass = z.infer<typeof ingressClass>;
export type KubeSecret = z.infer<typeof secret>;
