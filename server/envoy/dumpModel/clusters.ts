// Cluster and ClusterLoadAssignment → table rows.
import { parseClusterName } from '../../translate/names';
import { arr, formatAddress, istioSource, num, obj, str } from './json';

export interface ClusterRow {
  name: string;
  /** EDS, STATIC, STRICT_DNS, LOGICAL_DNS, ORIGINAL_DST, or a custom cluster_type name. */
  type: string;
  lb: string;
  direction?: string;
  port?: number;
  subset?: string;
  host?: string;
  connectTimeout?: string;
  source?: string;
}

export function summarizeCluster(cluster: unknown): ClusterRow {
  const c = obj(cluster);
  const name = str(c.name) ?? '';
  const custom = str(obj(c.cluster_type).name);
  // Envoy's defaults: type STATIC, lb_policy ROUND_ROBIN (cluster.proto).
  const row: ClusterRow = { name, type: str(c.type) ?? custom ?? 'STATIC', lb: str(c.lb_policy) ?? 'ROUND_ROBIN' };
  const parsed = parseClusterName(name);
  if (parsed) {
    row.direction = parsed.direction;
    row.port = parsed.port;
    row.subset = parsed.subset;
    row.host = parsed.hostname;
  }
  const ct = str(c.connect_timeout);
  if (ct !== undefined) row.connectTimeout = ct;
  const source = istioSource(c);
  if (source !== undefined) row.source = source;
  return row;
}

export interface EndpointRow {
  address: string;
  locality: string;
  /** Envoy's health_status; Envoy treats an absent one as UNKNOWN (routable). */
  health: string;
  weight?: number;
  priority: number;
}

export interface ClusterEndpointsRow {
  cluster: string;
  endpoints: EndpointRow[];
}

export function summarizeLoadAssignment(cla: unknown): ClusterEndpointsRow {
  const c = obj(cla);
  const endpoints: EndpointRow[] = [];
  for (const le of arr(c.endpoints)) {
    const l = obj(le);
    const loc = obj(l.locality);
    const locality = [str(loc.region), str(loc.zone), str(loc.sub_zone)].filter((x) => x).join('/');
    for (const lbe of arr(l.lb_endpoints)) {
      const e = obj(lbe);
      const row: EndpointRow = {
        address: formatAddress(obj(e.endpoint).address),
        locality,
        health: str(e.health_status) ?? 'UNKNOWN',
        priority: num(l.priority) ?? 0,
      };
      const w = num(e.load_balancing_weight);
      if (w !== undefined) row.weight = w;
      endpoints.push(row);
    }
  }
  return { cluster: str(c.cluster_name) ?? '', endpoints };
}
