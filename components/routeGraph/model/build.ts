// Envoy resources → route graph. Listeners reach route configurations through their HTTP connection
// manager (`rds.route_config_name`, or an inline `route_config`) and clusters through `tcp_proxy`; route
// configurations hold virtual hosts, which hold routes in match order; a route's action names a cluster or
// weighted clusters (share = weight / sum of weights, Envoy's WeightedClusterEntry); clusters reach endpoints
// through EDS (`eds_cluster_config.service_name`, else the cluster name) or an inline `load_assignment`.
// Pure and total: malformed resources are drawn as far as they can be read, never thrown on.
import type { EnvoyConfig } from '@/server/envoy/dumpReader';
import { summarizeRouteMatch } from '@/server/envoy/dumpModel/routes';
import { formatAddress, istioSource } from '@/server/envoy/dumpModel/json';
import { sourceOf } from '@/server/simulate/action';
import { terminalFilter } from '@/server/simulate/http';
import { isObj, num, obj, objs, str, type J } from '@/server/simulate/json';
import { listenerName } from '@/server/simulate/listener';
import { shadowedRoutes } from './shadow';
import type { EdgeKind, GraphEdge, GraphNode, RouteGraph } from './types';

export interface BuildOptions {
  /** Endpoint nodes drawn per cluster; the rest become one "+N more" node. Default 12. */
  maxEndpointsPerCluster?: number;
}

export const nodeIds = {
  listener: (name: string) => `listener:${name}`,
  routeConfig: (key: string) => `rc:${key}`,
  virtualHost: (rcId: string, index: number) => `vh:${rcId}/${index}`,
  route: (vhId: string, index: number) => `route:${vhId}/${index}`,
  cluster: (name: string) => `cluster:${name}`,
  endpoint: (address: string) => `ep:${address}`,
};

/** Istio cluster names `direction|port|subset|host` (names.ts clusterName). */
function subsetOf(name: string): string | undefined {
  const parts = name.split('|');
  return parts.length === 4 && parts[2] ? parts[2] : undefined;
}

/** Provenance fields of a node: parsed and raw. */
function provenance(resource: J, rule?: string): Pick<GraphNode, 'source' | 'sourcePath'> {
  const source = sourceOf(resource, rule);
  const path = istioSource(resource);
  return { ...(source ? { source } : {}), ...(path ? { sourcePath: path } : {}) };
}

/** Breaks an Istio cluster name before its host so that the label stays narrow. */
const clusterLabel = (name: string) => (name.split('|').length === 4 ? name.replace(/\|(?=[^|]*$)/, '|\n') : name);

function listenerAddress(l: J): string {
  return formatAddress(obj(l, 'address'));
}

function actionDetail(r: J): string {
  const ra = obj(r, 'route');
  if (ra) {
    const header = str(ra, 'cluster_header');
    if (header !== undefined) return `cluster from header ${header}`;
    return 'route';
  }
  const rd = obj(r, 'redirect');
  if (rd) {
    const target = [
      str(rd, 'scheme_redirect') ?? (rd['https_redirect'] === true ? 'https' : undefined),
      str(rd, 'host_redirect'),
      str(rd, 'path_redirect') ?? str(rd, 'prefix_rewrite'),
    ]
      .filter((x) => x !== undefined)
      .join(' ');
    return `redirect ${target || '(same URL)'}`;
  }
  const dr = obj(r, 'direct_response');
  if (dr) return `direct response ${num(dr, 'status') ?? ''}`.trim();
  if (obj(r, 'non_forwarding_action')) return 'non-forwarding action';
  return 'no action';
}

/** The clusters a route or tcp_proxy sends to, with their share in percent. */
export function targetsOf(action: J | undefined): { name: string; weight: number; percent: number }[] {
  const single = str(action, 'cluster');
  if (single !== undefined) return [{ name: single, weight: 1, percent: 100 }];
  const list = objs(obj(action, 'weighted_clusters'), 'clusters').map((c) => ({
    name: str(c, 'name') ?? '',
    weight: num(c, 'weight') ?? 0,
  }));
  const total = list.reduce((s, c) => s + c.weight, 0);
  return list.filter((c) => c.name !== '').map((c) => ({ ...c, percent: total > 0 ? Math.round((c.weight / total) * 10000) / 100 : 0 }));
}

