// zod schema of networking.istio.io VirtualService spec (istio/api networking/v1alpha3/virtual_service.proto).
import { z } from 'zod';
import type { VirtualServiceSpec } from '../istio';
import { destination, duration, headers, int, percent, stringMap, stringMatch, uint } from './common';

const httpMatchRequest = z.strictObject({
  name: z.string().optional(),
  uri: stringMatch.optional(),
  scheme: stringMatch.optional(),
  method: stringMatch.optional(),
  authority: stringMatch.optional(),
  headers: z.record(z.string(), stringMatch).optional(),
  port: uint.optional(),
  sourceLabels: stringMap.optional(),
  gateways: z.array(z.string()).optional(),
  queryParams: z.record(z.string(), stringMatch).optional(),
  ignoreUriCase: z.boolean().optional(),
  withoutHeaders: z.record(z.string(), stringMatch).optional(),
  sourceNamespace: z.string().optional(),
  statPrefix: z.string().optional(),
});

const httpRouteDestination = z.strictObject({
  destination,
  weight: int.optional(),
  headers: headers.optional(),
});

const routeDestination = z.strictObject({ destination, weight: int.optional() });

const httpRedirect = z.strictObject({
  uri: z.string().optional(),
  authority: z.string().optional(),
  port: uint.optional(),
  derivePort: z.enum(['FROM_PROTOCOL_DEFAULT', 'FROM_REQUEST_PORT']).optional(),
  scheme: z.string().optional(),
  redirectCode: uint.optional(),
  prefixRewrite: z.string().optional(),
});

const httpDirectResponse = z.strictObject({
  status: uint,
  body: z.strictObject({ string: z.string().optional(), bytes: z.string().optional() }).optional(),
});

const httpRewrite = z.strictObject({
  uri: z.string().optional(),
  authority: z.string().optional(),
  uriRegexRewrite: z.strictObject({ match: z.string().optional(), rewrite: z.string().optional() }).optional(),
});

const httpRetry = z.strictObject({
  attempts: int.optional(),
  perTryTimeout: duration.optional(),
  retryOn: z.string().optional(),
  retryRemoteLocalities: z.boolean().optional(),
  retryIgnorePreviousHosts: z.boolean().optional(),
  backoff: duration.optional(),
});

const httpFaultInjection = z.strictObject({
  delay: z
    .strictObject({
      fixedDelay: duration.optional(),
      exponentialDelay: duration.optional(),
      percentage: percent.optional(),
      percent: int.optional(),
    })
    .optional(),
  abort: z
    .strictObject({
      httpStatus: int.optional(),
      grpcStatus: z.string().optional(),
      http2Error: z.string().optional(),
      percentage: percent.optional(),
    })
    .optional(),
});

const httpMirrorPolicy = z.strictObject({ destination, percentage: percent.optional() });

const corsPolicy = z.strictObject({
  allowOrigins: z.array(stringMatch).optional(),
  allowOrigin: z.array(z.string()).optional(),
  allowMethods: z.array(z.string()).optional(),
  allowHeaders: z.array(z.string()).optional(),
  exposeHeaders: z.array(z.string()).optional(),
  maxAge: duration.optional(),
  allowCredentials: z.boolean().optional(),
  unmatchedPreflights: z.enum(['UNSPECIFIED', 'FORWARD', 'IGNORE']).optional(),
});

const httpRoute = z.strictObject({
  name: z.string().optional(),
  match: z.array(httpMatchRequest).optional(),
  route: z.array(httpRouteDestination).optional(),
  redirect: httpRedirect.optional(),
  directResponse: httpDirectResponse.optional(),
  delegate: z.strictObject({ name: z.string().optional(), namespace: z.string().optional() }).optional(),
  rewrite: httpRewrite.optional(),
  timeout: duration.optional(),
  retries: httpRetry.optional(),
  fault: httpFaultInjection.optional(),
  mirror: destination.optional(),
  mirrorPercent: uint.optional(),
  mirrorPercentage: percent.optional(),
  mirrors: z.array(httpMirrorPolicy).optional(),
  corsPolicy: corsPolicy.optional(),
  headers: headers.optional(),
});

const l4Match = {
  destinationSubnets: z.array(z.string()).optional(),
  port: uint.optional(),
  sourceLabels: stringMap.optional(),
  gateways: z.array(z.string()).optional(),
  sourceNamespace: z.string().optional(),
};

const tcpRoute = z.strictObject({
  match: z.array(z.strictObject({ ...l4Match, sourceSubnet: z.string().optional() })).optional(),
  route: z.array(routeDestination).optional(),
});

const tlsRoute = z.strictObject({
  match: z.array(z.strictObject({ ...l4Match, sniHosts: z.array(z.string()) })),
  route: z.array(routeDestination).optional(),
});

export const virtualServiceSpec: z.ZodType<VirtualServiceSpec> = z.strictObject({
  hosts: z.array(z.string()).optional(),
  gateways: z.array(z.string()).optional(),
  http: z.array(httpRoute).optional(),
  tls: z.array(tlsRoute).optional(),
  tcp: z.array(tcpRoute).optional(),
  exportTo: z.array(z.string()).optional(),
});
