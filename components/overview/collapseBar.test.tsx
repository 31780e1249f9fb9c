// The collapse bar of a large overview graph, rendered on the server.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MeshNode } from '@/server/api/contract';
import { CollapseBar } from './CollapseBar';

const nodes: MeshNode[] = Array.from({ length: 4 }, (_, i) => ({
  id: `svc:ns-${i}/s`,
  kind: 'service',
  label: 's',
  namespace: `ns-${i}`,
  badges: [],
}));

describe('CollapseBar', () => {
  it('counts what is in view and collapsed, offers each collapsed namespace to expand, and expand all', () => {
    const html = renderToStaticMarkup(<CollapseBar graph={{ nodes }} collapsed={['ns-0', 'ns-2']} expand={['ns-1']} onExpand={() => {}} />);
    expect(html).toContain('<strong>4</strong> services and workloads in view');
    expect(html).toMatch(/data-testid="collapsed-count">2<\/strong> namespaces collapsed/);
    expect(html.match(/<option value="ns-\d">/g)).toEqual(['<option value="ns-0">', '<option value="ns-2">']);
    expect(html).toContain('data-testid="collapse-all"');
    expect(html).toContain('data-testid="expand-all"');
  });

  it('with expand=* nothing is collapsed: no namespace select, no expand all', () => {
    const html = renderToStaticMarkup(<CollapseBar graph={{ nodes }} collapsed={[]} expand={['*']} onExpand={() => {}} />);
    expect(html).toContain('Every namespace is expanded.');
    expect(html).not.toContain('expand-namespace');
    expect(html).not.toContain('data-testid="expand-all"');
    expect(html).toContain('data-testid="collapse-all"');
  });
});
