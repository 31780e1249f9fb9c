// Drift: per-resource, semantic comparison of two Envoy config dumps (issue 21 §2) — meshscope's translation
// (expected) against what an Envoy holds (actual), or any two dumps offline. Compared: dynamic active
// listeners, route configs and clusters, and endpoints when both dumps carry EDS; by name, whatever the
// order of the resources. Each resource is decoded along Envoy's descriptors (canonical.ts) so only a
// different message differs; Envoy-filled fields, meaningless order and unmodelled telemetry are
// policy.ts. Static, warming and draining entries are counted apart; `error_state` is `nacked`.
// The resource-level result matches istioctl's comparator (istioctl/pkg/writer/compare: a dynamic section
// "Don't Match" exactly when a resource here is changed / onlyIn*), but per resource instead of a text diff.
// Pure: no I/O, no clock.
import { byteCompare } from '../lib/compare';
import { diffRouteConfig } from '../sandbox/diffRoutes';
import type { RouteChange } from '../sandbox/types';
import { type CanonicalJson, canonicalResource, jsonEqual } from './canonical';
import { diffPaths } from './paths';
import { comparable, modelled, proxyTelemetryFilters } from './policy';
import { readDumpSide } from './sections';
import {
  DRIFT_TYPES,
  type DriftBody,
  type DriftCounts,
  DriftInputError,
  type DriftOptions,
  type DriftResource,
  type DriftType,
} from './types';

export * from './types';

const MESSAGE: Record<DriftType, string> = {
  listeners: 'envoy.config.listener.v3.Listener',
  routes: 'envoy.config.route.v3.RouteConfiguration',
  clusters: 'envoy.config.cluster.v3.Cluster',
  endpoints: 'envoy.config.endpoint.v3.ClusterLoadAssignment',
};

const zero = (): DriftCounts => ({ same: 0, changed: 0, onlyInEnvoy: 0, onlyInMeshscope: 0 });

