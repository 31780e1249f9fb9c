// The proxy page's URL state: `?tab=routes&q=reviews&sort=vhost:asc&vhost=…&route=<row key>`.
// One tab's search / sort / filters live in the URL so every view is a deep link; switching tabs
// drops them. Pure: parse and format URLSearchParams. Which tabs exist and their URL keys: tabs.ts.
import { formatSort, parseSort, type ViewQuery } from '@/components/tables/tableModel';
import { TAB_DEFS, TABS, type Tab, type TabDef } from './tabs';

export { TABS, type Tab } from './tabs';

/** The row a deep link selects, per table tab. */
export const SELECT_PARAM: Partial<Record<Tab, string>> = Object.fromEntries(
  TAB_DEFS.filter((t: TabDef) => t.select).map((t: TabDef) => [t.id, t.select]),
);

export const FILTER_KEYS: Partial<Record<Tab, readonly string[]>> = Object.fromEntries(
  TAB_DEFS.filter((t: TabDef) => t.filterKeys).map((t: TabDef) => [t.id, t.filterKeys]),
);

export interface UrlState {
  tab: Tab;
  query: ViewQuery;
  selected?: string;
}

const isTab = (v: string | null): v is Tab => (TABS as readonly string[]).includes(v ?? '');

export function parseUrlState(p: URLSearchParams, fallback: Tab = 'listeners'): UrlState {
  const tab = isTab(p.get('tab')) ? (p.get('tab') as Tab) : fallback;
  const filters: Record<string, string> = {};
  for (const k of FILTER_KEYS[tab] ?? []) {
    const v = p.get(k);
    if (v) filters[k] = v;
  }
  const sort = parseSort(p.get('sort'));
  const sel = SELECT_PARAM[tab];
  const selected = sel ? p.get(sel) : null;
  return { tab, query: { search: p.get('q') ?? '', filters, ...(sort ? { sort } : {}) }, ...(selected ? { selected } : {}) };
}

export function formatUrlState(s: UrlState): string {
  const p = new URLSearchParams();
  p.set('tab', s.tab);
  if (s.query.search) p.set('q', s.query.search);
  for (const k of FILTER_KEYS[s.tab] ?? []) {
    const v = s.query.filters[k];
    if (v) p.set(k, v);
  }
  const sort = formatSort(s.query.sort);
  if (sort) p.set('sort', sort);
  const sel = SELECT_PARAM[s.tab];
  if (sel && s.selected) p.set(sel, s.selected);
  return p.toString();
}
