// The Security tab's mTLS rows rendered on the server: each port's mode with the PeerAuthentication that sets
// it, named with the scope Istio's precedence picked it at (port-level / workload / namespace / mesh, as
// policy_applier.go ComposePeerAuthentication composes them) or "mesh default"; each cluster's TLS as auto
// mTLS, the DestinationRule with its mode, or none; and the dump-only view when there is no mesh model.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProxySecurity } from '@/server/api/contract';
import { SecurityTab } from './SecurityTab';

const pa = (namespace: string, name: string, scope: 'mesh' | 'namespace' | 'workload', path = 'spec.mtls.mode') => ({
  kind: 'PeerAuthentication' as const,
  namespace,
  name,
  scope,
  path,
  config: `/apis/security.istio.io/v1/namespaces/${namespace}/peer-authentication/${name}`,
});

const security: ProxySecurity = {
  policies: [],
  notApplied: [],
  mtls: {
    inbound: [
      { port: 0, mode: 'STRICT', source: pa('shop', 'strict', 'namespace'), services: [] },
      {
        port: 8080,
        mode: 'DISABLE',
        source: pa('shop', 'api', 'workload', 'spec.portLevelMtls.8080.mode'),
        services: ['api.shop.svc.cluster.local:80'],
      },
      { port: 9080, mode: 'STRICT', source: pa('shop', 'api', 'workload'), services: [] },
      { port: 9090, mode: 'PERMISSIVE', source: pa('istio-system', 'default', 'mesh'), services: [] },
      { port: 9443, mode: 'PERMISSIVE', source: { kind: 'default' }, services: [] },
    ],
    clusters: [
      { cluster: 'outbound|80||api.shop.svc.cluster.local', kind: 'auto', mode: 'ISTIO_MUTUAL' },
      {
        cluster: 'outbound|80||db.data.svc.cluster.local',
        kind: 'DR',
        mode: 'SIMPLE',
        destinationRule: { config: '/apis/networking.istio.io/v1/namespaces/data/destination-rule/db', path: 'spec.trafficPolicy.tls' },
      },
      { cluster: 'outbound|80||legacy.data.svc.cluster.local', kind: 'none' },
    ],
  },
};

/** The text of each `<tr data-testid=NAME>`, cells joined with ` | `. */
function rows(html: string, testid: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(new RegExp(`<tr data-testid="${testid}"[^>]*>(.*?)</tr>`, 'g'))) {
    const cells = [...(m[1] as string).matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => (c[1] as string).replace(/<[^>]+>/g, '').trim());
    out.push(cells.filter((c) => c !== '').join(' | '));
  }
  return out;
}

describe('SecurityTab mTLS rows', () => {
  const html = renderToStaticMarkup(<SecurityTab security={security} dump={{ configs: [] }} />);

  it('says per port the mode and which PeerAuthentication (and at which scope) or the mesh default sets it', () => {
    expect(rows(html, 'security-port')).toEqual([
      'other ports (passthrough) | STRICT | from PeerAuthentication shop/strict (namespace)',
      '8080api.shop.svc.cluster.local:80 | DISABLE | from PeerAuthentication shop/api (port-level)',
      '9080 | STRICT | from PeerAuthentication shop/api (workload)',
      '9090 | PERMISSIVE | from PeerAuthentication istio-system/default (mesh)',
      '9443 | PERMISSIVE | mesh default',
    ]);
  });

  it('says per cluster auto mTLS, the DestinationRule with its TLS mode, or none', () => {
    expect(rows(html, 'security-cluster')).toEqual([
      'outbound|80||api.shop.svc.cluster.local | auto mTLS',
      'outbound|80||db.data.svc.cluster.local | DestinationRule data/db (SIMPLE)',
      'outbound|80||legacy.data.svc.cluster.local | none',
    ]);
    expect(html).toContain('3 clusters (1 auto mTLS, 1 DestinationRule, 1 none)');
  });

  it('without a mesh model (an uploaded dump) has no "set by" column', () => {
    const bare = renderToStaticMarkup(<SecurityTab security={undefined} dump={{ configs: [] }} />);
    expect(bare).not.toContain('set by');
    expect(bare).toContain('the PeerAuthentication is unknown');
  });
});
