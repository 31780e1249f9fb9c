// The view's shortcuts must not change what it selects. A Sidecar importing some namespaces only makes
// buildProxyView resolve just those namespaces' VirtualServices (selectVirtualServices and the unmatched-host check
// read no others): VirtualServicesForGateway with the namespace filter equals the full list filtered afterwards,
// and the view equals one computed from the full list (sidecar.go SelectVirtualServices semantics: a VS is
// imported when a host matches an imported host of the VS's own namespace or of `*`).
import { describe, expect, it } from 'vitest';
import { generateMesh } from '../../../bench/generateMesh';
import { DEFAULT_OPTIONS } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { describeView } from './describe';
import { buildProxyView, servicesVisibleTo } from './buildProxyView';
import { importedHosts, selectVirtualServices, unmatchedEgressHosts } from './sidecarScope';
import { MESH_GATEWAY, virtualServicesForGateway } from './virtualServices';

const O = DEFAULT_OPTIONS;

describe('VirtualServicesForGateway namespace filter', () => {
  const snap = buildSnapshot(generateMesh({ services: 60, namespaces: 6, scoped: true }), { version: 1 });
  const all = virtualServicesForGateway(snap, 'ns-1', MESH_GATEWAY, O);
  const key = (v: { meta: { namespace: string; name: string } }) => `${v.meta.namespace}/${v.meta.name}`;

  it('equals the unfiltered list filtered by namespace, in the same order, for every subset of namespaces', () => {
    expect(all.length).toBeGreaterThan(0);
    const namespaces = ['ns-0', 'ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5', 'istio-system'];
    for (let mask = 0; mask < 1 << namespaces.length; mask += 7) {
      const keep = new Set(namespaces.filter((_, i) => mask & (1 << i)));
      const filtered = virtualServicesForGateway(snap, 'ns-1', MESH_GATEWAY, O, (ns) => keep.has(ns));
      expect(filtered).toEqual(all.filter((v) => keep.has(v.meta.namespace)));
      expect(filtered.map(key)).toEqual(all.filter((v) => keep.has(v.meta.namespace)).map(key));
    }
  });

  it('a Sidecar-scoped view selects what the unfiltered list selects, with the same unmatched-host errors', () => {
    for (const proxy of snap.proxies.filter((p) => p.type === 'sidecar').slice(0, 12)) {
      const view = buildProxyView(snap, proxy, O);
      const sidecar = view.sidecar;
      expect(sidecar?.spec.egress?.length).toBeGreaterThan(0);
      if (!sidecar) continue;
      const imported = importedHosts(sidecar, proxy.namespace, O);
      const full = virtualServicesForGateway(snap, proxy.namespace, MESH_GATEWAY, O);
      expect(view.virtualServices.length).toBeGreaterThan(0);
      expect(view.virtualServices.map(key)).toEqual(selectVirtualServices(full, imported).map(key));
      expect(view.virtualServices).toEqual(selectVirtualServices(full, imported));
      const visible = servicesVisibleTo(snap, proxy.namespace, O.defaultServiceExportTo);
      expect(view.errors).toEqual(unmatchedEgressHosts(sidecar, proxy.namespace, O, visible, full));
      expect(describeView(view)).toEqual(describeView(buildProxyView(snap, proxy, O)));
    }
  });
});
