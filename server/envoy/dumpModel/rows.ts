// A ConfigDump → flat rows for the proxy tables (one row per filter chain, route, cluster, endpoint),
// like `istioctl proxy-config` summaries, with stable keys for deep links and change highlighting.
// Pure and browser-safe; works on meshscope's dumps and real Envoy ones alike (../dumpReader.ts reads both).
// Built on the per-resource summaries beside it (listeners.ts, routes.ts, clusters.ts), which the API's
// tables (tables.ts) use too: one reading of each Envoy field.
import { parseClusterName } from '../../translate/names';
import { parseConfigPath } from '../../translate/provenance';
import { readConfigDump } from '../dumpReader';
import { summarizeLoadAssignment } from './clusters';
import { humanMatch } from './humanMatch';
import { arr, istioSource, num, obj, str } from './json';
import { summarizeListener } from './listeners';
import { routeAction, routeDetails, weightedClusters, type WeightedCluster } from './routes';

export interface ListenerTableRow {
  key: string;
  listener: string;
  address: string;
  chain: string;
  match: string;
  filters: string;
  /** `RDS 9080`, `inline …`, `TCP → cluster`. */
  target: string;
  rds?: string;
  notes: string;
}

export interface RouteTableRow {
  key: string;
  routeConfig: string;
  vhost: string;
  domains: string;
  /** Position of the route in its virtual host (Envoy evaluates routes in order). */
  index: number;
  name: string;
  match: string;
  action: string;
  clusters: WeightedCluster[];
  details: string;
  /** filter_metadata.istio.config path. */
  source?: string;
  /** `VirtualService ns/name`. */
  sourceLabel?: string;
  /** Which of this source's routes in the virtual host this is (0-based), to find its http rule. */
  ordinal: number;
  raw: unknown;
}

export interface ClusterTableRow {
  key: string;
  name: string;
  fqdn: string;
  port?: number;
  subset: string;
  direction: string;
  type: string;
  lb: string;
  destinationRule: string;
  source?: string;
  circuitBreakers: string;
  outlierDetection: string;
  raw: unknown;
}

export interface EndpointTableRow {
  key: string;
  cluster: string;
  address: string;
  locality: string;
  health: string;
  weight?: number;
  priority: number;
}

export interface DumpRows {
  listeners: ListenerTableRow[];
  routes: RouteTableRow[];
  clusters: ClusterTableRow[];
  endpoints: EndpointTableRow[];
  /** Problems reading the dump (wrong shapes), located by section. */
  errors: string[];
}

export function sourceLabel(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const p = parseConfigPath(path);
  return p ? `${p.kind} ${p.namespace}/${p.name}` : path;
}

export function listenerRows(listeners: readonly unknown[]): ListenerTableRow[] {
  const out: ListenerTableRow[] = [];
  for (const l of listeners) {
    const s = summarizeListener(l);
    const chains = s.defaultChain ? [...s.chains, { ...s.defaultChain, name: '(default chain)' }] : s.chains;
    if (chains.length === 0)
      out.push({
        key: `${s.name}#-`,
        listener: s.name,
        address: s.address,
        chain: '',
        match: '',
        filters: '',
        target: '',
        notes: s.notes.join(', '),
      });
    chains.forEach((c, i) => {
      const target =
        c.rds !== undefined
          ? `RDS ${c.rds}`
          : c.inlineRoute !== undefined
            ? `inline ${c.inlineRoute}`
            : c.clusters.length
              ? `TCP → ${c.clusters.join(', ')}`
              : '';
      const row: ListenerTableRow = {
        key: `${s.name}#${i}`,
        listener: s.name,
        address: s.address,
        chain: c.name ?? '',
        match: c.match,
        filters: c.filters.join(', '),
        target,
        notes: s.notes.join(', '),
      };
      if (c.rds !== undefined) row.rds = c.rds;
      out.push(row);
    });
  }
  return out;
}

export function routeRows(routeConfigs: readonly unknown[]): RouteTableRow[] {
  const out: RouteTableRow[] = [];
  const keys = new Set<string>();
  for (const [rcIndex, rcRaw] of routeConfigs.entries()) {
    const rc = obj(rcRaw);
    const rcName = str(rc.name) ?? '';
    for (const vhRaw of arr(rc.virtual_hosts)) {
      const vh = obj(vhRaw);
      const vhName = str(vh.name) ?? '';
      const ordinals = new Map<string, number>();
      arr(vh.routes).forEach((rRaw, index) => {
        const r = obj(rRaw);
        const source = istioSource(r);
        const ordinal = ordinals.get(source ?? '') ?? 0;
        ordinals.set(source ?? '', ordinal + 1);
        // Static route configs may be unnamed (Envoy bootstrap): keep keys unique by position.
        let key = `${rcName}/${vhName}/${index}`;
        if (keys.has(key)) key = `${key}@${rcIndex}`;
        keys.add(key);
        const row: RouteTableRow = {
          key,
          routeConfig: rcName,
          vhost: vhName,
          domains: arr(vh.domains).map(String).join(', '),
          index,
          name: str(r.name) ?? '',
          match: humanMatch(r.match),
          action: routeAction(r),
          clusters: r.route !== undefined ? weightedClusters(r.route) : [],
          details: routeDetails(r).join('; '),
          ordinal,
          raw: rRaw,
        };
        if (source !== undefined) {
          row.source = source;
          const label = sourceLabel(source);
          if (label) row.sourceLabel = label;
        }
        out.push(row);
      });
    }
  }
  return out;
}

