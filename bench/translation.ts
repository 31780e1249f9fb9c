// In-process translation figures, generation and encoding reported separately (as istiod's
// pilot/pkg/networking/core/bench_test.go does): the proxy's view (istiod's SidecarScope, built once per push
// context there) is built outside the timed generation; every figure is the median of `reps` runs.
//  - sidecar RDS for 100 services (default scope: every service visible);
//  - gateway RDS with N VirtualServices bound to it;
//  - CDS of a proxy seeing N services (no DestinationRules: one outbound cluster per service port).
import { encodeResource } from '../server/envoy/encode';
import { TYPE } from '../server/envoy/typeUrls';
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../server/model/mesh';
import { buildSnapshot } from '../server/model/snapshot';
import { translateProxy } from '../server/translate/index';
import { createRouteSourceSink } from '../server/translate/routeSources';
import { buildProxyView } from '../server/translate/view';
import { buildClusters } from '../server/translate/xds/clusters';
import { buildGatewayRouteConfig, buildGatewayListeners } from '../server/translate/xds/gateway';
import { buildSidecarListeners } from '../server/translate/xds/listeners';
import { buildSidecarRouteConfigs } from '../server/translate/xds/routes';
import { generateMesh } from './generateMesh';
import { profiled } from './profile';
import { load1, median, type BenchRow } from './table';

/**
 * Median of `reps` timed runs after a warm-up of at least 5 runs and 250 ms: steady state, as Go's testing.B
 * (istiod's figures) reports it after its own ramp-up; a single warm-up left V8 still tiering up the
 * translator, so the figure was mostly JIT time. The first (cold) run is reported in the detail.
 */
function timeIt(reps: number, fn: () => unknown): number {
  const end = performance.now() + 250;
  for (let i = 0; i < 5 || performance.now() < end; i++) fn();
  const t: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  return median(t);
}

/** One call, timed: the cold (first) run, before any warm-up. */
function first<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}
const coldNote = (ms: number) => `first (cold) run ${ms.toFixed(1)} ms`;

const sidecarOf = (snap: MeshSnapshot): ProxyModel => snap.proxies.find((p) => p.type === 'sidecar')!;
const routerOf = (snap: MeshSnapshot): ProxyModel => snap.proxies.find((p) => p.type === 'router')!;

interface Measured {
  gen: number;
  enc: number;
  detail: string;
  profile: () => unknown;
}

function sidecarRds(services: number, reps: number): Measured {
  const snap = buildSnapshot(generateMesh({ services }), { version: 1 });
  const view = buildProxyView(snap, sidecarOf(snap), DEFAULT_OPTIONS);
  const lds = buildSidecarListeners(view);
  const gen = () => buildSidecarRouteConfigs(view, lds.httpRoutePorts, createRouteSourceSink()).routes;
  const { value: routes, ms: cold } = first(gen);
  const vhosts = routes.reduce((n, r) => n + (r.virtualHosts?.length ?? 0), 0);
  return {
    gen: timeIt(reps, gen),
    enc: timeIt(reps, () => routes.map((r) => encodeResource(TYPE.route, r.name ?? '', r))),
    detail: `${routes.length} route configs, ${vhosts} virtual hosts; view ${timeIt(3, () => buildProxyView(snap, sidecarOf(snap), DEFAULT_OPTIONS)).toFixed(1)} ms (outside); ${coldNote(cold)}`,
    profile: gen,
  };
}

