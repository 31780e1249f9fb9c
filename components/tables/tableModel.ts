// Pure table logic (no React): columns, search, per-column filters, sorting and the visible window of
// a virtualised list. Everything here is a function of its arguments, so it is tested without a DOM.

export interface Column<R> {
  key: string;
  header: string;
  /** Minimum width in px; the column grows with `grow` (fr units, default 1; 0 = fixed). */
  min: number;
  grow?: number;
  /** Value used to sort and search (and shown when there is no render). */
  value: (row: R) => string | number | undefined;
  numeric?: boolean;
  /** Excluded from sorting (e.g. an actions column). */
  unsortable?: boolean;
}

/** The shared CSS grid template of the header and every row (rows are sized identically). */
export const gridTemplate = (columns: readonly Pick<Column<unknown>, 'min' | 'grow'>[]): string =>
  columns.map((c) => ((c.grow ?? 1) > 0 ? `minmax(${c.min}px, ${c.grow ?? 1}fr)` : `${c.min}px`)).join(' ');

export const minWidth = (columns: readonly Pick<Column<unknown>, 'min'>[]): number => columns.reduce((n, c) => n + c.min, 0);

export type SortDir = 'asc' | 'desc';
export interface SortState {
  key: string;
  dir: SortDir;
}

/** `istioctl proxy-config`-style filter: a row passes when its value for `key` matches. */
export interface FilterSpec<R> {
  key: string;
  label: string;
  value: (row: R) => string | number | undefined;
  /** `exact` (istioctl's --port/--subset/--direction) or `contains` (names, FQDNs, addresses). */
  mode: 'exact' | 'contains';
}

const text = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** Case-insensitive search over every column; all whitespace-separated terms must match some cell. */
export function matchesSearch<R>(row: R, columns: readonly Column<R>[], query: string): boolean {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return true;
  const hay = columns.map((c) => text(c.value(row)).toLowerCase()).join('\u0000');
  return terms.every((t) => hay.includes(t));
}

export function matchesFilters<R>(row: R, filters: readonly FilterSpec<R>[], values: Readonly<Record<string, string>>): boolean {
  for (const f of filters) {
    const want = (values[f.key] ?? '').trim().toLowerCase();
    if (!want) continue;
    const have = text(f.value(row)).toLowerCase();
    if (f.mode === 'exact' ? have !== want : !have.includes(want)) return false;
  }
  return true;
}

/** Numbers before strings, numbers numerically, strings with natural order (`svc-2` < `svc-10`). */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
export function compareValues(a: string | number | undefined, b: string | number | undefined): number {
  if (a === b) return 0;
  if (a === undefined || a === '') return 1; // empty cells last, whatever the direction
  if (b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** Stable sort (ties keep their input order, e.g. Envoy's route order). */
export function sortRows<R>(rows: readonly R[], columns: readonly Column<R>[], sort: SortState | undefined): R[] {
  const col = sort ? columns.find((c) => c.key === sort.key && !c.unsortable) : undefined;
  if (!sort || !col) return [...rows];
  const keyed = rows.map((r, i) => ({ r, i, v: col.value(r) }));
  keyed.sort((x, y) => {
    const emptyX = x.v === undefined || x.v === '';
    const emptyY = y.v === undefined || y.v === '';
    if (emptyX !== emptyY) return emptyX ? 1 : -1;
    const c = compareValues(x.v, y.v);
    return c !== 0 ? (sort.dir === 'asc' ? c : -c) : x.i - y.i;
  });
  return keyed.map((k) => k.r);
}

export interface ViewQuery {
  search: string;
  filters: Readonly<Record<string, string>>;
  sort?: SortState;
}

export function applyView<R>(rows: readonly R[], columns: readonly Column<R>[], filters: readonly FilterSpec<R>[], q: ViewQuery): R[] {
  const kept = rows.filter((r) => matchesFilters(r, filters, q.filters) && matchesSearch(r, columns, q.search));
  return sortRows(kept, columns, q.sort);
}

/** Next sort on a header click: asc → desc → off. */
export function nextSort(current: SortState | undefined, key: string): SortState | undefined {
  if (!current || current.key !== key) return { key, dir: 'asc' };
  return current.dir === 'asc' ? { key, dir: 'desc' } : undefined;
}

export const formatSort = (s: SortState | undefined): string => (s ? `${s.key}:${s.dir}` : '');
export function parseSort(v: string | null | undefined): SortState | undefined {
  const m = /^([\w.-]+):(asc|desc)$/.exec(v ?? '');
  return m ? { key: m[1]!, dir: m[2] as SortDir } : undefined;
}

export interface RowWindow {
  /** First rendered row index (inclusive). */
  start: number;
  /** Last rendered row index (exclusive). */
  end: number;
  /** Pixels above the first rendered row. */
  offsetTop: number;
  totalHeight: number;
}

/** Rows to render for a scroll position: the visible ones plus `overscan` on each side. */
export function visibleWindow(count: number, rowHeight: number, scrollTop: number, viewportHeight: number, overscan = 8): RowWindow {
  const totalHeight = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, offsetTop: 0, totalHeight: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(count - 1, first) - overscan);
  const end = Math.min(count, first + visible + overscan);
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}

/** scrollTop that brings row `index` into a viewport, or undefined when it is already fully visible. */
export function scrollToReveal(index: number, rowHeight: number, scrollTop: number, viewportHeight: number): number | undefined {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return bottom - viewportHeight;
  return undefined;
}

/** Keyboard navigation in a grid of `count` rows: the next active index for a key, or undefined. */
export function nextActive(key: string, active: number, count: number, pageRows: number): number | undefined {
  if (count === 0) return undefined;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case 'ArrowDown':
      return clamp(active + 1);
    case 'ArrowUp':
      return clamp(active - 1);
    case 'PageDown':
      return clamp(active + Math.max(1, pageRows));
    case 'PageUp':
      return clamp(active - Math.max(1, pageRows));
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
