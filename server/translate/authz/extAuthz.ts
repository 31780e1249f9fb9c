// A MeshConfig ext_authz extension provider → the Envoy ext_authz filters istiod builds for CUSTOM
// AuthorizationPolicies (pilot/pkg/security/authz/builder/extauthz.go: parseService, generateHTTPConfig,
// generateGRPCConfig, generateHeaders, generateFilterMatcher, withBodyRequest).
//
// The ext_authz filter only runs when the RBAC filter before it (CUSTOM rules in shadow mode, shadow stat prefix
// `istio_ext_authz_`) wrote a shadow effective policy id starting with `istio-ext-authz` into its dynamic metadata,
// i.e. when a CUSTOM rule matched. HTTP providers have no network filter: istiod skips them on TCP chains.
import type { FilterJson } from '../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ExtAuthzJson as HttpExtAuthzJson } from '../../gen/envoy/extensions/filters/http/ext_authz/v3/ext_authz_pb';
import type { ExtAuthzJson as TcpExtAuthzJson } from '../../gen/envoy/extensions/filters/network/ext_authz/v3/ext_authz_pb';
import type { HttpFilterJson } from '../../gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import { StatusCode, type StatusCodeJson } from '../../gen/envoy/type/v3/http_status_pb';
import type { ListStringMatcherJson } from '../../gen/envoy/type/matcher/v3/string_pb';
import type { MetadataMatcherJson } from '../../gen/envoy/type/matcher/v3/metadata_pb';
import type { ExtAuthzHttpProvider, ExtensionProvider } from '../../model/extensionProviders';

export const EXT_AUTHZ_HTTP_FILTER = 'envoy.filters.http.ext_authz';
export const EXT_AUTHZ_NETWORK_FILTER = 'envoy.filters.network.ext_authz';
export const EXT_AUTHZ_HTTP_TYPE = 'type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz';
export const EXT_AUTHZ_NETWORK_TYPE = 'type.googleapis.com/envoy.extensions.filters.network.ext_authz.v3.ExtAuthz';
/** authzmodel.RBACExtAuthzShadowRulesStatPrefix. */
export const EXT_AUTHZ_SHADOW_STAT_PREFIX = 'istio_ext_authz_';
const EXT_AUTHZ_MATCH_PREFIX = 'istio-ext-authz';
/** istiod's placeholder HTTP service timeout when the provider sets none. */
const DEFAULT_HTTP_TIMEOUT = '600s';

/** The host part of `[namespace/]hostname`. */
export const providerHost = (service: string): string => service.slice(service.indexOf('/') + 1);

/** model.BuildSubsetKey(outbound, "", host, port). */
export const providerCluster = (p: { service: string; port: number }): string => `outbound|${p.port}||${providerHost(p.service)}`;

const filterMatcher = (filter: string): MetadataMatcherJson => ({
  filter,
  path: [{ key: `${EXT_AUTHZ_SHADOW_STAT_PREFIX}shadow_effective_policy_id` }],
  value: { stringMatch: { prefix: EXT_AUTHZ_MATCH_PREFIX } },
});

/** generateHeaders: `*x` is a suffix, `x*` a prefix, else exact; all case-insensitive. */
function headers(list: readonly string[]): ListStringMatcherJson | undefined {
  if (list.length === 0) return undefined;
  return {
    patterns: list.map((h) =>
      h.startsWith('*')
        ? { suffix: h.slice(1), ignoreCase: true }
        : h.endsWith('*')
          ? { prefix: h.slice(0, -1), ignoreCase: true }
          : { exact: h, ignoreCase: true },
    ),
  };
}

function common(p: NonNullable<ExtensionProvider['extAuthz']>, rbacFilter: string) {
  const b = p.includeRequestBodyInCheck;
  return {
    ...(p.statusOnError !== undefined ? { statusOnError: { code: StatusCode[p.statusOnError] as StatusCodeJson } } : {}),
    ...(p.failOpen ? { failureModeAllow: true } : {}),
    transportApiVersion: 'V3' as const,
    filterEnabledMetadata: filterMatcher(rbacFilter),
    ...(b ? { withRequestBody: { ...b } } : {}),
  };
}

function grpcService(p: NonNullable<ExtensionProvider['extAuthz']>) {
  const cluster = providerCluster(p);
  // `|` is not valid in a gRPC authority: istiod replaces it so ext_authz does not send the cluster name.
  return { envoyGrpc: { clusterName: cluster, authority: cluster.replaceAll('|', '_.') }, ...(p.timeout ? { timeout: p.timeout } : {}) };
}

function httpService(p: ExtAuthzHttpProvider) {
  const allowed = headers(p.includeRequestHeadersInCheck);
  const add = Object.keys(p.includeAdditionalHeadersInCheck)
    .sort()
    .map((key) => ({ key, value: p.includeAdditionalHeadersInCheck[key] as string }));
  const upstream = headers(p.headersToUpstreamOnAllow);
  const client = headers(p.headersToDownstreamOnDeny);
  const clientOnSuccess = headers(p.headersToDownstreamOnAllow);
  return {
    serverUri: { uri: `http://${providerHost(p.service)}`, cluster: providerCluster(p), timeout: p.timeout ?? DEFAULT_HTTP_TIMEOUT },
    ...(p.pathPrefix ? { pathPrefix: p.pathPrefix } : {}),
    ...(allowed || add.length > 0
      ? { authorizationRequest: { ...(allowed ? { allowedHeaders: allowed } : {}), ...(add.length ? { headersToAdd: add } : {}) } }
      : {}),
    ...(upstream || client || clientOnSuccess
      ? {
          authorizationResponse: {
            ...(upstream ? { allowedUpstreamHeaders: upstream } : {}),
            ...(client ? { allowedClientHeaders: client } : {}),
            ...(clientOnSuccess ? { allowedClientHeadersOnSuccess: clientOnSuccess } : {}),
          },
        }
      : {}),
  };
}

/** The HTTP ext_authz filter for a provider. */
export function httpExtAuthzFilter(p: NonNullable<ExtensionProvider['extAuthz']>): HttpFilterJson {
  const cfg: HttpExtAuthzJson = {
    ...common(p, 'envoy.filters.http.rbac'),
    ...(p.kind === 'grpc' ? { grpcService: grpcService(p) } : { httpService: httpService(p) }),
  };
  return { name: EXT_AUTHZ_HTTP_FILTER, typedConfig: { '@type': EXT_AUTHZ_HTTP_TYPE, ...cfg } };
}

/** The network ext_authz filter for a gRPC provider; undefined for HTTP providers (istiod skips them on TCP). */
export function networkExtAuthzFilter(p: NonNullable<ExtensionProvider['extAuthz']>): FilterJson | undefined {
  if (p.kind !== 'grpc') return undefined;
  const cfg: TcpExtAuthzJson = {
    statPrefix: 'tcp.',
    ...(p.failOpen ? { failureModeAllow: true } : {}),
    grpcService: grpcService(p),
    transportApiVersion: 'V3',
    filterEnabledMetadata: filterMatcher('envoy.filters.network.rbac'),
  };
  return { name: EXT_AUTHZ_NETWORK_FILTER, typedConfig: { '@type': EXT_AUTHZ_NETWORK_TYPE, ...cfg } };
}
