// The push plane's affected set, decided once per Sidecar scope (scopeMemo.ts), is exactly the per-proxy answer
// (istiod's ProxyNeedsPush → SidecarScope.DependsOnConfig, asked of each proxy), and what the plane then serves is
// what translating from scratch gives. Over generated meshes (fast-check): namespaces with no Sidecar, a default
// Sidecar (`./*`, `*/*`, another namespace's hosts), a workload-selected Sidecar beside it, a root-namespace default;
// services with exportTo; VirtualServices by short name, FQDN, wildcard and delegate (no hosts), bound to the mesh, a
// gateway or both; a gateway pod. Edits: a
// VirtualService changed in place, a pod's IP moved. For each: (1) narrowBySidecarImports / narrowEndpointChange
// equal the per-proxy reference below (the rules asked one proxy at a time; for endpoint moves a superset: the VirtualServices
// routing to a moved service are taken per namespace, not per import); (2) the
// narrowed set holds every proxy whose encoded resources changed (exact digest diff); (3) a SharedResourceCache that
// served every proxy before the change, advanced by planChange's answer (carried entries, stale CLAs refreshed),
// serves every proxy the bytes a fresh translation gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveShortname } from '../model/host';
import { DEFAULT_OPTIONS, type IstioConfig, type MeshSnapshot, type ProxyModel, type ServiceModel } from '../model/mesh';
import { encodeTable } from '../pipeline/encodeTable';
import { proxyResources, resourcesDigest } from '../pipeline/proxyResources';
import { SharedResourceCache } from '../pipeline/sharedResources';
import { buildProxyTable } from '../pipeline/stages';
import type { RawInput, RawObject } from '../sources/types';
import { chooseSidecar, importedHosts, selectServices, selectVirtualServices } from '../translate/view/sidecarScope';
import { MESH_GATEWAY, virtualServicesForGateway } from '../translate/view/virtualServices';
import { affectedProxies, exportScope, parseStoreKey } from './affected';
import { storeTransition } from './affected.testing';
import { movedEndpointHosts, narrowEndpointChange, narrowedImpact } from './endpointScope';
import { narrowBySidecarImports } from './sidecarImports';
import { planChange } from './xdsPlane';

const O = DEFAULT_OPTIONS;
const NS = ['a', 'b', 'c'];
const input = (object: RawObject, doc: number): RawInput => ({ object, origin: { source: 'file', file: 'mesh.yaml', doc } });

