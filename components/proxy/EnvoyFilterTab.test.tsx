// The EnvoyFilter tab rendered on the server from a report the stage produces (server/envoyfilter): applied patches
// list where they landed, the others say why not.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EnvoyFilterPatchReport } from '@/server/api/contract';
import { EnvoyFilterTab } from './EnvoyFilterTab';

const patches: EnvoyFilterPatchReport[] = [
  {
    namespace: 'default',
    name: 'reviews-lua',
    patch: 0,
    applyTo: 'HTTP_FILTER',
    operation: 'INSERT_BEFORE',
    context: 'SIDECAR_INBOUND',
    applied: true,
    targets: ['listener virtualInbound / chain 0.0.0.0_9080 / filters[1] envoy.filters.network.http_connection_manager / http_filters'],
  },
  {
    namespace: 'default',
    name: 'reviews-lua',
    patch: 1,
    applyTo: 'CLUSTER',
    operation: 'MERGE',
    context: 'SIDECAR_OUTBOUND',
    applied: false,
    targets: [],
    reason: 'no matching element',
  },
];

describe('EnvoyFilterTab', () => {
  it('one row per patch: where for applied ones, the reason for the rest', () => {
    const html = renderToStaticMarkup(<EnvoyFilterTab patches={patches} />);
    expect(html).toContain('1 of 2 patches changed this proxy&#x27;s config.');
    expect(html.match(/data-testid="envoyfilter-patch"/g)).toHaveLength(2);
    expect(html).toContain('listener virtualInbound / chain 0.0.0.0_9080');
    expect(html).toContain('no matching element');
  });
  it('says so when no EnvoyFilter concerns the proxy', () => {
    expect(renderToStaticMarkup(<EnvoyFilterTab patches={[]} />)).toContain('No EnvoyFilter');
  });
});
