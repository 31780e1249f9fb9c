// Issue #20's waypoint figure (never asserted): a waypoint's translation per proxy within 2× a sidecar's at the same
// size. The mesh is bench/ztunnel.ts's ambient mesh plus one waypoint in ns-0 (status address, its Service and pod,
// HBONE listener open to All namespaces) that every namespace uses (istio.io/use-waypoint + use-waypoint-namespace),
// so the waypoint serves every Service, and one sidecar client in ns-0 that sees every Service. Both are translated
// from the same snapshot (translateProxy: LDS/RDS/CDS/EDS tables, no encoding). Under the ambient profile.
import type { RawInput } from '../server/model/inputs';
import { buildSnapshot } from '../server/model/snapshot';
import { translateProxy } from '../server/translate';
import { ambientMesh } from './ztunnel';
import { type BenchRow, load1, median } from './table';

const at = (object: Record<string, unknown>): RawInput => ({ object, origin: { source: 'file', file: 'bench' } }) as RawInput;

export function waypointMesh(pods: number, services: number): RawInput[] {
  const base = ambientMesh(pods, services).map((i) => {
    const o = i.object as { kind?: string; metadata: { labels?: Record<string, string> } };
    if (o.kind !== 'Namespace') return i;
    const labels = { ...o.metadata.labels, 'istio.io/use-waypoint': 'waypoint', 'istio.io/use-waypoint-namespace': 'ns-0' };
    return at({ ...o, metadata: { ...o.metadata, labels } });
  });
  const wpLabels = { 'gateway.istio.io/managed': 'istio.io-mesh-controller', 'gateway.networking.k8s.io/gateway-name': 'waypoint' };
  return [
    ...base,
    at({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: 'waypoint', namespace: 'ns-0', labels: { 'istio.io/waypoint-for': 'service' } },
      spec: {
        gatewayClassName: 'istio-waypoint',
        listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE', allowedRoutes: { namespaces: { from: 'All' } } }],
      },
      status: { addresses: [{ type: 'Hostname', value: 'waypoint.ns-0.svc.cluster.local' }] },
    }),
    at({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'waypoint', namespace: 'ns-0', labels: wpLabels },
      spec: {
        clusterIP: '10.95.0.10',
        selector: { 'gateway.networking.k8s.io/gateway-name': 'waypoint' },
        ports: [{ name: 'mesh', port: 15008 }],
      },
    }),
    at({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'waypoint-0', namespace: 'ns-0', labels: wpLabels },
      spec: { serviceAccountName: 'waypoint', containers: [{ name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'waypoint'] }] },
      status: { podIP: '10.94.0.10', conditions: [{ type: 'Ready', status: 'True' }] },
    }),
    at({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'sleep', namespace: 'ns-0', labels: { app: 'sleep' }, annotations: { 'sidecar.istio.io/status': '{}' } },
      spec: {
        serviceAccountName: 'sleep',
        containers: [
          { name: 'sleep', image: 'curl' },
          { name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'sidecar'] },
        ],
      },
      status: { podIP: '10.94.0.20', conditions: [{ type: 'Ready', status: 'True' }] },
    }),
  ];
}

export function benchWaypointVsSidecar(pods: number, services: number, reps = 3): BenchRow {
  const snap = buildSnapshot(waypointMesh(pods, services), { version: 1, ambient: true });
  const time = (id: string) => {
    const proxy = snap.proxiesById.get(id);
    if (!proxy) throw new Error(`bench: no proxy ${id}`);
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      const t = translateProxy(snap, proxy);
      times.push(performance.now() - t0);
      size = t.listeners.length + t.clusters.length + t.endpoints.length;
    }
    return { ms: median(times), size };
  };
  const wp = time('waypoint-0.ns-0');
  const sc = time('sleep.ns-0');
  const bound = snap.ambient?.servicesForProxy.get('waypoint-0.ns-0')?.length ?? 0;
  return {
    figure: 'waypoint translation per proxy ÷ a sidecar’s',
    size: `${pods} pods / ${services} Services`,
    value: wp.ms / sc.ms,
    unit: '×',
    goal: 2,
    detail: `waypoint ${wp.ms.toFixed(0)} ms (${bound} bound Services, ${wp.size} listeners+clusters+CLAs) vs sidecar ${sc.ms.toFixed(0)} ms (${sc.size}); median of ${reps}`,
    load: load1(),
  };
}
