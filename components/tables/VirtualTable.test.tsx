// Server-rendered VirtualTable: only the first window of a 10,000-row table is in the markup.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { VirtualTable, type TableColumn } from './VirtualTable';

interface Row {
  key: string;
  n: number;
}
const columns: TableColumn<Row>[] = [
  { key: 'key', header: 'name', min: 100, value: (r) => r.key },
  { key: 'n', header: 'n', min: 40, grow: 0, numeric: true, value: (r) => r.n },
];
const many: Row[] = Array.from({ length: 10_000 }, (_, i) => ({ key: `cluster-${i}`, n: i }));

describe('VirtualTable', () => {
  it('renders a bounded window of a 10,000-row table, with grid roles and the row count', () => {
    const html = renderToStaticMarkup(
      <VirtualTable
        testId="t"
        label="Clusters"
        rows={many}
        columns={columns}
        rowKey={(r) => r.key}
        query={{ search: '', filters: {} }}
        empty="none"
      />,
    );
    const rendered = html.match(/data-testid="vt-row"/g)?.length ?? 0;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(60);
    expect(html).toContain('role="grid"');
    expect(html).toContain('aria-rowcount="10001"');
    expect(html).toContain('10000 rows');
    expect(html).toContain('data-key="cluster-0"');
    expect(html).not.toContain('data-key="cluster-9999"');
  });

  it('applies the initial query: search narrows, sort orders, count says "N of M"', () => {
    const html = renderToStaticMarkup(
      <VirtualTable
        testId="t"
        label="Clusters"
        rows={many}
        columns={columns}
        rowKey={(r) => r.key}
        query={{ search: 'cluster-999', filters: {}, sort: { key: 'n', dir: 'desc' } }}
        empty="none"
      />,
    );
    // cluster-999 and cluster-9990..9999 match
    expect(html).toContain('11 of 10000 rows');
    expect(html.indexOf('data-key="cluster-9999"')).toBeLessThan(html.indexOf('data-key="cluster-999"'));
    expect(html).toContain('aria-sort="descending"');
  });

  it('empty states say what to do', () => {
    const none = renderToStaticMarkup(
      <VirtualTable
        testId="t"
        label="x"
        rows={[]}
        columns={columns}
        rowKey={(r) => r.key}
        query={{ search: '', filters: {} }}
        empty="No clusters yet."
      />,
    );
    expect(none).toContain('No clusters yet.');
    const filtered = renderToStaticMarkup(
      <VirtualTable
        testId="t"
        label="x"
        rows={many.slice(0, 3)}
        columns={columns}
        rowKey={(r) => r.key}
        query={{ search: 'zzz', filters: {} }}
        empty="none"
      />,
    );
    expect(filtered).toContain('No rows match the search and filters. Clear them to see all 3.');
  });

  it('marks the selected and highlighted rows', () => {
    const html = renderToStaticMarkup(
      <VirtualTable
        testId="t"
        label="x"
        rows={many.slice(0, 5)}
        columns={columns}
        rowKey={(r) => r.key}
        query={{ search: '', filters: {} }}
        selectedKey="cluster-2"
        highlighted={new Set(['cluster-3'])}
        empty="none"
      />,
    );
    expect(html).toMatch(/class="vt-row selected"[^>]*aria-selected="true"|aria-selected="true"[^>]*class="vt-row selected"/);
    expect(html).toMatch(/class="vt-row odd vt-changed"/);
  });
});