// --- the per-proxy reference: the narrowing rules asked of one proxy at a time (chooseSidecar per proxy) ---
type Vs = IstioConfig<'VirtualService'>;
function refMayImport(snap: MeshSnapshot, proxy: ProxyModel | undefined, vss: readonly Vs[]): boolean {
  if (proxy?.type !== 'sidecar') return true;
  const sc = chooseSidecar(snap.sidecars, proxy, O.rootNamespace);
  if (!sc || (sc.spec.egress ?? []).length === 0) return true;
  if (vss.some((v) => (v.spec.hosts ?? []).length === 0)) return true;
  const resolved = vss.map((v) => ({
    ...v,
    spec: { ...v.spec, hosts: (v.spec.hosts ?? []).map((h) => resolveShortname(h, v.meta.namespace, O.domainSuffix)) },
  }));
  return selectVirtualServices([...vss, ...resolved], importedHosts(sc, proxy.namespace, O)).length > 0;
}
function refSidecarImports(prev: MeshSnapshot, next: MeshSnapshot, changed: readonly string[], affected: readonly string[]): string[] {
  const find = (snap: MeshSnapshot) =>
    changed.flatMap((key) => {
      const k = parseStoreKey(key)!;
      return snap.virtualServices.filter((v) => v.meta.namespace === k.namespace && v.meta.name === k.name);
    });
  const vss = [...find(prev), ...find(next)];
  return affected.filter(
    (id) =>
      !prev.proxiesById.has(id) ||
      !next.proxiesById.has(id) ||
      refMayImport(prev, prev.proxiesById.get(id), vss) ||
      refMayImport(next, next.proxiesById.get(id), vss),
  );
}
function refMayHold(snap: MeshSnapshot, proxy: ProxyModel, service: ServiceModel): boolean {
  const visible = exportScope(service.exportTo, service.namespace);
  if (visible !== 'all' && !visible.has(proxy.namespace)) return false;
  if (proxy.type !== 'sidecar') return true;
  const sc = chooseSidecar(snap.sidecars, proxy, O.rootNamespace);
  if (!sc || (sc.spec.egress ?? []).length === 0) return true;
  const imported = importedHosts(sc, proxy.namespace, O);
  if (selectServices([service], imported).length > 0) return true;
  // A VirtualService the Sidecar imports that routes to the service (istiod adds VS destinations to the scope).
  const vss = selectVirtualServices(virtualServicesForGateway(snap, proxy.namespace, MESH_GATEWAY, O), imported);
  return JSON.stringify(vss.map((v) => [v.spec.http, v.spec.tcp, v.spec.tls])).includes(`"host":"${service.hostname}"`);
}
function refEndpointProxies(
  prev: MeshSnapshot,
  next: MeshSnapshot,
  changed: readonly string[],
  hosts: ReadonlySet<string>,
  affected: readonly string[],
) {
  const own = new Set(
    changed
      .map((k) => parseStoreKey(k)!)
      .filter((k) => k.kind === 'Pod')
      .map((k) => `${k.name}.${k.namespace}`),
  );
  return affected.filter(
    (id) =>
      own.has(id) ||
      [prev, next].some((snap) => {
        const p = snap.proxiesById.get(id);
        return p !== undefined && snap.services.filter((s) => hosts.has(s.hostname)).some((s) => refMayHold(snap, p, s));
      }),
  );
}

// --- generated meshes ---
const sidecarArb = fc.constantFrom<'none' | 'own' | 'any' | 'other' | 'nothing'>('none', 'own', 'any', 'other', 'nothing');
const egressOf = (kind: 'own' | 'any' | 'other' | 'nothing', ns: string): string[] =>
  kind === 'own'
    ? ['./*', 'istio-system/*']
    : kind === 'any'
      ? ['*/*']
      : kind === 'other'
        ? [`${NS[(NS.indexOf(ns) + 1) % NS.length]}/*`]
        : ['~/*'];
