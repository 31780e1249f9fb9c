// zod schemas of the Gateway API specs with the CRD defaults the API server applies on admission
// (gateway-api config/crd/standard/*.yaml `default:` values): a rule without matches gets one
// `PathPrefix /` match, path type PathPrefix, header/query type Exact, backendRef weight 1 and group ""
// / kind Service, parentRef group gateway.networking.k8s.io / kind Gateway, allowedRoutes namespaces
// `from: Same`, redirect statusCode 302, TLS mode Terminate, GatewayClass unchanged.
import { z } from 'zod';
import { GATEWAY_API_GROUP } from './types';

const str = z.string();
const port = z.number().int().min(1).max(65535);
// `null` is "unset" for an optional field, as Kubernetes reads it.
const opt = <T extends z.ZodType>(t: T) => z.preprocess((v) => (v === null ? undefined : v), t.optional());
const list = <T extends z.ZodType>(t: T) => z.preprocess((v) => (v === null ? undefined : v), z.array(t).default([]));

export const parentRef = z.object({
  group: z.string().default(GATEWAY_API_GROUP),
  kind: z.string().default('Gateway'),
  namespace: opt(str),
  name: str,
  sectionName: opt(str),
  port: opt(port),
});

const headerKV = z.object({ name: str, value: str });
const headerModifier = z.object({ set: opt(z.array(headerKV)), add: opt(z.array(headerKV)), remove: opt(z.array(str)) });
const pathModifier = z.object({
  type: z.enum(['ReplaceFullPath', 'ReplacePrefixMatch']),
  replaceFullPath: opt(str),
  replacePrefixMatch: opt(str),
});
const objectRef = z.object({
  group: z.string().default(''),
  kind: z.string().default('Service'),
  name: str,
  namespace: opt(str),
  port: opt(port),
});
export const filter = z.object({
  type: str,
  requestHeaderModifier: opt(headerModifier),
  responseHeaderModifier: opt(headerModifier),
  requestRedirect: opt(
    z.object({
      scheme: opt(z.enum(['http', 'https'])),
      hostname: opt(str),
      path: opt(pathModifier),
      port: opt(port),
      statusCode: z.number().int().default(302),
    }),
  ),
  urlRewrite: opt(z.object({ hostname: opt(str), path: opt(pathModifier) })),
  // HTTPCORSFilter; maxAge defaults to 5 (seconds).
  cors: opt(
    z.object({
      allowOrigins: list(str),
      allowCredentials: opt(z.boolean()),
      allowMethods: list(str),
      allowHeaders: list(str),
      exposeHeaders: list(str),
      maxAge: z.number().int().min(0).default(5),
    }),
  ),
  requestMirror: opt(
    z.object({
      backendRef: objectRef,
      percent: opt(z.number().int().min(0).max(100)),
      fraction: opt(z.object({ numerator: z.number().int().min(0), denominator: z.number().int().min(1).default(100) })),
    }),
  ),
});

export const backendRef = objectRef.extend({
  weight: z.number().int().min(0).max(1000000).default(1),
  filters: list(filter),
});

const matchType = z.enum(['Exact', 'RegularExpression']).default('Exact');
const nameValue = z.object({ type: matchType, name: str, value: str });

const httpMatch = z.object({
  path: z
    .object({ type: z.enum(['Exact', 'PathPrefix', 'RegularExpression']).default('PathPrefix'), value: z.string().default('/') })
    .default({
      type: 'PathPrefix',
      value: '/',
    }),
  headers: list(nameValue),
  queryParams: list(nameValue),
  method: opt(z.enum(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])),
});

const httpRule = z.object({
  name: opt(str),
  matches: z.preprocess((v) => (v === null || v === undefined ? [{ path: { type: 'PathPrefix', value: '/' } }] : v), z.array(httpMatch)),
  filters: list(filter),
  backendRefs: list(backendRef),
  timeouts: opt(z.object({ request: opt(str), backendRequest: opt(str) })),
  retry: opt(z.object({ codes: opt(z.array(z.number().int())), attempts: opt(z.number().int().min(0)), backoff: opt(str) })),
});

const grpcRule = z.object({
  name: opt(str),
  matches: list(
    z.object({
      method: opt(z.object({ type: matchType, service: opt(str), method: opt(str) })),
      headers: list(nameValue),
    }),
  ),
  filters: list(filter),
  backendRefs: list(backendRef),
});

const l4Rule = z.object({ name: opt(str), backendRefs: list(backendRef) });

const routeSpec = <R extends z.ZodType>(rule: R) => z.object({ parentRefs: list(parentRef), hostnames: list(str), rules: list(rule) });

export const httpRouteSpec = routeSpec(httpRule);
export const grpcRouteSpec = routeSpec(grpcRule);
export const l4RouteSpec = routeSpec(l4Rule);

const labelSelector = z.object({
  matchLabels: opt(z.record(str, str)),
  matchExpressions: opt(z.array(z.object({ key: str, operator: str, values: opt(z.array(str)) }))),
});

const listener = z.object({
  name: str,
  hostname: opt(str),
  port,
  protocol: str,
  tls: opt(
    z.object({
      mode: z.enum(['Terminate', 'Passthrough']).default('Terminate'),
      certificateRefs: list(
        z.object({ group: z.string().default(''), kind: z.string().default('Secret'), name: str, namespace: opt(str) }),
      ),
    }),
  ),
  allowedRoutes: z
    .object({
      namespaces: z
        .object({ from: z.enum(['All', 'Same', 'Selector']).default('Same'), selector: opt(labelSelector) })
        .default({ from: 'Same' }),
      kinds: opt(z.array(z.object({ group: z.string().default(GATEWAY_API_GROUP), kind: str }))),
    })
    .default({ namespaces: { from: 'Same' } }),
});

export const gatewaySpec = z.object({
  gatewayClassName: str,
  listeners: z.array(listener).min(1),
  addresses: list(z.object({ type: z.string().default('IPAddress'), value: str })),
});

export const gatewayClassSpec = z.object({ controllerName: str });

export const referenceGrantSpec = z.object({
  from: z.array(z.object({ group: str, kind: str, namespace: str })).min(1),
  to: z.array(z.object({ group: str, kind: str, name: opt(str) })).min(1),
});
