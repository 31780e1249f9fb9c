// What drift does not count, in one place (docs/drift.md lists the same):
// 1. Fields a real Envoy fills in on its own when it prints what it holds (its admin config_dump echoes
//    CDS/LDS/RDS as received, but prints EDS from its internal state): not drift.
// 2. Order that carries no meaning: virtual hosts of a route config (Envoy picks a virtual host by domain,
//    not position; istioctl's configdump wrapper sorts them by name before comparing, GetDynamicRouteDump),
//    localities and endpoints of a ClusterLoadAssignment (Envoy load-balances over the set).
// 3. `unmodelled`: what meshscope documents it does not generate (telemetry filters, access logs, tracing).
//    A resource that differs only there is listed with class "unmodelled" and does not make a pod out of sync.
//    The filters are those Istio adds for telemetry that meshscope's translation (server/translate) does not
//    emit; one the expected resource does have is compared like any other (modelled()); routing, security and protocol filters (router, fault, cors, rbac, jwt_authn, ext_authz,
//    original_dst, tls/http inspectors, alpn) are modelled and always compared.
// Pure; works on canonical JSON (canonical.ts), never on the caller's objects.
import type { CanonicalJson } from './canonical';
import type { DriftType } from './types';

type Json = CanonicalJson;
type Obj = { [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const byKey = (key: (x: Json) => string) => (a: Json, b: Json) => {
  const ka = key(a);
  const kb = key(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** Envoy's default overprovisioning factor, printed in its EDS dump when the ClusterLoadAssignment had none. */
export const ENVOY_DEFAULT_OVERPROVISIONING_FACTOR = 140;

/** Telemetry filter names (HTTP and network) Istio adds and meshscope does not generate. */
export const UNMODELLED_FILTER_NAMES: readonly string[] = [
  'istio.stats',
  'istio.metadata_exchange',
  'envoy.filters.http.grpc_stats',
  'envoy.filters.http.peer_metadata',
  'envoy.filters.network.metadata_exchange',
  'waypoint_downstream_peer_metadata',
  'waypoint_upstream_peer_metadata',
  'envoy.wasm.stats',
  'envoy.wasm.metadata_exchange',
];
/** Telemetry filter config types (an `@type`, or a TypedStruct's `type_url`), whatever the filter is named. */
export const UNMODELLED_FILTER_TYPES: readonly string[] = [
  'stats.PluginConfig',
  'io.istio.http.peer_metadata.Config',
  'envoy.tcp.metadataexchange.config.MetadataExchange',
  'envoy.extensions.filters.http.grpc_stats.v3.FilterConfig',
];
/** Fields (anywhere in a listener: listener, HTTP connection manager, TCP proxy) that are telemetry. */
export const UNMODELLED_FIELDS: readonly string[] = ['access_log', 'tracing', 'request_id_extension'];

const shortType = (t: Json | undefined) => (typeof t === 'string' ? t.slice(t.lastIndexOf('/') + 1) : '');

/** The key a telemetry filter is known by: its name when listed, else its config type when listed. */
function unmodelledKey(f: Json): string | undefined {
  if (!isObj(f)) return undefined;
  if (typeof f['name'] === 'string' && UNMODELLED_FILTER_NAMES.includes(f['name'])) return f['name'];
  const tc = f['typed_config'];
  if (!isObj(tc)) return undefined;
  const t = [shortType(tc['@type']), shortType(tc['type_url'])].find((x) => UNMODELLED_FILTER_TYPES.includes(x));
  return t === undefined ? undefined : `type:${t}`;
}

/** The telemetry filters and fields a resource has (so what the expected side does emit stays compared). */
export function telemetryPresent(v: Json, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(v)) {
    for (const x of v) {
      const k = unmodelledKey(x);
      if (k !== undefined) into.add(k);
      telemetryPresent(x, into);
    }
  } else if (isObj(v))
    for (const [k, x] of Object.entries(v)) {
      if (UNMODELLED_FIELDS.includes(k)) into.add(`field:${k}`);
      telemetryPresent(x, into);
    }
  return into;
}

/** The listener without the telemetry filters and fields that `emitted` (the expected side's) lacks. */
function stripTelemetry(v: Json, emitted: ReadonlySet<string>): Json {
  if (Array.isArray(v)) return v.map((x) => stripTelemetry(x, emitted));
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (UNMODELLED_FIELDS.includes(k) && !emitted.has(`field:${k}`)) continue;
    if ((k === 'http_filters' || k === 'filters') && Array.isArray(x)) {
      const kept = x
        .filter((f) => {
          const key = unmodelledKey(f);
          return key === undefined || emitted.has(key);
        })
        .map((f) => stripTelemetry(f, emitted));
      if (kept.length > 0) out[k] = kept;
      continue;
    }
    out[k] = stripTelemetry(x, emitted);
  }
  return out;
}

/** The resource as drift compares it: Envoy-filled fields dropped, meaningless order removed. */
export function comparable(type: DriftType, r: Json): Json {
  if (!isObj(r)) return r;
  if (type === 'routes' && Array.isArray(r['virtual_hosts']))
    return { ...r, virtual_hosts: [...r['virtual_hosts']].sort(byKey((v) => (isObj(v) ? String(v['name']) : ''))) };
  if (type === 'endpoints') return comparableEndpoints(r);
  return r;
}

function comparableEndpoints(cla: Obj): Json {
  const out: Obj = { ...cla };
  const policy = out['policy'];
  if (isObj(policy) && policy['overprovisioning_factor'] === ENVOY_DEFAULT_OVERPROVISIONING_FACTOR) {
    const { overprovisioning_factor: _, ...rest } = policy;
    if (Object.keys(rest).length > 0) out['policy'] = rest;
    else delete out['policy'];
  }
  if (Array.isArray(out['endpoints'])) {
    const localities = out['endpoints'].map((l) => {
      if (!isObj(l)) return l;
      const lo: Obj = { ...l };
      if (isObj(lo['locality']) && Object.keys(lo['locality']).length === 0) delete lo['locality'];
      if (Array.isArray(lo['lb_endpoints']))
        lo['lb_endpoints'] = lo['lb_endpoints'].map(comparableLbEndpoint).sort(byKey((e) => JSON.stringify(isObj(e) ? e['endpoint'] : e)));
      return lo;
    });
    out['endpoints'] = localities.sort(byKey((l) => JSON.stringify(isObj(l) ? [l['locality'] ?? null, l['priority'] ?? 0] : l)));
  }
  return out;
}

function comparableLbEndpoint(e: Json): Json {
  if (!isObj(e)) return e;
  const out: Obj = { ...e };
  // Envoy prints the weight it uses (1 when none was sent) and an empty health check config.
  if (out['load_balancing_weight'] === 1) delete out['load_balancing_weight'];
  const ep = out['endpoint'];
  if (isObj(ep) && isObj(ep['health_check_config']) && Object.keys(ep['health_check_config']).length === 0) {
    const { health_check_config: _, ...rest } = ep;
    out['endpoint'] = rest;
  }
  return out;
}

/**
 * The resource without what meshscope does not model (listeners only; others are fully modelled): the
 * telemetry filters and fields of the lists above, except those the expected resource itself has — what
 * translation emits is always compared (so a filter meshscope starts to generate stops being "unmodelled").
 */
export function modelled(type: DriftType, r: Json, expected: Json, proxyFilters?: ReadonlySet<string>): Json {
  if (type !== 'listeners') return r;
  const emitted = telemetryPresent(expected);
  for (const k of proxyFilters ?? []) emitted.add(k);
  return stripTelemetry(r, emitted);
}

/**
 * The telemetry filters meshscope emits anywhere in a proxy's listeners: modelled for that proxy, so compared in every
 * listener. A listener where meshscope has none of them — an EnvoyFilter removed it, or a chain istiod decorates and
 * meshscope does not — while Envoy has one is drift, not "unmodelled" (issue #22: what is modelled now is compared).
 * Filters only: telemetry fields (access logs, tracing) stay per resource.
 */
export function proxyTelemetryFilters(listeners: Iterable<Json>): Set<string> {
  const out = new Set<string>();
  for (const l of listeners) for (const k of telemetryPresent(l)) if (!k.startsWith('field:')) out.add(k);
  return out;
}
