// Patch values → canonical proto3 JSON of the message their applyTo names (pkg/config/xds BuildXDSObjectFromStruct,
// non-strict as istiod runs it at push time: unknown fields ignored). Decoded against the whole v3 Envoy API
// (server/envoy/fullApi.ts), so a Lua, rate-limit or ext_authz config decodes although the translator never
// emits one. A value that does not decode drops its patch with the decoder's message (istiod logs and skips it).
import { fromJson, toJson, type DescMessage, type JsonValue } from '@bufbuild/protobuf';
import { fullEnvoyRegistry } from '../envoy/fullApi';
import type { EnvoyFilterApplyTo } from '../model/istio';

const MESSAGE_OF: Partial<Record<EnvoyFilterApplyTo, string>> = {
  LISTENER: 'envoy.config.listener.v3.Listener',
  FILTER_CHAIN: 'envoy.config.listener.v3.FilterChain',
  NETWORK_FILTER: 'envoy.config.listener.v3.Filter',
  LISTENER_FILTER: 'envoy.config.listener.v3.ListenerFilter',
  HTTP_FILTER: 'envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter',
  ROUTE_CONFIGURATION: 'envoy.config.route.v3.RouteConfiguration',
  VIRTUAL_HOST: 'envoy.config.route.v3.VirtualHost',
  HTTP_ROUTE: 'envoy.config.route.v3.Route',
  CLUSTER: 'envoy.config.cluster.v3.Cluster',
  EXTENSION_CONFIG: 'envoy.config.core.v3.TypedExtensionConfig',
  BOOTSTRAP: 'envoy.config.bootstrap.v3.Bootstrap',
};

export function messageOf(applyTo: EnvoyFilterApplyTo): DescMessage | undefined {
  const name = MESSAGE_OF[applyTo];
  return name ? fullEnvoyRegistry().getMessage(name) : undefined;
}

export type Decoded = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * Decoded values by the snapshot's own patch value objects (immutable, like the registry above): every proxy a patch
 * concerns, and every translation of the same snapshot, decodes it once. A memoised pure function, not state: the
 * result depends only on the key, which no one mutates, and goes with it (WeakMap). The patch operations never
 * mutate a decoded value (merge.ts clones what it takes from it).
 */
const decodedByValue = new WeakMap<object, Map<EnvoyFilterApplyTo, Decoded>>();

/** Decodes one patch value; `{}` for a missing value (REMOVE needs none). */
export function decodePatchValue(applyTo: EnvoyFilterApplyTo, value: Record<string, unknown> | undefined): Decoded {
  if (value === undefined) return decodeValue(applyTo, value);
  let byApplyTo = decodedByValue.get(value);
  if (!byApplyTo) {
    byApplyTo = new Map();
    decodedByValue.set(value, byApplyTo);
  }
  let d = byApplyTo.get(applyTo);
  if (!d) {
    d = decodeValue(applyTo, value);
    byApplyTo.set(applyTo, d);
  }
  return d;
}

function decodeValue(applyTo: EnvoyFilterApplyTo, value: Record<string, unknown> | undefined): Decoded {
  const desc = messageOf(applyTo);
  if (!desc) return { ok: false, error: `unsupported applyTo ${applyTo}` };
  const registry = fullEnvoyRegistry();
  try {
    const msg = fromJson(desc, (value ?? {}) as JsonValue, { registry, ignoreUnknownFields: true });
    return { ok: true, value: toJson(desc, msg, { registry }) as Record<string, unknown> };
  } catch (e) {
    return { ok: false, error: `${desc.typeName}: ${(e as Error).message}` };
  }
}
