// zod schema and webhook checks of networking.istio.io/v1alpha3 EnvoyFilter (istio/api networking/v1alpha3/envoy_filter.proto;
// pkg/config/validation/envoyfilter/envoyfilter.go validateEnvoyFilter). Patch values are google.protobuf.Struct: any JSON object
// here; the EnvoyFilter stage decodes them against the Envoy API (server/envoyfilter/decode.ts).
import { z } from 'zod';
import type { EnvoyFilterSpec } from '../istio';
import { stringMap, uint, type PathIssue } from './common';
import { labelsIssues } from './rules';
import { compileRe2 } from '../../lib/re2';

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

/**
 * ValidateEnvoyFilter's errors (pkg/config/validation/envoyfilter/envoyfilter.go validateEnvoyFilter), in its order and
 * words; a patch's first error ends its checks as the `continue`s there do. Its warnings are not errors (the analyzers
 * IST0151–IST0155 are separate). Not here: the patch value decoding (BuildXDSObjectFromStruct), which the EnvoyFilter
 * stage does against the full Envoy API and reports as a located translation error (server/envoyfilter/decode.ts).
 */
export function checkEnvoyFilter(spec: EnvoyFilterSpec): PathIssue[] {
  const out: PathIssue[] = [];
  if (spec.workloadSelector && (spec.targetRefs?.length ?? 0) > 0)
    out.push({ path: 'spec', message: 'only one of targetRefs or workloadSelector can be set' });
  out.push(...labelsIssues(spec.workloadSelector?.labels, 'spec.workloadSelector.labels'));
  (spec.configPatches ?? []).forEach((cp, i) => {
    const issue = checkPatch(cp, `spec.configPatches[${i}]`);
    if (issue) out.push(issue);
  });
  return out;
}

const LISTENER_CLASS = new Set(['LISTENER', 'FILTER_CHAIN', 'NETWORK_FILTER', 'HTTP_FILTER']);
const ROUTE_CLASS = new Set(['ROUTE_CONFIGURATION', 'VIRTUAL_HOST', 'HTTP_ROUTE']);
const HCM_NAMES = new Set(['envoy.filters.network.http_connection_manager', 'envoy.http_connection_manager']);

type ConfigPatch = NonNullable<EnvoyFilterSpec['configPatches']>[number];

function checkPatch(cp: ConfigPatch, at: string): PathIssue | undefined {
  const issue = (path: string, message: string): PathIssue => ({ path: `${at}${path}`, message: `Envoy filter: ${message}` });
  if (!cp.applyTo || cp.applyTo === 'INVALID') return issue('.applyTo', 'missing applyTo');
  if (!cp.patch) return issue('.patch', 'missing patch');
  if (!cp.patch.operation || cp.patch.operation === 'INVALID') return issue('.patch.operation', 'missing patch operation');
  if (cp.patch.operation !== 'REMOVE' && !cp.patch.value) return issue('.patch.value', 'missing patch value for non-remove operation');
  const version = cp.match?.proxy?.proxyVersion ?? '';
  // Over 1024 characters: a warning there (never compiled, ignored by istiod).
  if (version !== '' && version.length <= 1024) {
    const re = compileRe2(version);
    if (!re.ok) return issue('.match.proxy.proxyVersion', `invalid regex for proxy version, [${re.error}]`);
  }
  const m = cp.match;
  // match.ObjectTypes: the listener / routeConfiguration / cluster oneof.
  const objectTypes = m?.listener !== undefined || m?.routeConfiguration !== undefined || m?.cluster !== undefined;
  if (!objectTypes) return undefined;
  if (LISTENER_CLASS.has(cp.applyTo)) {
    if (!m?.listener) return issue('.match', 'applyTo for listener class objects cannot have non listener match');
    const filter = m.listener.filterChain?.filter;
    if (!filter) return undefined;
    const f = '.match.listener.filterChain.filter';
    if (!filter.name) return issue(`${f}.name`, 'filter match has no name to match on');
    if (filter.subFilter) {
      if (cp.applyTo !== 'HTTP_FILTER') return issue(`${f}.subFilter`, 'subfilter match can be used with applyTo HTTP_FILTER only');
      if (!HCM_NAMES.has(filter.name))
        return issue(`${f}.name`, 'subfilter match requires filter match with envoy.filters.network.http_connection_manager');
      if (!filter.subFilter.name) return issue(`${f}.subFilter.name`, 'subfilter match has no name to match on');
    }
  } else if (ROUTE_CLASS.has(cp.applyTo)) {
    if (!m?.routeConfiguration) return issue('.match', 'applyTo for http route class objects cannot have non route configuration match');
  } else if (cp.applyTo === 'CLUSTER') {
    if (!m?.cluster) return issue('.match', 'applyTo for cluster class objects cannot have non cluster match');
  }
  return undefined;
}
