// translateProxy: (snapshot, proxy, options) → Envoy resources. Pure: reads only its arguments.
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel, type TranslateOptions } from '../model/mesh';
import type { ResourceTable } from './types';

export type { ResourceTable } from './types';

const byName = <T extends { name?: string }>(a: T, b: T) => ((a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : 0);

export function translateProxy(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions = DEFAULT_OPTIONS,
): ResourceTable {
  // Wired at integration: buildProxyView → clusters / endpoints / routes / listeners.
  void snapshot;
  void proxy;
  void options;
  const table: ResourceTable = { listeners: [], routes: [], clusters: [], endpoints: [], errors: [] };
  table.listeners.sort(byName);
  table.routes.sort(byName);
  table.clusters.sort(byName);
  return table;
}
