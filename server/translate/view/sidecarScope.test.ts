// Sidecar egress hosts that import nothing (unmatchedEgressHosts): a located warning per such host, none for
// hosts that import a service or a mesh VirtualService, for `~/…` (imports nothing by design) or for a
// wildcard that covers something. Import rules: model/sidecar.go selectServices / selectVirtualServices.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../model/mesh';
import { buildSnapshot, istio, service } from '../testing/meshBuilder';
import { unmatchedEgressHosts } from './sidecarScope';

const snap = buildSnapshot({
  services: [service('web', 'shop'), service('db', 'data')],
  configs: [istio('VirtualService', 'ext', 'shop', { hosts: ['api.example.com'], http: [{ route: [{ destination: { host: 'web' } }] }] })],
});
const sidecar = (hosts: string[]) => istio('Sidecar', 'default', 'shop', { egress: [{ hosts }] });
const check = (hosts: string[]) =>
  unmatchedEgressHosts(sidecar(hosts), 'shop', DEFAULT_OPTIONS, snap.services, snap.virtualServices).map((e) => e.path);

describe('unmatchedEgressHosts', () => {
  it('hosts importing a service or a VirtualService, `~/…` and covering wildcards: no warning', () => {
    expect(check(['./web', 'data/*', '*/*.svc.cluster.local', './api.example.com', '~/*'])).toEqual([]);
  });
  it('a host of the wrong namespace, or matching nothing, is located at spec.egress[i].hosts[j]', () => {
    expect(check(['./web', 'data/web.shop.svc.cluster.local', './nothing.example.com'])).toEqual([
      'spec.egress[0].hosts[1]',
      'spec.egress[0].hosts[2]',
    ]);
    const [w] = unmatchedEgressHosts(sidecar(['./x.test']), 'shop', DEFAULT_OPTIONS, snap.services, snap.virtualServices);
    expect(w).toMatchObject({ severity: 'warning', object: 'Sidecar shop/default' });
  });
});
