// Reads an Envoy admin ConfigDump (envoy.admin.v3.ConfigDump, as /config_dump and istiod's
// /debug/config_dump print it) into flat lists of resources in Envoy JSON (snake_case), without the outer
// "@type". Every section shape is accepted; ScopedRoutes/Secrets and unknown @types are ignored. Never throws.
import type { JsonValue } from '@bufbuild/protobuf';
import { getArray, isJsonObject } from '../lib/json';
import type { EnvoyJson } from './encode';

export interface EnvoyConfig {
  listeners: EnvoyJson[];
  routes: EnvoyJson[];
  clusters: EnvoyJson[];
  endpoints: EnvoyJson[];
  /** The input was one bare RouteConfiguration (a route table, as router_check_tool reads it), not a config dump. */
  routeTable?: true;
}

type Kind = Exclude<keyof EnvoyConfig, 'routeTable'>;

const isObj = isJsonObject as (v: unknown) => v is EnvoyJson;
const list = getArray;

/** The resource without its "@type" (as encodeResource().json). */
function strip(r: EnvoyJson): EnvoyJson {
  const out: EnvoyJson = {};
  for (const [k, v] of Object.entries(r)) if (k !== '@type') out[k] = v as JsonValue;
  return out;
}

class Collector {
  readonly config: EnvoyConfig = { listeners: [], routes: [], clusters: [], endpoints: [] };
  readonly errors: string[] = [];
  private readonly seen = new Set<string>();

  add(kind: Kind, r: unknown, where: string): void {
    if (!isObj(r)) {
      this.errors.push(`${where}: expected a ${kind.slice(0, -1)} object`);
      return;
    }
    const res = strip(r);
    const name = kind === 'endpoints' ? res['cluster_name'] : res['name'];
    const key = `${kind}/${typeof name === 'string' && name !== '' ? name : JSON.stringify(res)}`;
    if (this.seen.has(key)) return; // bootstrap static resources also appear in their sections
    this.seen.add(key);
    this.config[kind].push(res);
  }

  /** `entries[i][field]` for each entry (e.g. dynamic_route_configs[i].route_config). */
  addWrapped(kind: Kind, section: EnvoyJson, key: string, field: string, where: string): void {
    list(section, key).forEach((e, i) => {
      const at = `${where}.${key}[${i}]`;
      if (!isObj(e)) return void this.errors.push(`${at}: expected an object`);
      if (e[field] === undefined) return void this.errors.push(`${at}: no ${field}`);
      this.add(kind, e[field], `${at}.${field}`);
    });
  }

  listeners(section: EnvoyJson, where: string): void {
    this.addWrapped('listeners', section, 'static_listeners', 'listener', where);
    list(section, 'dynamic_listeners').forEach((e, i) => {
      const at = `${where}.dynamic_listeners[${i}]`;
      if (!isObj(e)) return void this.errors.push(`${at}: expected an object`);
      // The active listener serves traffic; a warming one replaces it once warm; a draining-only one is
      // being removed and takes no new connections; error_state is a rejected update.
      for (const state of ['active_state', 'warming_state']) {
        const st = e[state];
        if (isObj(st) && st['listener'] !== undefined) return void this.add('listeners', st['listener'], `${at}.${state}.listener`);
      }
    });
  }

  clusters(section: EnvoyJson, where: string): void {
    this.addWrapped('clusters', section, 'static_clusters', 'cluster', where);
    this.addWrapped('clusters', section, 'dynamic_active_clusters', 'cluster', where);
    this.addWrapped('clusters', section, 'dynamic_warming_clusters', 'cluster', where);
  }

  bootstrap(section: EnvoyJson, where: string): void {
    const b = section['bootstrap'];
    const sr = isObj(b) ? b['static_resources'] : undefined;
    if (!isObj(sr)) return;
    list(sr, 'listeners').forEach((l, i) => this.add('listeners', l, `${where}.bootstrap.static_resources.listeners[${i}]`));
    list(sr, 'clusters').forEach((c, i) => this.add('clusters', c, `${where}.bootstrap.static_resources.clusters[${i}]`));
  }

  section(section: unknown, where: string): void {
    if (!isObj(section)) return void this.errors.push(`${where}: expected an object`);
    const t = section['@type'];
    if (typeof t !== 'string') return void this.errors.push(`${where}: missing "@type"`);
    const type = t.slice(t.lastIndexOf('/') + 1);
    if (type === 'envoy.admin.v3.ListenersConfigDump') this.listeners(section, where);
    else if (type === 'envoy.admin.v3.RoutesConfigDump') {
      this.addWrapped('routes', section, 'static_route_configs', 'route_config', where);
      this.addWrapped('routes', section, 'dynamic_route_configs', 'route_config', where);
    } else if (type === 'envoy.admin.v3.ClustersConfigDump') this.clusters(section, where);
    else if (type === 'envoy.admin.v3.EndpointsConfigDump') {
      this.addWrapped('endpoints', section, 'static_endpoint_configs', 'endpoint_config', where);
      this.addWrapped('endpoints', section, 'dynamic_endpoint_configs', 'endpoint_config', where);
    } else if (type === 'envoy.admin.v3.BootstrapConfigDump') this.bootstrap(section, where);
    // ScopedRoutes, Secrets, Ecds and unknown section types are ignored.
  }
}

const isRouteConfigType = (t: unknown): boolean => typeof t === 'string' && t.endsWith('envoy.config.route.v3.RouteConfiguration');

/**
 * Reads a ConfigDump given as parsed JSON (or its JSON text): `{configs: [...]}` or the bare `configs`
 * array; or one bare RouteConfiguration (`virtual_hosts` at the top, as router_check_tool takes it). Bootstrap static resources are read after the other sections and de-duplicated by name.
 */
export function readConfigDump(dump: unknown): { config: EnvoyConfig; errors: string[] } {
  const c = new Collector();
  let d = dump;
  if (typeof d === 'string') {
    try {
      d = JSON.parse(d) as unknown;
    } catch (e) {
      c.errors.push(`config dump is not JSON: ${(e as Error).message}`);
      return { config: c.config, errors: c.errors };
    }
  }
  // A bare RouteConfiguration (what Envoy's router_check_tool reads): its route table alone.
  if (isObj(d) && !Array.isArray(d['configs']) && (Array.isArray(d['virtual_hosts']) || isRouteConfigType(d['@type']))) {
    c.add('routes', d, '(route configuration)');
    return { config: { ...c.config, routeTable: true }, errors: c.errors };
  }
  const configs = Array.isArray(d) ? d : isObj(d) && Array.isArray(d['configs']) ? d['configs'] : undefined;
  if (!configs) {
    c.errors.push('config dump has no "configs" array');
    return { config: c.config, errors: c.errors };
  }
  const isBootstrap = (s: unknown) => isObj(s) && typeof s['@type'] === 'string' && s['@type'].endsWith('.BootstrapConfigDump');
  configs.forEach((s, i) => {
    if (!isBootstrap(s)) c.section(s, `configs[${i}]`);
  });
  configs.forEach((s, i) => {
    if (isBootstrap(s)) c.section(s, `configs[${i}]`);
  });
  return { config: c.config, errors: c.errors };
}