const meshArb = fc.record({
  services: fc.array(fc.record({ ns: fc.constantFrom(...NS), exportTo: fc.constantFrom('all', 'all', 'own', 'b') }), {
    minLength: 1,
    maxLength: 5,
  }),
  sidecars: fc.array(
    fc.record({
      default: sidecarArb,
      selected: fc.option(fc.constantFrom<'own' | 'any' | 'other' | 'nothing'>('own', 'any', 'other', 'nothing')),
    }),
    { minLength: 3, maxLength: 3 },
  ),
  root: sidecarArb,
  vss: fc.array(
    fc.record({
      ns: fc.constantFrom(...NS),
      host: fc.constantFrom<'short' | 'fqdn' | 'wild' | 'other' | 'delegate'>('short', 'short', 'fqdn', 'wild', 'other', 'delegate'),
      target: fc.nat(4),
      exportTo: fc.constantFrom('all', 'all', 'own'),
      gateways: fc.constantFrom<'none' | 'gateway' | 'both'>('none', 'none', 'gateway', 'both'),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  gateway: fc.boolean(),
  edit: fc.oneof(fc.record({ vs: fc.nat(3), w: fc.integer({ min: 1, max: 99 }), host: fc.boolean() }), fc.record({ pod: fc.nat(9) })),
});
type Mesh = typeof meshArb extends fc.Arbitrary<infer T> ? T : never;

function meshInputs(m: Mesh, edit: boolean): RawInput[] {
  const objs: RawObject[] = [];
  for (const ns of [...NS, 'istio-system']) objs.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  m.services.forEach((s, i) => {
    const name = `svc-${i}`;
    const ann = s.exportTo === 'all' ? {} : { 'networking.istio.io/exportTo': s.exportTo === 'own' ? '.' : 'b' };
    objs.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: s.ns, annotations: ann },
      spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    });
    for (const v of ['v1', 'v2']) {
      const podIndex = 2 * i + (v === 'v1' ? 0 : 1);
      const moved = edit && 'pod' in m.edit && m.edit.pod % (2 * m.services.length) === podIndex;
      const ip = `10.${NS.indexOf(s.ns) + 1}.${i}.${v === 'v1' ? 1 : 2}${moved ? '9' : ''}`;
      objs.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `${name}-${v}`, namespace: s.ns, labels: { app: name, version: v } },
        spec: {
          containers: [
            { name: 'app', image: 'app', ports: [{ containerPort: 8080 }] },
            { name: 'istio-proxy', image: 'proxyv2' },
          ],
        },
        status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
      });
    }
  });
  const sidecar = (ns: string, name: string, kind: 'own' | 'any' | 'other' | 'nothing', selector?: Record<string, string>): RawObject => ({
    apiVersion: 'networking.istio.io/v1',
    kind: 'Sidecar',
    metadata: { name, namespace: ns },
    spec: { ...(selector ? { workloadSelector: { labels: selector } } : {}), egress: [{ hosts: egressOf(kind, ns) }] },
  });
  m.sidecars.forEach((s, i) => {
    const ns = NS[i]!;
    if (s.default !== 'none') objs.push(sidecar(ns, 'default', s.default));
    if (s.selected) objs.push(sidecar(ns, 'v2-only', s.selected, { version: 'v2' }));
  });
  if (m.root !== 'none') objs.push(sidecar('istio-system', 'default', m.root));
  const svcHost = (t: number) => {
    const s = m.services[t % m.services.length]!;
    return { name: `svc-${t % m.services.length}`, ns: s.ns };
  };
  m.vss.forEach((v, i) => {
    const t = svcHost(v.target);
    const e = 'vs' in m.edit ? m.edit : undefined;
    const editing = edit && e !== undefined && e.vs % m.vss.length === i;
    const hostKind = editing && e.host ? 'fqdn' : v.host;
    const hosts =
      hostKind === 'short'
        ? [t.name]
        : hostKind === 'fqdn'
          ? [`${t.name}.${t.ns}.svc.cluster.local`]
          : hostKind === 'wild'
            ? [`*.${t.ns}.svc.cluster.local`]
            : hostKind === 'other'
              ? [`${t.name}.${t.ns}.svc.cluster.local`, 'example.com']
              : [];
    const weight = editing ? e.w : 80;
    const dest = `${t.name}.${t.ns}.svc.cluster.local`;
    objs.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: `vs-${i}`, namespace: v.ns },
      spec: {
        ...(hosts.length > 0 ? { hosts } : {}),
        ...(v.exportTo === 'own' ? { exportTo: ['.'] } : {}),
        ...(v.gateways === 'none' ? {} : { gateways: v.gateways === 'both' ? ['istio-system/gw', 'mesh'] : ['istio-system/gw'] }),
        http: [
          {
            route: [
              { destination: { host: dest }, weight },
              { destination: { host: dest, port: { number: 80 } }, weight: 100 - weight },
            ],
          },
        ],
      },
    });
  });
  if (m.gateway) {
    objs.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'gw', namespace: 'istio-system', labels: { istio: 'ingressgateway' } },
      spec: { containers: [{ name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'router'] }] },
      status: { phase: 'Running', podIP: '10.9.0.1', podIPs: [{ ip: '10.9.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] },
    });
  }
  return objs.map(input);
}

const fresh = (snap: MeshSnapshot, p: ProxyModel) => resourcesDigest(encodeTable(p, snap.version, buildProxyTable(snap, p, O)));