class Builder {
  readonly nodes = new Map<string, GraphNode>();
  readonly edges = new Map<string, GraphEdge>();
  private readonly clusters: Map<string, J>;
  private readonly assignments: Map<string, J>;

  constructor(
    private readonly config: EnvoyConfig,
    private readonly maxEndpoints: number,
  ) {
    this.clusters = new Map(config.clusters.filter(isObj).map((c) => [str(c, 'name') ?? '', c]));
    this.assignments = new Map(config.endpoints.filter(isObj).map((e) => [str(e, 'cluster_name') ?? '', e]));
  }

  node(n: GraphNode): GraphNode {
    const had = this.nodes.get(n.id);
    if (had) return had;
    this.nodes.set(n.id, n);
    return n;
  }

  edge(kind: EdgeKind, source: string, target: string, extra: Partial<GraphEdge> = {}): void {
    const id = `${source}->${target}`;
    const had = this.edges.get(id);
    if (had) {
      // Two chains of one listener to one target, or one cluster listed twice in weighted_clusters.
      if (extra.label && had.label && !had.label.split(', ').includes(extra.label)) had.label = `${had.label}, ${extra.label}`;
      if (extra.percent !== undefined && had.percent !== undefined && kind === 'weighted')
        had.percent = Math.round((had.percent + extra.percent) * 100) / 100;
      return;
    }
    this.edges.set(id, { id, kind, source, target, ...extra });
  }

  cluster(name: string): string {
    const id = nodeIds.cluster(name);
    if (this.nodes.has(id)) return id;
    const json = this.clusters.get(name);
    const subset = subsetOf(name);
    this.node({
      id,
      kind: 'cluster',
      label: clusterLabel(name),
      detail: json ? `${str(json, 'type') ?? (obj(json, 'cluster_type') ? 'CUSTOM' : 'STATIC')} cluster` : 'not in the config',
      ...(json ? { json } : { missing: true }),
      ...(subset ? { subset } : {}),
      ...(json ? provenance(json) : {}),
    });
    if (json) this.endpoints(id, name, json);
    return id;
  }

  endpoints(clusterId: string, name: string, cluster: J): void {
    const type = str(cluster, 'type');
    const cla =
      type === 'EDS'
        ? this.assignments.get(str(obj(cluster, 'eds_cluster_config'), 'service_name') ?? name)
        : obj(cluster, 'load_assignment');
    const lbs: { address: string; json: J; locality: string }[] = [];
    for (const loc of objs(cla, 'endpoints')) {
      const l = obj(loc, 'locality');
      const locality = [str(l, 'region'), str(l, 'zone'), str(l, 'sub_zone')].filter((x) => x).join('/');
      for (const lb of objs(loc, 'lb_endpoints')) {
        const address = formatAddress(obj(obj(lb, 'endpoint'), 'address'));
        if (address !== '') lbs.push({ address, json: lb, locality });
      }
    }
    lbs.slice(0, this.maxEndpoints).forEach((e) => {
      const id = nodeIds.endpoint(e.address);
      this.node({ id, kind: 'endpoint', label: e.address, ...(e.locality ? { detail: e.locality } : {}), json: e.json });
      this.edge('endpoint', clusterId, id);
    });
    const rest = lbs.length - this.maxEndpoints;
    if (rest > 0) {
      const id = `more:${name}`;
      this.node({ id, kind: 'more', label: `+${rest} more`, detail: `${rest} more endpoints of ${name}` });
      this.edge('endpoint', clusterId, id);
    }
  }

  routeConfig(rc: J, key: string): string {
    const id = nodeIds.routeConfig(key);
    if (this.nodes.has(id)) return id;
    const name = str(rc, 'name');
    const vhosts = objs(rc, 'virtual_hosts');
    this.node({ id, kind: 'routeConfig', label: name ?? `(unnamed ${key})`, detail: `${vhosts.length} virtual hosts`, json: rc });
    vhosts.forEach((vh, vi) => this.virtualHost(id, vh, vi));
    return id;
  }