function gatewayRds(services: number, reps: number): Measured {
  const snap = buildSnapshot(generateMesh({ services, scoped: true }), { version: 1 });
  const view = buildProxyView(snap, routerOf(snap), DEFAULT_OPTIONS);
  const gw = view.gateway!;
  const lds = buildGatewayListeners(view, gw);
  const gen = () => lds.routeNames.map((n) => buildGatewayRouteConfig(view, gw, n, createRouteSourceSink()).route);
  const { value: routes, ms: cold } = first(gen);
  const vhosts = routes.reduce((n, r) => n + (r.virtualHosts?.length ?? 0), 0);
  return {
    gen: timeIt(reps, gen),
    enc: timeIt(reps, () => routes.map((r) => encodeResource(TYPE.route, r.name ?? '', r))),
    detail: `${snap.virtualServices.length} VirtualServices, ${vhosts} virtual hosts; view ${timeIt(3, () => buildProxyView(snap, routerOf(snap), DEFAULT_OPTIONS)).toFixed(1)} ms (outside); ${coldNote(cold)}`,
    profile: gen,
  };
}

function cds(services: number, reps: number): Measured {
  const snap = buildSnapshot(generateMesh({ services, destinationRules: false, virtualServices: false }), { version: 1 });
  const view = buildProxyView(snap, sidecarOf(snap), DEFAULT_OPTIONS);
  const gen = () => buildClusters(view).clusters;
  const { value: clusters, ms: cold } = first(gen);
  return {
    gen: timeIt(reps, gen),
    enc: timeIt(reps, () => clusters.map((c) => encodeResource(TYPE.cluster, c.name ?? '', c))),
    detail: `${clusters.length} clusters; ${coldNote(cold)}`,
    profile: gen,
  };
}

function wholeSidecar(services: number, reps: number): Measured {
  const snap = buildSnapshot(generateMesh({ services, scoped: true }), { version: 1 });
  const p = snap.proxiesById.get('svc-0-bench.ns-0') ?? sidecarOf(snap);
  const gen = () => translateProxy(snap, p, DEFAULT_OPTIONS);
  const t = gen();
  return {
    gen: timeIt(reps, gen),
    enc: timeIt(reps, () => {
      for (const c of t.clusters) encodeResource(TYPE.cluster, c.name ?? '', c);
      for (const l of t.listeners) encodeResource(TYPE.listener, l.name ?? '', l);
      for (const r of t.routes) encodeResource(TYPE.route, r.name ?? '', r);
      for (const e of t.endpoints) encodeResource(TYPE.endpoint, e.clusterName ?? '', e);
    }),
    detail: `${t.listeners.length} LDS / ${t.routes.length} RDS / ${t.clusters.length} CDS / ${t.endpoints.length} EDS (Sidecar-scoped to its namespace)`,
    profile: gen,
  };
}

async function rows(
  figure: string,
  size: string,
  m: Measured,
  goal: number | undefined,
  anchor: BenchRow['anchor'] | undefined,
): Promise<BenchRow[]> {
  const gen: BenchRow = { figure: `${figure}: generation`, size, value: m.gen, unit: 'ms', detail: m.detail, load: load1() };
  if (goal !== undefined) gen.goal = goal;
  if (anchor) gen.anchor = anchor;
  if (goal !== undefined && m.gen > goal)
    gen.profile = (
      await profiled(() => {
        const end = performance.now() + 500;
        while (performance.now() < end) m.profile();
      })
    ).summary;
  return [gen, { figure: `${figure}: encoding`, size, value: m.enc, unit: 'ms', load: load1() }];
}

export async function benchTranslation(gatewayN: number, reps = 7): Promise<BenchRow[]> {
  return [
    ...(await rows('sidecar RDS, 100 services', 'N=100', sidecarRds(100, reps), 0.5, { value: 0.33, text: 'istiod 0.33 ms' })),
    ...(await rows(`gateway RDS, ${gatewayN} VS`, `N=${gatewayN}`, gatewayRds(gatewayN, reps), 25, {
      value: 22.5,
      text: 'istiod 22.5 ms',
    })),
    ...(await rows(`CDS, ${gatewayN} services`, `N=${gatewayN}`, cds(gatewayN, reps), 8, { value: 7.6, text: 'istiod 7.6 ms' })),
    ...(await rows('one whole sidecar (translateProxy)', `N=${gatewayN}`, wholeSidecar(gatewayN, reps), undefined, undefined)),
  ];
}