/** snake_case keys → lowerCamel (the translator's JSON, which the sandbox's route diff reads). */
function camel(v: CanonicalJson): unknown {
  if (Array.isArray(v)) return v.map(camel);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    out[k.startsWith('@') ? k : k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = camel(x);
  return out;
}

/** Whether a cluster gets its endpoints by EDS (so a cluster only on one side also lacks/has endpoints). */
function isEds(c: CanonicalJson | undefined): boolean {
  return typeof c === 'object' && c !== null && !Array.isArray(c) && (c['type'] === 'EDS' || c['eds_cluster_config'] !== undefined);
}

export function computeDrift(expected: unknown, actual: unknown, opts: DriftOptions = {}): DriftBody {
  const exp = readDumpSide(expected);
  if (exp.fatal) throw new DriftInputError('expected', exp.fatal);
  const act = readDumpSide(actual);
  if (act.fatal) throw new DriftInputError('actual', act.fatal);
  const max = opts.maxPaths ?? 50;
  const body: DriftBody = {
    inSync: true,
    counts: { listeners: zero(), routes: zero(), clusters: zero(), endpoints: zero() },
    resources: [],
    routes: [],
    nacked: act.nacked.map(({ type, name, details }) => ({ type, name, details })),
    ignored: { ...act.ignored },
  };
  const canon = new Map<string, { e?: CanonicalJson; a?: CanonicalJson }>();
  const bodies = (e: CanonicalJson | undefined, a: CanonicalJson | undefined) =>
    opts.withoutBodies ? {} : { ...(e !== undefined ? { meshscope: e } : {}), ...(a !== undefined ? { envoy: a } : {}) };
  const compareEds = exp.has.endpoints && act.has.endpoints;
  // The telemetry filters meshscope emits for this proxy (policy.ts proxyTelemetryFilters), read once a listener differs.
  let telemetry: Set<string> | undefined;
  const proxyFilters = () =>
    (telemetry ??= proxyTelemetryFilters([...exp.active.listeners.values()].map((l) => canonicalResource(MESSAGE.listeners, l))));

  for (const type of DRIFT_TYPES) {
    if (type === 'endpoints' && !compareEds) continue;
    const names = [...new Set([...exp.active[type].keys(), ...act.active[type].keys()])].sort(byteCompare);
    for (const name of names) {
      const re = exp.active[type].get(name);
      const ra = act.active[type].get(name);
      const counts = body.counts[type];
      // The same JSON text is the same message: no need to decode (most resources of a pod in sync).
      if (re !== undefined && ra !== undefined && JSON.stringify(re) === JSON.stringify(ra)) {
        counts.same++;
        if (type === 'endpoints') canon.set(`${type}/${name}`, { e: null, a: null });
        continue;
      }
      const e = re === undefined ? undefined : comparable(type, canonicalResource(MESSAGE[type], re));
      const a = ra === undefined ? undefined : comparable(type, canonicalResource(MESSAGE[type], ra));
      canon.set(`${type}/${name}`, { e, a });
      if (a === undefined) {
        counts.onlyInMeshscope++;
        body.resources.push({ type, name, change: 'onlyInMeshscope', ...bodies(e, undefined) });
      } else if (e === undefined) {
        counts.onlyInEnvoy++;
        body.resources.push({ type, name, change: 'onlyInEnvoy', ...bodies(undefined, a) });
      } else if (jsonEqual(e, a)) counts.same++;
      else if (jsonEqual(modelled(type, e, e, proxyFilters()), modelled(type, a, e, proxyFilters()))) {
        counts.same++; // differs only in what meshscope does not generate: listed, not counted as drift
        body.resources.push({ type, name, change: 'changed', class: 'unmodelled', paths: diffPaths(e, a, max), ...bodies(e, a) });
      } else {
        counts.changed++;
        body.resources.push({
          type,
          name,
          change: 'changed',
          paths: diffPaths(modelled(type, e, e, proxyFilters()), modelled(type, a, e, proxyFilters()), max),
          ...bodies(e, a),
        });
        if (type === 'routes') body.routes.push(...routeChanges(name, e, a));
      }
    }
  }
  if (compareEds) addEndpointsOfClusters(body, canon);
  body.inSync =
    body.nacked.length === 0 &&
    DRIFT_TYPES.every((t) => body.counts[t].changed + body.counts[t].onlyInEnvoy + body.counts[t].onlyInMeshscope === 0);
  return body;
}

function routeChanges(name: string, e: CanonicalJson, a: CanonicalJson): RouteChange[] {
  return diffRouteConfig(name, camel(e) as Record<string, unknown>, camel(a) as Record<string, unknown>).routes;
}

/**
 * A cluster on one side only also shows as an endpoints entry (issue 21): when the dumps carry EDS and the
 * cluster is an EDS cluster whose ClusterLoadAssignment was not already listed on that side.
 */
function addEndpointsOfClusters(body: DriftBody, canon: Map<string, { e?: CanonicalJson; a?: CanonicalJson }>): void {
  const listed = new Set(body.resources.filter((r) => r.type === 'endpoints').map((r) => r.name));
  const extra: DriftResource[] = [];
  for (const r of body.resources) {
    if (r.type !== 'clusters' || r.change === 'changed' || listed.has(r.name)) continue;
    const c = canon.get(`clusters/${r.name}`);
    if (!isEds(r.change === 'onlyInMeshscope' ? c?.e : c?.a)) continue;
    const eds = canon.get(`endpoints/${r.name}`);
    if (eds && eds.e !== undefined && eds.a !== undefined) {
      // Both dumps still hold the assignment (a stale one on the side without the cluster): counted as same above.
      body.counts.endpoints.same--;
    }
    body.counts.endpoints[r.change]++;
    extra.push({ type: 'endpoints', name: r.name, change: r.change });
  }
  body.resources.push(...extra);
}
