// zod schema and webhook checks of networking.istio.io/v1alpha3 EnvoyFilter (istio/api networking/v1alpha3/envoy_filter.proto;
// pkg/config/validation/validation.go ValidateEnvoyFilter). Patch values are google.protobuf.Struct: any JSON object
// here; the EnvoyFilter stage decodes them against the Envoy API (server/envoyfilter/decode.ts).
import { z } from 'zod';
import type { EnvoyFilterSpec } from '../istio';
import { stringMap, uint, type PathIssue } from './common';
import { labelsIssues } from './rules';

const applyTo = z.enum([
  'INVALID',
  'LISTENER',
  'FILTER_CHAIN',
  'NETWORK_FILTER',
  'HTTP_FILTER',
  'ROUTE_CONFIGURATION',
  'VIRTUAL_HOST',
  'HTTP_ROUTE',
  'CLUSTER',
  'EXTENSION_CONFIG',
  'BOOTSTRAP',
  'LISTENER_FILTER',
]);
const operation = z.enum([
  'INVALID',
  'MERGE',
  'ADD',
  'REMOVE',
  'INSERT_BEFORE',
  'INSERT_AFTER',
  'INSERT_FIRST',
  'REPLACE',
  'MERGE_AND_REPLACE_LIST',
]);

const listenerMatch = z.strictObject({
  portNumber: uint.optional(),
  portName: z.string().optional(),
  filterChain: z
    .strictObject({
      name: z.string().optional(),
      sni: z.string().optional(),
      transportProtocol: z.string().optional(),
      applicationProtocols: z.string().optional(),
      filter: z
        .strictObject({ name: z.string().optional(), subFilter: z.strictObject({ name: z.string().optional() }).optional() })
        .optional(),
      destinationPort: uint.optional(),
    })
    .optional(),
  listenerFilter: z.string().optional(),
  name: z.string().optional(),
});
const routeConfigurationMatch = z.strictObject({
  portNumber: uint.optional(),
  portName: z.string().optional(),
  gateway: z.string().optional(),
  vhost: z
    .strictObject({
      name: z.string().optional(),
      domainName: z.string().optional(),
      route: z
        .strictObject({ name: z.string().optional(), action: z.enum(['ANY', 'ROUTE', 'REDIRECT', 'DIRECT_RESPONSE']).optional() })
        .optional(),
    })
    .optional(),
  name: z.string().optional(),
});
const clusterMatch = z.strictObject({
  portNumber: uint.optional(),
  service: z.string().optional(),
  subset: z.string().optional(),
  name: z.string().optional(),
});

export const envoyFilterSpec: z.ZodType<EnvoyFilterSpec> = z.strictObject({
  workloadSelector: z.strictObject({ labels: stringMap.optional() }).optional(),
  targetRefs: z
    .array(z.strictObject({ group: z.string().optional(), kind: z.string(), name: z.string(), namespace: z.string().optional() }))
    .optional(),
  configPatches: z
    .array(
      z.strictObject({
        applyTo: applyTo.optional(),
        match: z
          .strictObject({
            context: z.enum(['ANY', 'SIDECAR_INBOUND', 'SIDECAR_OUTBOUND', 'GATEWAY']).optional(),
            proxy: z.strictObject({ proxyVersion: z.string().optional(), metadata: stringMap.optional() }).optional(),
            listener: listenerMatch.optional(),
            routeConfiguration: routeConfigurationMatch.optional(),
            cluster: clusterMatch.optional(),
          })
          .optional(),
        patch: z
          .strictObject({
            operation: operation.optional(),
            value: z.record(z.string(), z.unknown()).optional(),
            filterClass: z.enum(['UNSPECIFIED', 'AUTHN', 'AUTHZ', 'STATS']).optional(),
          })
          .optional(),
      }),
    )
    .optional(),
  priority: z.number().int().optional(),
});

/** ValidateEnvoyFilter's errors (its warnings are the IST0151–IST0155 analyzers). */
export function checkEnvoyFilter(spec: EnvoyFilterSpec): PathIssue[] {
  const out: PathIssue[] = [];
  if (spec.workloadSelector && (spec.targetRefs?.length ?? 0) > 0)
    out.push({ path: 'spec', message: 'only one of targetRefs or workloadSelector can be set' });
  out.push(...labelsIssues(spec.workloadSelector?.labels, 'spec.workloadSelector.labels'));
  (spec.configPatches ?? []).forEach((cp, i) => {
    const at = `spec.configPatches[${i}]`;
    if (!cp.applyTo || cp.applyTo === 'INVALID') out.push({ path: `${at}.applyTo`, message: 'Envoy filter: missing applyTo' });
    if (!cp.patch) out.push({ path: `${at}.patch`, message: 'Envoy filter: missing patch' });
    else if (!cp.patch.operation || cp.patch.operation === 'INVALID')
      out.push({ path: `${at}.patch.operation`, message: 'Envoy filter: missing patch operation' });
    else if (cp.patch.operation !== 'REMOVE' && !cp.patch.value)
      out.push({ path: `${at}.patch.value`, message: 'Envoy filter: missing patch value for non-remove operation' });
    const listener = cp.match?.listener;
    if (
      listener &&
      cp.applyTo !== 'LISTENER' &&
      cp.applyTo !== 'FILTER_CHAIN' &&
      cp.applyTo !== 'NETWORK_FILTER' &&
      cp.applyTo !== 'HTTP_FILTER' &&
      cp.applyTo !== 'LISTENER_FILTER'
    )
      out.push({
        path: `${at}.match`,
        message:
          'Envoy filter: listener match with applyTo other than listener, filter chain, network filter, http filter or listener filter',
      });
    if (
      cp.match?.routeConfiguration &&
      cp.applyTo !== 'ROUTE_CONFIGURATION' &&
      cp.applyTo !== 'VIRTUAL_HOST' &&
      cp.applyTo !== 'HTTP_ROUTE'
    )
      out.push({
        path: `${at}.match`,
        message: 'Envoy filter: route configuration match with applyTo other than route configuration, virtual host or http route',
      });
    if (cp.match?.cluster && cp.applyTo !== 'CLUSTER')
      out.push({ path: `${at}.match`, message: 'Envoy filter: cluster match with applyTo other than cluster' });
    if (
      cp.applyTo === 'HTTP_FILTER' &&
      listener?.filterChain?.filter?.name &&
      listener.filterChain.filter.name !== 'envoy.filters.network.http_connection_manager'
    )
      out.push({
        path: `${at}.match.listener.filterChain.filter.name`,
        message: 'Envoy filter: applyTo for http filter must have a network filter of http_connection_manager',
      });
  });
  return out;
}
