// Scale: one sidecar in a generated mesh of 1,000 services with 1,000 VirtualServices (bench/generateMesh.ts)
// is translated completely. Counts only — no wall-clock assertion (DESIGN.md §5: tests never assert times).
// Expected counts follow Istio's rules for this mesh (every service: one HTTP port 8080 `http-0`, a
// DestinationRule with subsets v1/v2, a 90/10 VirtualService, two pods):
// - CDS (cluster.go buildOutboundClusters): per service outbound|8080||, |v1|, |v2| = 3 × 1000, plus
//   BlackHoleCluster, PassthroughCluster, InboundPassthroughCluster and the proxy's one inbound|8080|| = 3004.
// - EDS: one ClusterLoadAssignment per EDS outbound cluster = 3000.
// - LDS (listener.go): every service shares port 8080 (HTTP → one 0.0.0.0_8080), plus virtualOutbound and
//   virtualInbound = 3. RDS: one route config "8080" with 1000 service vhosts + allow_any.
import { describe, expect, it } from 'vitest';
import { generateMesh } from '../../bench/generateMesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { translateProxy } from '../translate/index';

describe('scale: 1,000 services + 1,000 VirtualServices, one sidecar', () => {
  const snap = buildSnapshot(generateMesh({ services: 1000 }), { version: 1 });

  it('the generated mesh has 1,000 services and 1,000 VirtualServices, no input errors', () => {
    expect(snap.services).toHaveLength(1000);
    expect(snap.virtualServices).toHaveLength(1000);
    expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
  });

  it('translates the first proxy completely', { timeout: 120_000 }, () => {
    const proxy = snap.proxies[0]!;
    const t = translateProxy(snap, proxy, DEFAULT_OPTIONS);
    expect(t.errors.filter((e) => e.severity === 'error')).toEqual([]);
    expect(t.listeners.map((l) => l.name)).toEqual(['0.0.0.0_8080', 'virtualInbound', 'virtualOutbound']);
    expect(t.clusters).toHaveLength(3004);
    expect(t.endpoints).toHaveLength(3000);
    expect(t.routes.map((r) => r.name)).toEqual(['8080']);
    const vhosts = t.routes[0]!.virtualHosts ?? [];
    expect(vhosts).toHaveLength(1001);
    expect(vhosts.at(-1)!.name).toBe('allow_any');
    // Every service's vhost carries its VirtualService's 90/10 split (BuildHTTPRoutesForVirtualService).
    const svcVhosts = vhosts.filter((v) => v.name !== 'allow_any');
    for (const v of svcVhosts) {
      const w = v.routes?.[0]?.route?.weightedClusters?.clusters ?? [];
      expect(w.map((c) => c.weight)).toEqual([90, 10]);
    }
  });
});
