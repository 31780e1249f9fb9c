// Reads one config_dump (envoy.admin.v3.ConfigDump, as Envoy's admin /config_dump and istiod's
// /debug/config_dump print it) into what drift compares: per type, the dynamic *active* resources by name,
// the rejected updates (`error_state`, Envoy's NACK record), and counts of what is not compared (static
// resources, warming and draining entries). The bootstrap section is not read: its static resources are the
// `static_*` entries of the other sections. Never throws; shape errors are returned, located.
import { asArray, asObjectOrUndefined, asString, isJsonObject } from '../lib/json';
import type { DriftType } from './types';

export interface DumpSide {
  /** name → resource JSON (as in the dump, with its "@type"), per type. */
  active: Record<DriftType, Map<string, unknown>>;
  /** Whether the dump has the section at all (endpoints are compared only when both dumps carry EDS). */
  has: Record<DriftType, boolean>;
  nacked: { type: DriftType; name: string; details: string; active: boolean }[];
  ignored: { static: number; warming: number; draining: number };
  errors: string[];
  /** Set when the dump cannot be read at all (not JSON, no `configs`). */
  fatal?: string;
}

const SECTION: Record<string, DriftType> = {
  'envoy.admin.v3.ListenersConfigDump': 'listeners',
  'envoy.admin.v3.RoutesConfigDump': 'routes',
  'envoy.admin.v3.ClustersConfigDump': 'clusters',
  'envoy.admin.v3.EndpointsConfigDump': 'endpoints',
  // v2 admin (Envoy ≤ 1.16 with v2 xDS) has the same field layout.
  'envoy.admin.v2alpha.ListenersConfigDump': 'listeners',
  'envoy.admin.v2alpha.RoutesConfigDump': 'routes',
  'envoy.admin.v2alpha.ClustersConfigDump': 'clusters',
};

/** Per type: the wrapped field of a dynamic entry, and the list fields of the section. */
const LAYOUT: Record<DriftType, { field: string; statics: string; dynamics: string[]; warming?: string }> = {
  listeners: { field: 'listener', statics: 'static_listeners', dynamics: [] },
  routes: { field: 'route_config', statics: 'static_route_configs', dynamics: ['dynamic_route_configs'] },
  clusters: { field: 'cluster', statics: 'static_clusters', dynamics: ['dynamic_active_clusters'], warming: 'dynamic_warming_clusters' },
  endpoints: { field: 'endpoint_config', statics: 'static_endpoint_configs', dynamics: ['dynamic_endpoint_configs'] },
};

export const resourceName = (type: DriftType, r: unknown): string | undefined => {
  const o = asObjectOrUndefined(r);
  return asString(o?.[type === 'endpoints' ? 'cluster_name' : 'name']) ?? asString(o?.[type === 'endpoints' ? 'clusterName' : 'name']);
};

const emptySide = (): DumpSide => ({
  active: { listeners: new Map(), routes: new Map(), clusters: new Map(), endpoints: new Map() },
  has: { listeners: false, routes: false, clusters: false, endpoints: false },
  nacked: [],
  ignored: { static: 0, warming: 0, draining: 0 },
  errors: [],
});

/** `error_state` (UpdateFailureState): its details, else the failed resource's name. */
function nackDetails(es: Record<string, unknown>): string {
  return asString(es['details']) ?? 'rejected (no details)';
}

function readSection(side: DumpSide, type: DriftType, section: Record<string, unknown>, where: string): void {
  const lay = LAYOUT[type];
  side.has[type] = true;
  side.ignored.static += asArray(section[lay.statics]).length;
  if (lay.warming) side.ignored.warming += asArray(section[lay.warming]).length;
  const put = (r: unknown, at: string) => {
    const name = resourceName(type, r);
    if (name === undefined) return void side.errors.push(`${at}: no name`);
    if (side.active[type].has(name)) return void side.errors.push(`${at}: duplicate ${type} "${name}" (first kept)`);
    side.active[type].set(name, r);
  };
  const nack = (e: Record<string, unknown>, name: string | undefined, active: boolean) => {
    const es = asObjectOrUndefined(e['error_state']);
    if (!es) return;
    const failed = asObjectOrUndefined(es['failed_configuration']);
    side.nacked.push({ type, name: name ?? resourceName(type, failed) ?? '', details: nackDetails(es), active });
  };
  if (type === 'listeners') {
    asArray(section['dynamic_listeners']).forEach((e, i) => {
      const at = `${where}.dynamic_listeners[${i}]`;
      if (!isJsonObject(e)) return void side.errors.push(`${at}: expected an object`);
      const active = asObjectOrUndefined(e['active_state']);
      if (e['warming_state'] !== undefined) side.ignored.warming++;
      if (e['draining_state'] !== undefined) side.ignored.draining++;
      if (active?.['listener'] !== undefined) put(active['listener'], `${at}.active_state.listener`);
      nack(e, asString(e['name']), active?.['listener'] !== undefined);
    });
    return;
  }
  for (const key of lay.dynamics)
    asArray(section[key]).forEach((e, i) => {
      const at = `${where}.${key}[${i}]`;
      if (!isJsonObject(e)) return void side.errors.push(`${at}: expected an object`);
      const r = e[lay.field];
      if (r !== undefined) put(r, `${at}.${lay.field}`);
      nack(e, resourceName(type, r), r !== undefined);
    });
}

export function readDumpSide(dump: unknown): DumpSide {
  const side = emptySide();
  let d = dump;
  if (typeof d === 'string') {
    try {
      d = JSON.parse(d) as unknown;
    } catch (e) {
      side.fatal = `config dump is not JSON: ${(e as Error).message}`;
      return side;
    }
  }
  const configs = Array.isArray(d) ? d : isJsonObject(d) && Array.isArray(d['configs']) ? d['configs'] : undefined;
  if (!configs) {
    side.fatal = 'config dump has no "configs" array';
    return side;
  }
  configs.forEach((s, i) => {
    const where = `configs[${i}]`;
    if (!isJsonObject(s)) return void side.errors.push(`${where}: expected an object`);
    const t = asString(s['@type']);
    if (!t) return void side.errors.push(`${where}: missing "@type"`);
    const type = SECTION[t.slice(t.lastIndexOf('/') + 1)];
    if (type) readSection(side, type, s, where);
  });
  return side;
}
