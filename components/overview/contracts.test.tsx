// The overview's routing-contracts line (serve --contracts FILE), rendered on the server.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContractsLine } from './ContractsLine';

describe('ContractsLine', () => {
  it('counts, and names each failing contract with why', () => {
    const html = renderToStaticMarkup(
      <ContractsLine
        summary={{ file: 'c.yaml', passed: 1, failed: 1, failures: [{ name: 'jason → v2', detail: 'got v1 100%' }], errors: [] }}
      />,
    );
    expect(html).toContain('Routing contracts (c.yaml): 1 passed, 1 failed');
    expect(html).toContain('<strong>jason → v2</strong>: got v1 100%');
  });
  it('all passing: no list', () => {
    const html = renderToStaticMarkup(<ContractsLine summary={{ file: 'c.yaml', passed: 2, failed: 0, failures: [], errors: [] }} />);
    expect(html).toContain('2 passed, 0 failed');
    expect(html).not.toContain('<li>');
  });
});
