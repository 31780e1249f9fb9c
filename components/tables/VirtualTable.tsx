'use client';
// A virtualised, sortable, searchable, keyboard-friendly table: only the rows in view (plus overscan)
// are in the DOM, so 10,000 rows scroll and filter without jank. Fixed row height; one-line cells with
// the full text in a tooltip. Logic lives in ./tableModel (pure, tested); this is the thin renderer.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  applyView,
  formatSort,
  gridTemplate,
  minWidth,
  nextActive,
  nextSort,
  scrollToReveal,
  visibleWindow,
  type Column,
  type FilterSpec,
  type ViewQuery,
} from './tableModel';
import './virtualTable.css';

export interface TableColumn<R> extends Column<R> {
  render?: (row: R) => ReactNode;
  /** Tooltip; defaults to the value. */
  title?: (row: R) => string | undefined;
}

export interface VirtualTableProps<R> {
  testId: string;
  /** Accessible name of the grid. */
  label: string;
  rows: readonly R[];
  columns: readonly TableColumn<R>[];
  rowKey: (row: R) => string;
  filters?: readonly FilterSpec<R>[];
  query: ViewQuery;
  onQueryChange?: (q: ViewQuery) => void;
  selectedKey?: string | undefined;
  onSelect?: (row: R) => void;
  /** Keys of rows to flash (e.g. changed by the last live update). */
  highlighted?: ReadonlySet<string>;
  rowHeight?: number;
  /** Max viewport height in px (the table shrinks to its rows when they are fewer). */
  maxHeight?: number;
  empty: ReactNode;
}

const SEARCH_DEBOUNCE_MS = 120;