  virtualHost(rcId: string, vh: J, index: number): void {
    const id = nodeIds.virtualHost(rcId, index);
    const domains = (Array.isArray(vh['domains']) ? vh['domains'] : []).filter((d): d is string => typeof d === 'string');
    this.node({
      id,
      kind: 'virtualHost',
      label: str(vh, 'name') ?? `virtual_hosts[${index}]`,
      detail: `domains: ${domains.join(', ') || '(none)'}`,
      json: vh,
      routeConfigId: rcId,
      ...provenance(vh),
    });
    this.edge('vhost', rcId, id);
    const routes = objs(vh, 'routes');
    const shadows = shadowedRoutes(routes);
    routes.forEach((r, ri) => {
      const rid = nodeIds.route(id, ri);
      const name = str(r, 'name');
      const shadow = shadows.get(ri);
      const match = summarizeRouteMatch(r['match']);
      this.node({
        id: rid,
        kind: 'route',
        label: `#${ri} ${match}`,
        detail: `${name ? `${name}: ` : ''}${match} → ${actionDetail(r)}`,
        json: r,
        routeIndex: ri,
        routeConfigId: rcId,
        virtualHostId: id,
        ...provenance(r, name || undefined),
        ...(shadow ? { shadowed: shadow } : {}),
      });
      this.edge('route', id, rid);
      const ra = obj(r, 'route');
      if (!ra) return;
      const targets = targetsOf(ra);
      const weighted = obj(ra, 'weighted_clusters') !== undefined;
      for (const t of targets)
        this.edge(weighted ? 'weighted' : 'route', rid, this.cluster(t.name), {
          percent: t.percent,
          ...(weighted ? { weight: t.weight, label: `${t.percent}%` } : {}),
        });
    });
  }

  listener(l: J): void {
    const name = listenerName(l);
    const id = nodeIds.listener(name);
    this.node({ id, kind: 'listener', label: name, detail: listenerAddress(l), json: l });
    const chains = objs(l, 'filter_chains');
    const def = obj(l, 'default_filter_chain');
    const all = def ? [...chains, def] : chains;
    all.forEach((chain, ci) => {
      const chainLabel = str(chain, 'name') ?? (chain === def ? 'default_filter_chain' : `filter_chains[${ci}]`);
      const { hcm, tcp } = terminalFilter(chain);
      if (hcm) {
        const rdsName = str(obj(hcm, 'rds'), 'route_config_name');
        const inline = obj(hcm, 'route_config');
        if (rdsName !== undefined) {
          const rc = this.config.routes.find((r) => str(r, 'name') === rdsName);
          const rcId = rc ? this.routeConfig(rc, rdsName) : this.missingRouteConfig(rdsName);
          this.edge('rds', id, rcId, { label: chainLabel });
        } else if (inline) {
          const rcId = this.routeConfig(inline, `${name}/${chainLabel}`);
          this.edge('inline', id, rcId, { label: chainLabel });
        }
      } else if (tcp) {
        for (const t of targetsOf(tcp)) this.edge('tcp', id, this.cluster(t.name), { label: chainLabel, percent: t.percent });
      }
    });
  }

  missingRouteConfig(name: string): string {
    const id = nodeIds.routeConfig(name);
    this.node({ id, kind: 'routeConfig', label: name, detail: 'not in the config (RDS not received)', missing: true });
    return id;
  }
}

/** The whole graph of a proxy's config. Route configurations no listener references still appear (as roots). */
export function buildRouteGraph(config: EnvoyConfig, opts: BuildOptions = {}): RouteGraph {
  const b = new Builder(config, Math.max(0, opts.maxEndpointsPerCluster ?? 12));
  for (const l of config.listeners) if (isObj(l)) b.listener(l);
  config.routes.forEach((rc, i) => {
    if (!isObj(rc)) return;
    const name = str(rc, 'name');
    b.routeConfig(rc, name ?? `#${i}`);
  });
  return { nodes: [...b.nodes.values()], edges: [...b.edges.values()] };
}
