// zod schemas of the Kubernetes kinds meshscope reads. Only the fields meshscope uses are validated;
// everything else passes through untouched (Kubernetes objects carry many fields we never read).
import { z } from 'zod';
import { stringMap } from './common';

export const objectMeta = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
  creationTimestamp: z.string().optional(),
  resourceVersion: z.string().optional(),
  uid: z.string().optional(),
});

const containerPort = z.looseObject({
  containerPort: z.number().int(),
  name: z.string().optional(),
  protocol: z.string().optional(),
});

const container = z.looseObject({
  name: z.string(),
  image: z.string().optional(),
  args: z.array(z.string()).optional(),
  ports: z.array(containerPort).optional(),
});

export const podSpec = z.looseObject({
  containers: z.array(container).optional(),
  initContainers: z.array(container).optional(),
  serviceAccountName: z.string().optional(),
  serviceAccount: z.string().optional(),
  nodeName: z.string().optional(),
  hostNetwork: z.boolean().optional(),
});

export const podTemplate = z.looseObject({
  metadata: z.looseObject({ labels: stringMap.optional(), annotations: stringMap.optional() }).optional(),
  spec: podSpec.optional(),
});

export const pod = z.looseObject({
  spec: podSpec.optional(),
  status: z
    .looseObject({
      podIP: z.string().optional(),
      phase: z.string().optional(),
      conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional(),
    })
    .optional(),
});

export const workload = z.looseObject({
  spec: z.looseObject({
    replicas: z.number().int().min(0).optional(),
    template: podTemplate,
  }),
});

const intOrString = z.union([z.number().int(), z.string()]);

export const service = z.looseObject({
  spec: z
    .looseObject({
      type: z.string().optional(),
      clusterIP: z.string().optional(),
      externalName: z.string().optional(),
      selector: stringMap.optional(),
      ports: z
        .array(
          z.looseObject({
            name: z.string().optional(),
            port: z.number().int().min(1).max(65535),
            targetPort: intOrString.optional(),
            protocol: z.string().optional(),
            appProtocol: z.string().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});

export const endpointSlice = z.looseObject({
  addressType: z.string().optional(),
  endpoints: z
    .array(
      z.looseObject({
        addresses: z.array(z.string()),
        conditions: z
          .looseObject({ ready: z.boolean().optional(), serving: z.boolean().optional(), terminating: z.boolean().optional() })
          .optional(),
        targetRef: z.looseObject({ kind: z.string().optional(), name: z.string().optional(), namespace: z.string().optional() }).optional(),
        nodeName: z.string().optional(),
        zone: z.string().optional(),
      }),
    )
    .nullable()
    .optional(),
  ports: z
    .array(z.looseObject({ name: z.string().optional(), port: z.number().int().optional(), protocol: z.string().optional() }))
    .nullable()
    .optional(),
});

export type KubeService = z.infer<typeof service>;
export type KubePod = z.infer<typeof pod>;
export type KubePodSpec = z.infer<typeof podSpec>;
export type KubeWorkload = z.infer<typeof workload>;
export type KubeEndpointSlice = z.infer<typeof endpointSlice>;
