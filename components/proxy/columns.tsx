// Column and filter definitions of the four proxy tables (listeners, routes, clusters, endpoints).
// Filters mirror `istioctl proxy-config`'s flags: --fqdn, --port, --subset, --direction, --address, --name.
import type { FilterSpec } from '@/components/tables/tableModel';
import type { TableColumn } from '@/components/tables/VirtualTable';
import type { ClusterTableRow, EndpointTableRow, ListenerTableRow, RouteTableRow } from '@/server/envoy/dumpModel/rows';

export const listenerColumns: TableColumn<ListenerTableRow>[] = [
  {
    key: 'listener',
    header: 'name',
    min: 180,
    grow: 2,
    value: (r) => r.listener,
    render: (r) => <span className="mono">{r.listener}</span>,
  },
  {
    key: 'address',
    header: 'address',
    min: 130,
    grow: 1,
    value: (r) => r.address,
    render: (r) => <span className="mono">{r.address}</span>,
  },
  { key: 'chain', header: 'filter chain', min: 140, grow: 1, value: (r) => r.chain },
  { key: 'match', header: 'chain match', min: 160, grow: 2, value: (r) => r.match, render: (r) => <span className="mono">{r.match}</span> },
  { key: 'filters', header: 'filters', min: 160, grow: 2, value: (r) => r.filters },
  {
    key: 'target',
    header: '→ routes / cluster',
    min: 160,
    grow: 2,
    value: (r) => r.target,
    render: (r) => <span className="mono">{r.target}</span>,
  },
];

export const listenerFilters: FilterSpec<ListenerTableRow>[] = [
  { key: 'name', label: 'name', value: (r) => r.listener, mode: 'contains' },
  { key: 'address', label: 'address', value: (r) => r.address, mode: 'contains' },
  { key: 'port', label: 'port', value: (r) => r.address.slice(r.address.lastIndexOf(':') + 1), mode: 'exact' },
];

function Split({ row }: { row: RouteTableRow }) {
  if (row.clusters.length === 0) return <span className="muted">{row.action === 'route' ? '' : row.action}</span>;
  return (
    <>
      {row.clusters.map((c) => (
        <span key={c.name} className="mono split" data-testid="split">
          {c.name}
          {row.clusters.length > 1 ? <span className="weight"> {c.percent}%</span> : null}
        </span>
      ))}
    </>
  );
}

const splitText = (r: RouteTableRow) => r.clusters.map((c) => (r.clusters.length > 1 ? `${c.name} ${c.percent}%` : c.name)).join(', ');

export const routeColumns: TableColumn<RouteTableRow>[] = [
  {
    key: 'routeConfig',
    header: 'route config',
    min: 80,
    grow: 0.3,
    value: (r) => r.routeConfig,
    render: (r) => <span className="mono">{r.routeConfig}</span>,
  },
  {
    key: 'vhost',
    header: 'virtual host',
    min: 240,
    grow: 2,
    value: (r) => r.vhost,
    render: (r) => <span className="mono">{r.vhost}</span>,
    title: (r) => `${r.vhost}\ndomains: ${r.domains}`,
  },
  { key: 'index', header: '#', min: 44, grow: 0, numeric: true, value: (r) => r.index },
  { key: 'match', header: 'match', min: 180, grow: 2, value: (r) => r.match, render: (r) => <span className="mono match">{r.match}</span> },
  { key: 'clusters', header: 'to (weight %)', min: 260, grow: 3, value: splitText, render: (r) => <Split row={r} /> },
  {
    key: 'source',
    header: 'source',
    min: 150,
    grow: 1,
    value: (r) => r.sourceLabel ?? '',
    render: (r) => (r.sourceLabel ? <span className="src">{r.sourceLabel}</span> : <span className="muted">—</span>),
  },
  { key: 'details', header: 'details', min: 110, grow: 0.6, value: (r) => r.details },
];

export const routeFilters: FilterSpec<RouteTableRow>[] = [
  { key: 'name', label: 'route config', value: (r) => r.routeConfig, mode: 'exact' },
  { key: 'vhost', label: 'vhost', value: (r) => r.vhost, mode: 'contains' },
  { key: 'domain', label: 'domain', value: (r) => r.domains, mode: 'contains' },
];

export const clusterColumns: TableColumn<ClusterTableRow>[] = [
  {
    key: 'fqdn',
    header: 'service fqdn',
    min: 220,
    grow: 3,
    value: (r) => r.fqdn,
    render: (r) => <span className="mono">{r.fqdn}</span>,
    title: (r) => r.name,
  },
  { key: 'port', header: 'port', min: 60, grow: 0, numeric: true, value: (r) => r.port },
  { key: 'subset', header: 'subset', min: 70, grow: 0.5, value: (r) => r.subset },
  { key: 'direction', header: 'direction', min: 80, grow: 0.5, value: (r) => r.direction },
  { key: 'type', header: 'type', min: 90, grow: 0.6, value: (r) => r.type },
  { key: 'destinationRule', header: 'destination rule', min: 130, grow: 1, value: (r) => r.destinationRule },
  { key: 'lb', header: 'lb', min: 100, grow: 0.6, value: (r) => r.lb },
  { key: 'circuitBreakers', header: 'circuit breakers', min: 150, grow: 1, value: (r) => r.circuitBreakers },
  { key: 'outlierDetection', header: 'outlier detection', min: 150, grow: 1, value: (r) => r.outlierDetection },
];

export const clusterFilters: FilterSpec<ClusterTableRow>[] = [
  { key: 'fqdn', label: 'fqdn', value: (r) => r.fqdn, mode: 'contains' },
  { key: 'port', label: 'port', value: (r) => r.port, mode: 'exact' },
  { key: 'subset', label: 'subset', value: (r) => r.subset, mode: 'exact' },
  { key: 'direction', label: 'direction', value: (r) => r.direction, mode: 'exact' },
];

export const endpointColumns: TableColumn<EndpointTableRow>[] = [
  {
    key: 'address',
    header: 'endpoint',
    min: 150,
    grow: 1,
    value: (r) => r.address,
    render: (r) => <span className="mono">{r.address}</span>,
  },
  {
    key: 'health',
    header: 'status',
    min: 90,
    grow: 0,
    value: (r) => r.health,
    render: (r) => <span className={`health-${r.health.toLowerCase()}`}>{r.health}</span>,
  },
  {
    key: 'cluster',
    header: 'cluster',
    min: 260,
    grow: 3,
    value: (r) => r.cluster,
    render: (r) => <span className="mono">{r.cluster}</span>,
  },
  { key: 'locality', header: 'locality', min: 120, grow: 1, value: (r) => r.locality },
  { key: 'weight', header: 'weight', min: 70, grow: 0, numeric: true, value: (r) => r.weight },
  { key: 'priority', header: 'priority', min: 70, grow: 0, numeric: true, value: (r) => r.priority },
];

export const endpointFilters: FilterSpec<EndpointTableRow>[] = [
  { key: 'address', label: 'address', value: (r) => r.address, mode: 'contains' },
  { key: 'cluster', label: 'cluster', value: (r) => r.cluster, mode: 'contains' },
  { key: 'port', label: 'port', value: (r) => r.address.slice(r.address.lastIndexOf(':') + 1), mode: 'exact' },
];
