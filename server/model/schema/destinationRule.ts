// zod schema of networking.istio.io DestinationRule spec (istio/api networking/v1alpha3/destination_rule.proto).
import { z } from 'zod';
import type { DestinationRuleSpec, TrafficPolicy } from '../istio';
import { duration, int, portSelector, stringMap, uint, uint64 } from './common';

const loadBalancer = z.strictObject({
  simple: z.enum(['UNSPECIFIED', 'LEAST_CONN', 'RANDOM', 'PASSTHROUGH', 'ROUND_ROBIN', 'LEAST_REQUEST']).optional(),
  consistentHash: z
    .strictObject({
      httpHeaderName: z.string().optional(),
      httpCookie: z
        .strictObject({
          name: z.string(),
          path: z.string().optional(),
          ttl: duration.optional(),
          attributes: z.array(z.strictObject({ name: z.string(), value: z.string().optional() })).optional(),
        })
        .optional(),
      useSourceIp: z.boolean().optional(),
      httpQueryParameterName: z.string().optional(),
      ringHash: z.strictObject({ minimumRingSize: uint64.optional() }).optional(),
      maglev: z.strictObject({ tableSize: uint64.optional() }).optional(),
      minimumRingSize: uint64.optional(),
    })
    .optional(),
  localityLbSetting: z
    .strictObject({
      distribute: z.array(z.strictObject({ from: z.string().optional(), to: z.record(z.string(), uint).optional() })).optional(),
      failover: z.array(z.strictObject({ from: z.string().optional(), to: z.string().optional() })).optional(),
      failoverPriority: z.array(z.string()).optional(),
      enabled: z.boolean().optional(),
    })
    .optional(),
  zoneAwareLbSetting: z
    .strictObject({
      enabled: z.boolean().optional(),
      failover: z.array(z.strictObject({ from: z.string().optional(), to: z.string().optional() })).optional(),
      failoverPriority: z.array(z.string()).optional(),
      minClusterSize: uint64.optional(),
    })
    .optional(),
  warmupDurationSecs: duration.optional(),
  warmup: z
    .strictObject({
      duration: duration.optional(),
      minimumPercent: z.number().optional(),
      aggression: z.number().optional(),
    })
    .optional(),
});

export const connectionPool = z.strictObject({
  tcp: z
    .strictObject({
      maxConnections: int.optional(),
      connectTimeout: duration.optional(),
      tcpKeepalive: z.strictObject({ probes: uint.optional(), time: duration.optional(), interval: duration.optional() }).optional(),
      maxConnectionDuration: duration.optional(),
      idleTimeout: duration.optional(),
    })
    .optional(),
  http: z
    .strictObject({
      http1MaxPendingRequests: int.optional(),
      http2MaxRequests: int.optional(),
      maxRequestsPerConnection: int.optional(),
      maxRetries: int.optional(),
      idleTimeout: duration.optional(),
      h2UpgradePolicy: z.enum(['DEFAULT', 'DO_NOT_UPGRADE', 'UPGRADE']).optional(),
      useClientProtocol: z.boolean().optional(),
      maxConcurrentStreams: int.optional(),
      http2KeepAlive: z.strictObject({ interval: duration.optional(), timeout: duration.optional() }).optional(),
    })
    .optional(),
});

const outlierDetection = z.strictObject({
  splitExternalLocalOriginErrors: z.boolean().optional(),
  consecutiveLocalOriginFailures: uint.optional(),
  consecutiveGatewayErrors: uint.optional(),
  consecutive5xxErrors: uint.optional(),
  consecutiveErrors: int.optional(),
  interval: duration.optional(),
  baseEjectionTime: duration.optional(),
  maxEjectionPercent: int.optional(),
  minHealthPercent: int.optional(),
  outlierDetectionHttpErrorCodes: z.array(uint).optional(),
});

export const clientTls = z.strictObject({
  mode: z.enum(['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL']).optional(),
  clientCertificate: z.string().optional(),
  privateKey: z.string().optional(),
  caCertificates: z.string().optional(),
  credentialName: z.string().optional(),
  subjectAltNames: z.array(z.string()).optional(),
  sni: z.string().optional(),
  insecureSkipVerify: z.boolean().optional(),
  caCrl: z.string().optional(),
});

// TrafficPolicy.PortTrafficPolicy has only these four (plus port).
const portPolicyFields = {
  loadBalancer: loadBalancer.optional(),
  connectionPool: connectionPool.optional(),
  outlierDetection: outlierDetection.optional(),
  tls: clientTls.optional(),
};

const policyFields = {
  ...portPolicyFields,
  retryBudget: z
    .strictObject({ percent: z.number().optional(), minRetryConcurrency: uint.optional(), budgetInterval: duration.optional() })
    .optional(),
  tunnel: z.strictObject({ protocol: z.string().optional(), targetHost: z.string(), targetPort: uint }).optional(),
  proxyProtocol: z.strictObject({ version: z.enum(['V1', 'V2']).optional() }).optional(),
};

const portTrafficPolicy = z.strictObject({ ...portPolicyFields, port: portSelector.optional() });

export const trafficPolicy: z.ZodType<TrafficPolicy> = z.strictObject({
  ...policyFields,
  portLevelSettings: z.array(portTrafficPolicy).optional(),
});

export const destinationRuleSpec: z.ZodType<DestinationRuleSpec> = z.strictObject({
  host: z.string(),
  trafficPolicy: trafficPolicy.optional(),
  subsets: z.array(z.strictObject({ name: z.string(), labels: stringMap.optional(), trafficPolicy: trafficPolicy.optional() })).optional(),
  exportTo: z.array(z.string()).optional(),
  workloadSelector: z.strictObject({ matchLabels: stringMap.optional() }).optional(),
});
