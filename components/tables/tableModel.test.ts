import { describe, expect, it } from 'vitest';
import {
  applyView,
  compareValues,
  gridTemplate,
  matchesFilters,
  matchesSearch,
  minWidth,
  nextActive,
  nextSort,
  parseSort,
  formatSort,
  scrollToReveal,
  sortRows,
  visibleWindow,
  type Column,
  type FilterSpec,
} from './tableModel';

interface Row {
  name: string;
  port?: number;
  subset: string;
}
const cols: Column<Row>[] = [
  { key: 'name', header: 'name', min: 100, value: (r) => r.name },
  { key: 'port', header: 'port', min: 50, grow: 0, numeric: true, value: (r) => r.port },
  { key: 'subset', header: 'subset', min: 60, value: (r) => r.subset },
];
const rows: Row[] = [
  { name: 'outbound|9080|v1|reviews.default.svc.cluster.local', port: 9080, subset: 'v1' },
  { name: 'outbound|9080|v2|reviews.default.svc.cluster.local', port: 9080, subset: 'v2' },
  { name: 'outbound|15010||istiod.istio-system.svc.cluster.local', port: 15010, subset: '' },
  { name: 'BlackHoleCluster', subset: '' },
];

describe('search and filters', () => {
  it('search is case-insensitive and every term must match some column', () => {
    expect(rows.filter((r) => matchesSearch(r, cols, 'REVIEWS v2')).map((r) => r.subset)).toEqual(['v2']);
    expect(rows.filter((r) => matchesSearch(r, cols, '  ')).length).toBe(4);
    expect(rows.filter((r) => matchesSearch(r, cols, 'nomatch')).length).toBe(0);
  });

  it('istioctl-style filters: exact for port/subset, contains for fqdn; empty filter values are ignored', () => {
    const f: FilterSpec<Row>[] = [
      { key: 'port', label: 'port', value: (r) => r.port, mode: 'exact' },
      { key: 'fqdn', label: 'fqdn', value: (r) => r.name, mode: 'contains' },
    ];
    expect(rows.filter((r) => matchesFilters(r, f, { port: '9080' })).length).toBe(2);
    expect(rows.filter((r) => matchesFilters(r, f, { port: '908' })).length).toBe(0); // exact, not prefix
    expect(rows.filter((r) => matchesFilters(r, f, { fqdn: 'istiod', port: '' })).map((r) => r.port)).toEqual([15010]);
  });
});

describe('sorting', () => {
  it('numbers compare numerically, strings naturally, empty values last', () => {
    expect(compareValues(9, 10)).toBeLessThan(0);
    expect(compareValues('svc-2', 'svc-10')).toBeLessThan(0);
    expect(compareValues(undefined, 'a')).toBeGreaterThan(0);
  });

  it('sorts stably, empty cells last in both directions', () => {
    const asc = sortRows(rows, cols, { key: 'port', dir: 'asc' }).map((r) => r.port);
    expect(asc).toEqual([9080, 9080, 15010, undefined]);
    const desc = sortRows(rows, cols, { key: 'port', dir: 'desc' });
    expect(desc.map((r) => r.port)).toEqual([15010, 9080, 9080, undefined]);
    // ties keep input order (Envoy's route order matters)
    expect(desc.slice(1, 3).map((r) => r.subset)).toEqual(['v1', 'v2']);
    expect(sortRows(rows, cols, undefined)).toEqual(rows);
  });

  it('header clicks cycle asc → desc → off; sort state round-trips through the URL', () => {
    expect(nextSort(undefined, 'port')).toEqual({ key: 'port', dir: 'asc' });
    expect(nextSort({ key: 'port', dir: 'asc' }, 'port')).toEqual({ key: 'port', dir: 'desc' });
    expect(nextSort({ key: 'port', dir: 'desc' }, 'port')).toBeUndefined();
    expect(nextSort({ key: 'port', dir: 'desc' }, 'name')).toEqual({ key: 'name', dir: 'asc' });
    expect(parseSort(formatSort({ key: 'port', dir: 'desc' }))).toEqual({ key: 'port', dir: 'desc' });
    expect(parseSort('port:sideways')).toBeUndefined();
  });

  it('applyView filters then sorts', () => {
    const v = applyView(rows, cols, [], { search: 'reviews', filters: {}, sort: { key: 'subset', dir: 'desc' } });
    expect(v.map((r) => r.subset)).toEqual(['v2', 'v1']);
  });
});

describe('virtual window', () => {
  it('renders only the rows in view plus overscan', () => {
    // 10,000 rows of 30px, viewport 600px scrolled to row 5000.
    const w = visibleWindow(10_000, 30, 5000 * 30, 600, 10);
    expect(w.start).toBe(4990);
    expect(w.end).toBe(5000 + 21 + 10);
    expect(w.offsetTop).toBe(4990 * 30);
    expect(w.totalHeight).toBe(300_000);
    expect(w.end - w.start).toBeLessThan(60);
  });

  it('clamps at both ends and handles empty lists', () => {
    expect(visibleWindow(5, 30, 0, 600, 10)).toEqual({ start: 0, end: 5, offsetTop: 0, totalHeight: 150 });
    const end = visibleWindow(100, 30, 100_000, 300, 5);
    expect(end.end).toBe(100);
    expect(end.start).toBe(94);
    expect(visibleWindow(0, 30, 0, 600)).toEqual({ start: 0, end: 0, offsetTop: 0, totalHeight: 0 });
  });

  it('scrollToReveal scrolls just enough, and not at all when the row is visible', () => {
    expect(scrollToReveal(10, 30, 0, 300)).toBe(11 * 30 - 300);
    expect(scrollToReveal(2, 30, 120, 300)).toBe(60);
    expect(scrollToReveal(5, 30, 0, 300)).toBeUndefined();
  });

  it('keyboard: arrows, page keys, Home/End, clamped', () => {
    expect(nextActive('ArrowDown', -1, 10, 5)).toBe(0);
    expect(nextActive('ArrowDown', 9, 10, 5)).toBe(9);
    expect(nextActive('ArrowUp', 0, 10, 5)).toBe(0);
    expect(nextActive('PageDown', 2, 10, 5)).toBe(7);
    expect(nextActive('PageUp', 2, 10, 5)).toBe(0);
    expect(nextActive('End', 0, 10, 5)).toBe(9);
    expect(nextActive('Home', 7, 10, 5)).toBe(0);
    expect(nextActive('x', 1, 10, 5)).toBeUndefined();
    expect(nextActive('ArrowDown', 0, 0, 5)).toBeUndefined();
  });

  it('every row shares one grid template; min width is the sum of column minimums', () => {
    expect(gridTemplate(cols)).toBe('minmax(100px, 1fr) 50px minmax(60px, 1fr)');
    expect(minWidth(cols)).toBe(210);
  });
});