describe('the affected set decided per Sidecar scope equals the per-proxy answer, and the plane serves fresh bytes', () => {
  it('VirtualService edits and pod IP moves over generated meshes', () => {
    let vsEdits = 0;
    let moves = 0;
    let exact = 0;
    fc.assert(
      fc.property(meshArb, (m) => {
        const base = meshInputs(m, false);
        const edited = meshInputs(m, true);
        // Same RawInput object for every unchanged document, as the file source hands them over.
        const after = edited.map((x, i) => (JSON.stringify(x.object) === JSON.stringify(base[i]?.object) ? base[i]! : x));
        const { prev, next, change } = storeTransition(base, after);
        if (change.changed.length === 0) return;
        const every = [...new Set([...prev.proxies, ...next.proxies].map((p) => p.id))].sort();
        const affected = affectedProxies(prev, next, change, O);

        // (1) the scope-memoised narrowing equals the per-proxy reference (over every proxy, and over affected.ts' answer)
        const hosts = movedEndpointHosts(prev, next, change);
        if (change.changed.every((k) => parseStoreKey(k)?.kind === 'VirtualService')) {
          vsEdits++;
          for (const ids of [every, affected.proxies])
            expect(narrowBySidecarImports(prev, next, change.changed, ids, O)).toEqual(refSidecarImports(prev, next, change.changed, ids));
        }
        if (hosts) {
          moves++;
          for (const ids of [every, affected.proxies]) {
            const all = { all: false, proxies: ids, types: affected.types };
            // Per scope, VirtualService destinations are over-approximated by namespace (never fewer proxies).
            const got = new Set(narrowEndpointChange(prev, next, change, all, O, hosts).proxies);
            const ref = refEndpointProxies(prev, next, change.changed, hosts, ids);
            for (const id of ref) expect(got.has(id), `${id} is missing`).toBe(true);
            if (got.size === ref.length) exact++;
          }
          // The plane's own answer (narrowedImpact: per scope, with no affectedProxies walk first) holds every proxy
          // the per-proxy rule names over the whole mesh (istiod DefaultProxyNeedsPush → SidecarScope.DependsOnConfig,
          // asked of each proxy) and every proxy the narrowed affectedProxies answer names; `all` only when it is all.
          const plane = narrowedImpact(prev, next, change, O).affected;
          const named = new Set(plane.proxies);
          for (const id of refEndpointProxies(prev, next, change.changed, hosts, every))
            expect(named.has(id), `${id} is not pushed`).toBe(true);
          for (const id of narrowEndpointChange(prev, next, change, affected, O, hosts).proxies) expect(named.has(id), id).toBe(true);
          expect(plane.proxies).toEqual([...named].sort());
          expect(plane.all).toBe(named.size === every.length);
          expect(plane.types).toEqual(affected.types);
        }

        // (2) never misses a proxy whose bytes changed; (3) the advanced cache serves what a fresh translation gives
        const cache = new SharedResourceCache();
        const before = new Map<string, string>();
        for (const p of prev.proxies) before.set(p.id, resourcesDigest(proxyResources(prev, p.id, O, cache)!));
        const { advance, push } = planChange(prev, next, change, O);
        const unchanged = cache.advance(prev.version, next.version, advance);
        for (const p of next.proxies) {
          const served = resourcesDigest(proxyResources(next, p.id, O, cache)!);
          expect(served, p.id).toBe(fresh(next, p));
          const named = push.proxies === 'all' || (push.proxies?.has(p.id) === true && !unchanged.has(p.id));
          if (served !== before.get(p.id)) expect(named, `${p.id} changed but is not pushed`).toBe(true);
        }
      }),
      { numRuns: 150, seed: 24 },
    );
    // The generator reaches both paths.
    expect(vsEdits).toBeGreaterThan(20);
    expect(moves).toBeGreaterThan(20);
    expect(exact).toBeGreaterThan(moves); // most endpoint answers (2 per move) are exact
  });
});
