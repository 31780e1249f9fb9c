// The proxy page no longer embeds the proxy detail (a 10,000-cluster sidecar's dump is tens of MB): the
// view renders from the id alone until the browser has fetched GET /api/proxies/ID.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ProxyView } from './ProxyView';

describe('ProxyView without an initial detail', () => {
  it('shows the proxy id and a loading state, and no tables yet', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <ProxyView id="web-1.shop" />
      </QueryClientProvider>,
    );
    expect(html).toContain('data-testid="proxy-id">web-1.shop</h1>');
    expect(html).toContain('data-testid="proxy-loading"');
    expect(html).not.toContain('clusters-table');
  });
});
