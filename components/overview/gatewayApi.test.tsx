// The overview's Gateway API panel pieces, rendered on the server: status badges (Conflicted is negative when
// True), a Gateway with no proxy deployed, a Gateway with its proxy and the trace link, a route's rules.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { GatewayStatusModel, RouteStatusModel } from '@/server/api/contract';
import { ConditionBadge, GatewayRow, gatewayTraceHref, RouteRow } from './GatewayApiPanel';

const origin = { source: 'file' as const };
const cond = (type: string, status: 'True' | 'False', reason: string, message = 'm') => ({ type, status, reason, message });
const gateway = (proxies: string[]): GatewayStatusModel => ({
  namespace: 'default',
  name: 'web',
  className: 'istio',
  conditions: [cond('Accepted', 'True', 'Accepted'), cond('Programmed', 'False', 'AddressNotAssigned', 'hostname not found')],
  listeners: [
    {
      name: 'http',
      port: 80,
      protocol: 'HTTP',
      attachedRoutes: 2,
      supportedKinds: [],
      conditions: [cond('Conflicted', 'False', 'NoConflicts')],
    },
  ],
  proxy: { deploymentName: 'web-istio', serviceHosts: ['web-istio.default.svc.cluster.local'], proxies, managed: true },
  generated: [],
  origin,
});

describe('GatewayApiPanel pieces', () => {
  it('a condition badge: plain when it holds, with its reason when not; Conflicted=False is good', () => {
    expect(renderToStaticMarkup(<ConditionBadge c={cond('Accepted', 'True', 'Accepted')} />)).toMatch(/class="badge"[^>]*>Accepted</);
    expect(renderToStaticMarkup(<ConditionBadge c={cond('ResolvedRefs', 'False', 'BackendNotFound')} />)).toContain(
      'ResolvedRefs: not BackendNotFound',
    );
    expect(renderToStaticMarkup(<ConditionBadge c={cond('Conflicted', 'False', 'NoConflicts')} />)).toMatch(
      /class="badge"[^>]*>Conflicted</,
    );
    expect(renderToStaticMarkup(<ConditionBadge c={cond('Conflicted', 'True', 'HostnameConflict')} />)).toContain('badge warn');
  });

  it('a Gateway without pods says "no proxy deployed" and offers no trace', () => {
    const html = renderToStaticMarkup(<GatewayRow g={gateway([])} />);
    expect(html).toContain('no proxy deployed');
    expect(html).not.toContain('gwapi-trace');
    expect(html).toContain('<td class="num">2</td>');
  });

  it('a Gateway with its proxy links to a gateway trace on the first listener port', () => {
    const html = renderToStaticMarkup(<GatewayRow g={gateway(['web-istio-1.default'])} />);
    expect(html).toContain(`href="${gatewayTraceHref('web-istio-1.default', 80).replaceAll('&', '&amp;')}"`);
    expect(gatewayTraceHref('web-istio-1.default', 80, '/a')).toBe('/proxies/web-istio-1.default?tab=trace&mode=gateway&port=80&path=%2Fa');
  });

  it('a route lists its rules with matches and weighted backends, and each parent with its failing conditions', () => {
    const r: RouteStatusModel = {
      kind: 'HTTPRoute',
      namespace: 'default',
      name: 'reviews',
      hostnames: [],
      parents: [
        {
          parentRef: { group: '', kind: 'Service', name: 'reviews', port: 9080 },
          conditions: [cond('Accepted', 'True', 'Accepted'), cond('ResolvedRefs', 'False', 'BackendNotFound', 'backend(x) not found')],
        },
      ],
      rules: [
        {
          name: 'default.reviews.0',
          matches: ['path prefix /'],
          backends: [
            { name: 'reviews-v1', namespace: 'default', port: 9080, weight: 90 },
            { name: 'reviews-v2', namespace: 'other', port: 9080, weight: 10 },
          ],
        },
      ],
      generated: ['default/default~9080~reviews.default.svc.cluster.local'],
      origin,
    };
    const html = renderToStaticMarkup(<RouteRow r={r} />);
    expect(html).toContain('Service default/reviews port 9080');
    expect(html).toContain('backend(x) not found');
    expect(html).toContain('default.reviews.0');
    expect(html).toMatch(/reviews-v1:9080<span class="weight"> w90/);
    expect(html).toMatch(/other\/reviews-v2:9080<span class="weight"> w10/);
  });
});
