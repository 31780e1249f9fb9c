// The overview's findings panel, rendered on the server.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Finding } from '@/server/api/contract';
import { FindingsPanel, panelFindings } from './FindingsPanel';

const subset: Finding = {
  code: 'IST0101',
  level: 'Error',
  message: 'Referenced host+subset in destinationrule not found: "reviews+v3"',
  object: 'VirtualService default/reviews',
  path: 'spec.http[0].route[0].destination.subset',
};
const schema: Finding = { code: 'IST0106', level: 'Error', message: 'Schema validation error: x', object: 'VirtualService default/bad' };

describe('FindingsPanel', () => {
  it('lists code, object, YAML path and message; leaves schema findings to the input errors table', () => {
    expect(panelFindings([subset, schema])).toEqual([subset]);
    const html = renderToStaticMarkup(<FindingsPanel findings={[subset, schema]} />);
    expect(html).toContain('Analyzer findings (1)');
    expect(html).toContain('data-code="IST0101"');
    expect(html).toContain('spec.http[0].route[0].destination.subset');
    expect(html).toContain('VirtualService default/reviews');
    expect(html).not.toContain('IST0106');
  });

  it('says so when there is nothing to show', () => {
    expect(renderToStaticMarkup(<FindingsPanel findings={[schema]} />)).toContain('No analyzer findings.');
  });
});
