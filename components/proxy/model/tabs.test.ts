// The tab table is the one source of the dump browser's tabs and URL keys: the filters each table offers
// (columns.tsx) must be exactly the ones the URL keeps, or a filter would silently not survive a reload.
import { describe, expect, it } from 'vitest';
import { clusterFilters, endpointFilters, listenerFilters, routeFilters } from '../columns';
import { TAB_DEFS, type TabDef } from './tabs';
import { FILTER_KEYS, formatUrlState, parseUrlState, SELECT_PARAM } from './urlState';

describe('dump browser tab table', () => {
  it('each table tab keeps exactly its filters in the URL', () => {
    const specs: Record<string, readonly { key: string }[]> = {
      listeners: listenerFilters,
      routes: routeFilters,
      clusters: clusterFilters,
      endpoints: endpointFilters,
    };
    const tables = TAB_DEFS.filter((t: TabDef) => t.rows);
    expect(tables.map((t) => t.id)).toEqual(Object.keys(specs));
    for (const t of tables) expect([...(t as TabDef).filterKeys!]).toEqual(specs[t.id]?.map((f) => f.key));
  });
  it('ids are unique and the URL state derives its keys from the table', () => {
    expect(new Set(TAB_DEFS.map((t) => t.id)).size).toBe(TAB_DEFS.length);
    expect(SELECT_PARAM).toEqual({
      listeners: 'listener',
      routes: 'route',
      clusters: 'cluster',
      endpoints: 'endpoint',
      envoyfilters: 'patch',
    });
    expect(FILTER_KEYS.routes).toEqual(['name', 'vhost', 'domain']);
    for (const t of TAB_DEFS)
      expect(parseUrlState(new URLSearchParams(formatUrlState({ tab: t.id, query: { search: '', filters: {} } }))).tab).toBe(t.id);
  });
});