export function VirtualTable<R>(props: VirtualTableProps<R>) {
  const { rows, columns, rowKey, filters = [], query, onQueryChange, selectedKey, onSelect, highlighted } = props;
  const rowHeight = props.rowHeight ?? 30;
  const maxHeight = props.maxHeight ?? 560;
  const [search, setSearch] = useState(query.search);
  const [filterValues, setFilterValues] = useState<Record<string, string>>({ ...query.filters });
  const [sort, setSort] = useState(query.sort);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(maxHeight);
  const [active, setActive] = useState(-1);
  const scroller = useRef<HTMLDivElement>(null);
  const frame = useRef(0);

  // Debounced: the view (and the URL) follow the inputs once typing pauses.
  const [applied, setApplied] = useState<ViewQuery>({
    search: query.search,
    filters: { ...query.filters },
    ...(query.sort ? { sort: query.sort } : {}),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: onQueryChange is a callback prop; re-running on its identity would loop
  useEffect(() => {
    const next: ViewQuery = { search, filters: filterValues, ...(sort ? { sort } : {}) };
    const t = setTimeout(() => {
      setApplied(next);
      onQueryChange?.(next);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search, filterValues, sort]);

  const view = useMemo(() => applyView(rows, columns, filters, applied), [rows, columns, filters, applied]);
  const headerHeight = rowHeight;
  const bodyHeight = Math.min(maxHeight, view.length * rowHeight);
  const win = visibleWindow(view.length, rowHeight, scrollTop, viewport, 10);

  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setViewport(Math.max(0, el.clientHeight - headerHeight)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [headerHeight]);

  const reveal = useCallback(
    (index: number) => {
      const el = scroller.current;
      if (!el) return;
      const to = scrollToReveal(index, rowHeight, el.scrollTop, Math.max(rowHeight, el.clientHeight - headerHeight));
      if (to !== undefined) {
        el.scrollTop = to;
        setScrollTop(to);
      }
    },
    [rowHeight, headerHeight],
  );

  // Deep link: bring the selected row into view when it (or the view) changes.
  const selectedIndex = selectedKey === undefined ? -1 : view.findIndex((r) => rowKey(r) === selectedKey);
  useEffect(() => {
    if (selectedIndex >= 0) {
      setActive(selectedIndex);
      reveal(selectedIndex);
    }
  }, [selectedIndex, reveal]);

  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setScrollTop(scroller.current?.scrollTop ?? 0));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      const row = view[active];
      if (row && onSelect) {
        e.preventDefault();
        onSelect(row);
      }
      return;
    }
    const next = nextActive(e.key, active < 0 ? -1 : active, view.length, Math.floor(viewport / rowHeight) - 1);
    if (next === undefined) return;
    e.preventDefault();
    setActive(next);
    reveal(next);
  };

  const template = gridTemplate(columns);
  const width = `max(100%, ${minWidth(columns)}px)`;
  const idBase = `vt-${props.testId}`;

  return (
    <div className="vt" data-testid={props.testId}>
      <div className="vt-tools">
        <input
          type="search"
          className="vt-search"
          placeholder="Search all columns…"
          aria-label={`Search ${props.label}`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {filters.map((f) => (
          <label key={f.key} className="vt-filter">
            <span>{f.label}</span>
            <input
              type="text"
              data-filter={f.key}
              value={filterValues[f.key] ?? ''}
              onChange={(e) => setFilterValues((v) => ({ ...v, [f.key]: e.target.value }))}
              size={f.key === 'port' || f.key === 'subset' || f.key === 'direction' ? 8 : 22}
            />
          </label>
        ))}
        <span className="vt-count muted" data-testid={`${props.testId}-count`} aria-live="polite">
          {view.length === rows.length ? `${rows.length} rows` : `${view.length} of ${rows.length} rows`}
        </span>
      </div>
      {rows.length === 0 ? (
        <div className="vt-empty muted">{props.empty}</div>
      ) : (
        <div
          ref={scroller}
          className="vt-scroll"
          role="grid"
          aria-label={props.label}
          aria-rowcount={view.length + 1}
          aria-activedescendant={active >= 0 && active >= win.start && active < win.end ? `${idBase}-${active}` : undefined}
          tabIndex={0}
          onScroll={onScroll}
          onKeyDown={onKeyDown}
          style={{ height: headerHeight + Math.max(bodyHeight, rowHeight) + 2 }}
          data-rows={view.length}
          data-window={`${win.start}-${win.end}`}
          data-sort={formatSort(applied.sort)}
        >
          <div className="vt-head" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template, width, height: headerHeight }}>
            {columns.map((c) => {
              const dir = applied.sort?.key === c.key ? applied.sort.dir : undefined;
              return (
                <div
                  key={c.key}
                  role="columnheader"
                  className={c.numeric ? 'vt-cell num' : 'vt-cell'}
                  aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
                >
                  {c.unsortable ? (
                    c.header
                  ) : (
                    <button type="button" className="vt-sort" data-sort-key={c.key} onClick={() => setSort((s) => nextSort(s, c.key))}>
                      {c.header}
                      <span className="vt-arrow" aria-hidden>
                        {dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}
                      </span>
                    </button>
                  )}
                </div>
              );
            })}
          </div>
          {view.length === 0 ? (
            <div className="vt-empty muted" style={{ width }}>
              No rows match the search and filters. Clear them to see all {rows.length}.
            </div>
          ) : (
            <div className="vt-body" style={{ height: win.totalHeight, width }}>
              {view.slice(win.start, win.end).map((row, i) => {
                const index = win.start + i;
                const key = rowKey(row);
                const cls = [
                  'vt-row',
                  index % 2 ? 'odd' : '',
                  index === active ? 'active' : '',
                  key === selectedKey ? 'selected' : '',
                  highlighted?.has(key) ? 'vt-changed' : '',
                ]
                  .filter(Boolean)
                  .join(' ');
                return (
                  <div
                    key={key}
                    id={`${idBase}-${index}`}
                    role="row"
                    aria-rowindex={index + 2}
                    aria-selected={key === selectedKey}
                    className={cls}
                    data-testid="vt-row"
                    data-key={key}
                    style={{ gridTemplateColumns: template, top: index * rowHeight, height: rowHeight }}
                    onClick={() => {
                      setActive(index);
                      onSelect?.(row);
                    }}
                  >
                    {columns.map((c) => {
                      const v = c.value(row);
                      return (
                        <div
                          key={c.key}
                          role="gridcell"
                          className={c.numeric ? 'vt-cell num' : 'vt-cell'}
                          title={c.title ? c.title(row) : v === undefined ? undefined : String(v)}
                        >
                          {c.render ? c.render(row) : v}
                        </div>
                      );
                    })}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
