// zod schemas of networking.istio.io ServiceEntry and Sidecar specs
// (istio/api networking/v1alpha3/service_entry.proto, workload_entry.proto, sidecar.proto).
import { z } from 'zod';
import type { ServiceEntrySpec, SidecarSpec, WorkloadEntrySpec } from '../istio';
import { connectionPool } from './destinationRule';
import { destination, servicePort, stringMap, uint, workloadSelectorLabels } from './common';
import { serverTls } from './gateway';

/** A WorkloadEntry spec, also the shape of a ServiceEntry endpoint (workload_entry.proto). */
export const workloadEntry: z.ZodType<WorkloadEntrySpec> = z.strictObject({
  address: z.string().optional(),
  ports: z.record(z.string(), uint).optional(),
  labels: stringMap.optional(),
  network: z.string().optional(),
  locality: z.string().optional(),
  weight: uint.optional(),
  serviceAccount: z.string().optional(),
});

export const serviceEntrySpec: z.ZodType<ServiceEntrySpec> = z.strictObject({
  hosts: z.array(z.string()),
  addresses: z.array(z.string()).optional(),
  ports: z.array(servicePort).optional(),
  location: z.enum(['MESH_EXTERNAL', 'MESH_INTERNAL']).optional(),
  resolution: z.enum(['NONE', 'STATIC', 'DNS', 'DNS_ROUND_ROBIN']).optional(),
  endpoints: z.array(workloadEntry).optional(),
  workloadSelector: workloadSelectorLabels.optional(),
  exportTo: z.array(z.string()).optional(),
  subjectAltNames: z.array(z.string()).optional(),
});

const captureMode = z.enum(['DEFAULT', 'IPTABLES', 'NONE']);

export const sidecarSpec: z.ZodType<SidecarSpec> = z.strictObject({
  workloadSelector: workloadSelectorLabels.optional(),
  ingress: z
    .array(
      z.strictObject({
        port: servicePort,
        bind: z.string().optional(),
        captureMode: captureMode.optional(),
        defaultEndpoint: z.string().optional(),
        tls: serverTls.optional(),
        connectionPool: connectionPool.optional(),
      }),
    )
    .optional(),
  egress: z
    .array(
      z.strictObject({
        port: servicePort.optional(),
        bind: z.string().optional(),
        captureMode: captureMode.optional(),
        hosts: z.array(z.string()),
      }),
    )
    .optional(),
  inboundConnectionPool: connectionPool.optional(),
  outboundTrafficPolicy: z
    .strictObject({ mode: z.enum(['REGISTRY_ONLY', 'ALLOW_ANY']).optional(), egressProxy: destination.optional() })
    .optional(),
});
