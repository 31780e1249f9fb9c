// Bad input never throws out of the gateway translator (DESIGN.md §6): specs that slipped past validation
// (built directly, bypassing the schema layer) yield located errors and the rest still translates.
import { describe, expect, it } from 'vitest';
import type { GatewaySpec, VirtualServiceSpec } from '../../../model/istio';
import { DEFAULT_OPTIONS } from '../../../model/mesh';
import { buildSnapshot, istio, pod, port, service } from '../../testing/meshBuilder';
import { translateProxy } from '../../index';

describe('gateway translation with malformed specs', () => {
  it('skips servers without a usable port (located error), ignores non-string hosts, keeps the good server', () => {
    const router = pod('gw-0', 'istio-system', '10.0.0.2', { proxy: 'router', labels: { istio: 'ingressgateway' } });
    const web = service('web', 'shop', { ports: [port(80, 'http')] });
    const spec = {
      selector: { istio: 'ingressgateway' },
      servers: [null, { port: { number: 'x' }, hosts: ['*'] }, { port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: [42, '*'] }],
    } as unknown as GatewaySpec;
    const vsSpec = {
      hosts: ['*'],
      gateways: ['shop/gw'],
      http: [{ route: [{ destination: { host: 'web.shop.svc.cluster.local' } }] }],
    } as unknown as VirtualServiceSpec;
    const snap = buildSnapshot({
      services: [web],
      pods: [router],
      configs: [istio('Gateway', 'gw', 'shop', spec), istio('VirtualService', 'v', 'shop', vsSpec)],
    });
    const proxy = snap.proxies[0];
    expect(proxy?.type).toBe('router');
    if (!proxy) return;
    const t = translateProxy(snap, proxy, DEFAULT_OPTIONS);
    expect(t.errors).toContainEqual(expect.objectContaining({ object: 'Gateway shop/gw', path: 'spec.servers[0].port' }));
    expect(t.errors).toContainEqual(expect.objectContaining({ object: 'Gateway shop/gw', path: 'spec.servers[1].port' }));
    // no ServiceTarget maps port 80 for this pod: listened on as-is
    expect(t.listeners.map((l) => l.name)).toEqual(['0.0.0.0_80']);
    expect(t.routes[0]?.virtualHosts?.[0]?.routes?.[0]?.route?.cluster).toBe('outbound|80||web.shop.svc.cluster.local');
  });
});