/** 2^32-1: what Istio writes for "no limit" (cluster_traffic_policy.go getDefaultCircuitBreakerThresholds). */
const UNLIMITED = 4294967295;

/** Envoy's circuit breaker thresholds (default priority), e.g. `conn 100 · pending 10 · req 1024 · retries 3`;
 *  `unlimited` when every threshold is Istio's no-limit value. */
export function circuitBreakers(cluster: unknown): string {
  const thresholds = arr(obj(obj(cluster).circuit_breakers).thresholds).map(obj);
  const t = thresholds.find((x) => (str(x.priority) ?? 'DEFAULT') === 'DEFAULT') ?? thresholds[0];
  if (!t) return '';
  const parts: string[] = [];
  let limited = false;
  for (const [k, label] of [
    ['max_connections', 'conn'],
    ['max_pending_requests', 'pending'],
    ['max_requests', 'req'],
    ['max_retries', 'retries'],
  ] as const) {
    const v = num(t[k]);
    if (v === undefined) continue;
    if (v !== UNLIMITED) limited = true;
    parts.push(`${label} ${v === UNLIMITED ? '∞' : v}`);
  }
  return parts.length && !limited ? 'unlimited' : parts.join(' · ');
}

/** outlier_detection in brief: `5xx×5 · every 10s · eject 30s · max 10%`. */
export function outlierDetection(cluster: unknown): string {
  const o = obj(obj(cluster).outlier_detection);
  if (Object.keys(o).length === 0) return '';
  const parts: string[] = [];
  const c5 = num(o.consecutive_5xx);
  if (c5 !== undefined) parts.push(`5xx×${c5}`);
  const gw = num(o.consecutive_gateway_failure);
  if (gw !== undefined) parts.push(`gw×${gw}`);
  const lo = num(o.consecutive_local_origin_failure);
  if (lo !== undefined) parts.push(`local×${lo}`);
  const interval = str(o.interval);
  if (interval) parts.push(`every ${interval}`);
  const base = str(o.base_ejection_time);
  if (base) parts.push(`eject ${base}`);
  const max = num(o.max_ejection_percent);
  if (max !== undefined) parts.push(`max ${max}%`);
  return parts.length ? parts.join(' · ') : 'on';
}

export function clusterRows(clusters: readonly unknown[]): ClusterTableRow[] {
  return clusters.map((raw) => {
    const c = obj(raw);
    const name = str(c.name) ?? '';
    const parsed = parseClusterName(name);
    const source = istioSource(c);
    const dr = source ? parseConfigPath(source) : undefined;
    const row: ClusterTableRow = {
      key: name,
      name,
      fqdn: parsed?.hostname ?? name,
      subset: parsed?.subset ?? '',
      direction: parsed?.direction ?? '',
      // Envoy's defaults: type STATIC, lb_policy ROUND_ROBIN (cluster.proto).
      type: str(c.type) ?? str(obj(c.cluster_type).name) ?? 'STATIC',
      lb: str(c.lb_policy) ?? 'ROUND_ROBIN',
      destinationRule: dr && dr.kind === 'DestinationRule' ? `${dr.namespace}/${dr.name}` : '',
      circuitBreakers: circuitBreakers(c),
      outlierDetection: outlierDetection(c),
      raw,
    };
    if (parsed?.port) row.port = parsed.port;
    if (source !== undefined) row.source = source;
    return row;
  });
}

export function endpointRows(loadAssignments: readonly unknown[]): EndpointTableRow[] {
  const out: EndpointTableRow[] = [];
  for (const cla of loadAssignments) {
    const s = summarizeLoadAssignment(cla);
    s.endpoints.forEach((e, i) => {
      const row: EndpointTableRow = {
        key: `${s.cluster}|${e.address}|${i}`,
        cluster: s.cluster,
        address: e.address,
        locality: e.locality,
        health: e.health,
        priority: e.priority,
      };
      if (e.weight !== undefined) row.weight = e.weight;
      out.push(row);
    });
  }
  return out;
}

/** Route configs inlined in listeners' HTTP connection managers (waypoints, bootstrap listeners), named
 *  `LISTENER/(inline) NAME` so they sit beside the RDS ones. */
export function inlineRouteConfigs(listeners: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const lRaw of listeners) {
    const l = obj(lRaw);
    const lname = str(l.name) ?? formatAddressOf(l);
    for (const chain of [...arr(l.filter_chains), ...(l.default_filter_chain ? [l.default_filter_chain] : [])])
      for (const f of arr(obj(chain).filters)) {
        const rc = obj(obj(obj(f).typed_config).route_config);
        if (Object.keys(rc).length === 0) continue;
        out.push({ ...rc, name: `${lname}/(inline) ${str(rc.name) ?? ''}`.trimEnd() });
      }
  }
  return out;
}

function formatAddressOf(l: Record<string, unknown>): string {
  const sa = obj(obj(l.address).socket_address);
  return sa.address !== undefined ? `${String(sa.address)}:${String(sa.port_value ?? '')}` : '(unnamed)';
}

export function rowsFromDump(dump: unknown): DumpRows {
  const { config, errors } = readConfigDump(dump);
  return {
    listeners: listenerRows(config.listeners),
    routes: routeRows([...config.routes, ...inlineRouteConfigs(config.listeners)]),
    clusters: clusterRows(config.clusters),
    endpoints: endpointRows(config.endpoints),
    errors,
  };
}
