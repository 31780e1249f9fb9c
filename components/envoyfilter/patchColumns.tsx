// The "EnvoyFilter" column the listener, route and cluster tables gain when an EnvoyFilter patch changed some of
// their rows (issue #22 §2): the patches that changed the row's resource, each a link to its EnvoyFilters tab entry.
// Sortable and searchable by the patches' names; absent when no patch applied (the tables stay as they were).
import type { TableColumn } from '@/components/tables/VirtualTable';
import type { ClusterTableRow, ListenerTableRow, RouteTableRow } from '@/server/envoy/dumpModel/rows';
import { type PatchMarks, type PatchRef, vhostKey } from './patchMarks';
import { PatchLinks } from './PatchLink';

function column<R>(refsOf: (r: R) => PatchRef[] | undefined): TableColumn<R> {
  return {
    key: 'envoyFilter',
    header: 'EnvoyFilter',
    min: 150,
    grow: 1,
    value: (r) => (refsOf(r) ?? []).map((p) => p.label).join(', '),
    render: (r) => <PatchLinks refs={refsOf(r)} compact />,
  };
}

/** `columns` with the EnvoyFilter column when a patch marked some resource of this kind. */
export function withPatchColumn<R>(
  columns: TableColumn<R>[],
  marks: ReadonlyMap<string, PatchRef[]>,
  keyOf: (r: R) => string,
): TableColumn<R>[] {
  return marks.size === 0 ? columns : [...columns, column<R>((r) => marks.get(keyOf(r)))];
}

export const patchedListenerColumns = (cols: TableColumn<ListenerTableRow>[], m: PatchMarks): TableColumn<ListenerTableRow>[] =>
  withPatchColumn(cols, m.listeners, (r) => r.listener);

/** A route row is marked by patches on its virtual host (or its routes); a patch on the whole route configuration
 *  (ROUTE_CONFIGURATION) marks every row of it. */
export function patchedRouteColumns(cols: TableColumn<RouteTableRow>[], m: PatchMarks): TableColumn<RouteTableRow>[] {
  if (m.routes.size === 0) return cols;
  const refs = (r: RouteTableRow) => {
    const vh = m.vhosts.get(vhostKey(r.routeConfig, r.vhost)) ?? [];
    const whole = (m.routes.get(r.routeConfig) ?? []).filter((p) => p.where.some((w) => !w.includes(' / vhost ')));
    const all = [...whole, ...vh.filter((p) => !whole.some((w) => w.key === p.key))];
    return all.length ? all : undefined;
  };
  return [...cols, column<RouteTableRow>(refs)];
}

export const patchedClusterColumns = (cols: TableColumn<ClusterTableRow>[], m: PatchMarks): TableColumn<ClusterTableRow>[] =>
  withPatchColumn(cols, m.clusters, (r) => r.name);
