// The one problems table, rendered on the server: input errors (located columns) and analyzer findings
// (Istio's level and code) are rows of the same component.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Problem } from '@/server/model/problem';
import { FINDING_COLUMNS, ProblemsTable } from './ProblemsTable';

const loadError: Problem = {
  severity: 'error',
  message: 'weight must be in 0..100',
  file: 'mesh/vs.yaml',
  doc: 2,
  line: 14,
  object: 'VirtualService shop/cart',
  path: 'spec.http[0].route[0].weight',
};
const finding: Problem = {
  severity: 'info',
  code: 'IST0131',
  message: 'match not used',
  object: 'VirtualService shop/cart',
  path: 'spec.http[1]',
};

describe('ProblemsTable', () => {
  it('lists where each problem is: file, document, object, field path', () => {
    const html = renderToStaticMarkup(<ProblemsTable problems={[loadError]} caption="Input errors" />);
    expect(html).toContain('data-testid="errors-table"');
    expect(html).toContain('<caption>Input errors (1)</caption>');
    for (const h of ['severity', 'file', 'doc', 'line', 'object', 'path', 'message']) expect(html).toContain(`<th>${h}</th>`);
    expect(html).toContain('<tr class="error"><td>error</td><td class="mono">mesh/vs.yaml</td><td>2</td><td>14</td>');
    expect(html).not.toContain('data-code');
  });

  it('shows findings with Istio level names and codes; non-errors styled as warnings', () => {
    const html = renderToStaticMarkup(
      <ProblemsTable problems={[finding]} caption="Analyzer findings" columns={FINDING_COLUMNS} testId="findings-table" />,
    );
    expect(html).toContain('data-testid="findings-table"');
    expect(html).toContain('<tr class="warning" data-code="IST0131"><td>Info</td><td class="mono">IST0131</td>');
    expect(html).not.toContain('<th>file</th>');
  });

  it('renders the empty content when there is nothing to list', () => {
    expect(renderToStaticMarkup(<ProblemsTable problems={[]} caption="x" />)).toBe('');
    expect(renderToStaticMarkup(<ProblemsTable problems={[]} caption="x" empty={<p>none</p>} />)).toBe('<p>none</p>');
  });

  it('marks a row whose object is served from its last good version as stale, with the time', () => {
    const stale: Problem = {
      severity: 'warning',
      message: 'stale: last good from 2026-11-23T23:00:00.000Z (the file has errors; its last good version of this object is served)',
      file: 'mesh/vs.yaml',
      doc: 0,
      object: 'VirtualService shop/cart',
      staleSince: '2026-11-23T23:00:00.000Z',
    };
    const html = renderToStaticMarkup(<ProblemsTable problems={[stale, loadError]} caption="Input errors" />);
    expect(html).toContain('<tr class="warning stale" data-stale-since="2026-11-23T23:00:00.000Z">');
    expect(html).toContain('stale: last good from 2026-11-23T23:00:00.000Z');
    expect(html).toContain('<tr class="error"><td>error</td>');
  });

  it('marks the note of an Istio object that is not translated (fails validation; analyzed only)', () => {
    const note: Problem = {
      severity: 'warning',
      notTranslated: true,
      message: 'not translated: fails Istio validation (1 error)',
      file: 'mesh/vs.yaml',
      doc: 2,
      object: 'VirtualService shop/cart',
    };
    const html = renderToStaticMarkup(<ProblemsTable problems={[note]} caption="Input errors" />);
    expect(html).toContain('<tr class="warning not-translated" data-not-translated="true">');
    expect(html).toContain('not translated: fails Istio validation (1 error)');
  });
});
