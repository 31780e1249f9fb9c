// An endpoint-only change reaches only the proxies whose scope can hold the moved service's endpoints
// (issue 24), as istiod's DefaultProxyNeedsPush → proxyDependentOnConfig (pilot/pkg/xds/proxy_dependencies.go)
// narrows by SidecarScope.DependsOnConfig; never missing a proxy whose config changed (the exact digest diff
// of every proxy, affected.testing.ts, is the oracle), and pushing EDS only.
import { describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../model/mesh';
import type { RawInput, RawObject } from '../sources/types';
import { affectedProxies } from './affected';
import { exactDiff, storeTransition, typeDigests } from './affected.testing';
import { changeEvent } from './changes';
import { SnapshotMemo } from '../model/snapshotMemo';
import { Store, type StoreChange } from '../sources/store';
import type { MeshSnapshot } from '../model/mesh';
import { keepRouteHosts, narrowedImpact, narrowEndpointChange } from './endpointScope';
import { keepScopeGroups } from './scopeMemo';
import { planChange } from './xdsPlane';

const origin = { source: 'file' as const, file: 'eps.yaml' };
const ri = (object: RawObject): RawInput => ({ object, origin });
const sidecar = (ns: string, hosts: string[]) =>
  ri({
    apiVersion: 'networking.istio.io/v1',
    kind: 'Sidecar',
    metadata: { name: 'default', namespace: ns },
    spec: { egress: [{ hosts }] },
  });
const service = (name: string, ns: string, exportTo?: string) =>
  ri({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, ...(exportTo ? { annotations: { 'networking.istio.io/exportTo': exportTo } } : {}) },
    spec: { selector: { app: name }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] },
  });
const pod = (name: string, ns: string, app: string, ip: string, ready = true) =>
  ri({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app }, annotations: { 'sidecar.istio.io/status': '{}' } },
    spec: {
      containers: [
        { name: 'app', image: 'x', ports: [{ containerPort: 8080 }] },
        { name: 'istio-proxy', image: 'proxyv2' },
      ],
    },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
const gateway = [
  service('istio-ingressgateway', 'istio-system'),
  ri({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'gw', namespace: 'istio-system', labels: { app: 'istio-ingressgateway', istio: 'ingressgateway' } },
    spec: { containers: [{ name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'router'] }] },
    status: { phase: 'Running', podIP: '10.9.9.9' },
  }),
];

// ns-0 imports itself; ns-1 imports itself only; ns-2 imports itself and ns-0; ns-3 has no Sidecar (sees all).
// svc-private in ns-0 is exported to ns-0 only.
const base: RawInput[] = [
  sidecar('ns-0', ['./*', 'istio-system/*']),
  sidecar('ns-1', ['./*', 'istio-system/*']),
  sidecar('ns-2', ['./*', 'ns-0/*']),
  ...gateway,
  service('svc-a', 'ns-0'),
  pod('a-1', 'ns-0', 'svc-a', '10.0.0.1'),
  pod('a-2', 'ns-0', 'svc-a', '10.0.0.2'),
  service('svc-private', 'ns-0', '.'),
  pod('p-1', 'ns-0', 'svc-private', '10.0.0.3'),
  service('svc-b', 'ns-1'),
  pod('b-1', 'ns-1', 'svc-b', '10.0.1.1'),
  service('svc-c', 'ns-2'),
  pod('c-1', 'ns-2', 'svc-c', '10.0.2.1'),
  service('svc-d', 'ns-3'),
  pod('d-1', 'ns-3', 'svc-d', '10.0.3.1'),
];
const podIndex = (name: string) => base.findIndex((i) => (i.object.metadata as { name: string }).name === name && i.object.kind === 'Pod');
const edit = (name: string, by: RawInput) => base.map((x, j) => (j === podIndex(name) ? by : x));

const mutations: Array<[string, RawInput[]]> = [
  ['a-2 new IP', edit('a-2', pod('a-2', 'ns-0', 'svc-a', '10.0.0.9'))],
  ['a-2 not ready', edit('a-2', pod('a-2', 'ns-0', 'svc-a', '10.0.0.2', false))],
  ['p-1 new IP (exportTo .)', edit('p-1', pod('p-1', 'ns-0', 'svc-private', '10.0.0.8'))],
  ['b-1 new IP', edit('b-1', pod('b-1', 'ns-1', 'svc-b', '10.0.1.9'))],
  ['c-1 not ready', edit('c-1', pod('c-1', 'ns-2', 'svc-c', '10.0.2.1', false))],
  ['d-1 new IP', edit('d-1', pod('d-1', 'ns-3', 'svc-d', '10.0.3.9'))],
];

const narrowed = (inputs: RawInput[]) => {
  const { prev, next, change } = storeTransition(base, inputs);
  expect(change.endpointsOnly).toBe(true);
  return {
    prev,
    next,
    change,
    got: narrowEndpointChange(prev, next, change, affectedProxies(prev, next, change, DEFAULT_OPTIONS), DEFAULT_OPTIONS),
  };
};

describe('endpoint-only changes reach only the proxies that can hold the moved endpoints', () => {
  it('never misses a proxy whose config changed (exact digest diff over every proxy)', () => {
    const before = typeDigests(storeTransition(base, base).next);
    let exactTotal = 0;
    for (const [name, inputs] of mutations) {
      const { next, got } = narrowed(inputs);
      const exact = exactDiff(before, typeDigests(next));
      exactTotal += exact.size;
      for (const [id, types] of exact) {
        expect(got.proxies, `${name}: ${id} (${types.join(',')}) missed`).toContain(id);
        for (const t of types) expect(got.types, `${name}: ${id} type ${t}`).toContain(t);
      }
    }
    expect(exactTotal).toBeGreaterThan(0);
  });

  it('a public service of ns-0: its namespace, the namespace importing ns-0, the Sidecar-less namespace and the gateway; not ns-1', () => {
    const { got } = narrowed(mutations[0]![1]);
    expect(got.all).toBe(false);
    expect(got.proxies).toEqual(['a-1.ns-0', 'a-2.ns-0', 'c-1.ns-2', 'd-1.ns-3', 'gw.istio-system', 'p-1.ns-0']);
  });

  it('a service exported to its own namespace: that namespace only (the gateway cannot see it)', () => {
    expect(narrowed(mutations[2]![1]).got.proxies).toEqual(['a-1.ns-0', 'a-2.ns-0', 'p-1.ns-0']);
  });

  it('the live event no longer says "all" and the push is EDS to the narrowed proxies only', () => {
    const { prev, next, change } = narrowed(mutations[3]![1]);
    const ev = changeEvent(prev, next, change, DEFAULT_OPTIONS);
    expect(ev.all).toBeUndefined();
    expect(ev.proxies).toEqual(['b-1.ns-1', 'd-1.ns-3', 'gw.istio-system']);
    const plan = planChange(prev, next, change, DEFAULT_OPTIONS);
    expect(plan.advance.all).toBe(false);
    expect([...(plan.push.proxies as Set<string>)].sort()).toEqual(['b-1.ns-1', 'd-1.ns-3', 'gw.istio-system']);
    // Envoys get EDS only (no CDS/LDS/RDS); ztunnels' Workload deltas ride along (istiod workload.go: a pod's IP
    // is in its Workload), which Envoys never watch.
    expect([...(plan.push.types ?? [])].sort()).toEqual([TYPE.endpoint, TYPE.address, TYPE.authorization].sort());
  });

  it('a sidecar whose Sidecar imports a VirtualService routing to the moved service holds its CLA and is reached (mesh-bound only)', () => {
    // ns-1 imports only itself, but its VirtualService routes to ns-0's svc-a: istiod's SidecarScope adds the
    // destinations of the VirtualServices it selects (pilot/pkg/model/sidecar.go), so ns-1's sidecar has svc-a's
    // cluster and CLA. A gateway-only VirtualService of ns-1 routing to svc-a adds nothing to the sidecar's scope.
    const vs = (name: string, gateways?: string[]) =>
      ri({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name, namespace: 'ns-1' },
        spec: {
          hosts: ['svc-b'],
          ...(gateways ? { gateways } : {}),
          http: [{ route: [{ destination: { host: 'svc-a.ns-0.svc.cluster.local' } }] }],
        },
      });
    const moved = (extra: RawInput) => {
      const before = [...base, extra];
      const after = before.map((x) => (x === base[podIndex('a-2')] ? pod('a-2', 'ns-0', 'svc-a', '10.0.0.9') : x));
      const { prev, next, change } = storeTransition(before, after);
      const got = narrowEndpointChange(prev, next, change, affectedProxies(prev, next, change, DEFAULT_OPTIONS), DEFAULT_OPTIONS);
      return { got, exact: exactDiff(typeDigests(prev), typeDigests(next)) };
    };
    const mesh = moved(vs('to-a'));
    expect(mesh.exact.get('b-1.ns-1')).toEqual(['endpoints']);
    expect(mesh.got.proxies).toContain('b-1.ns-1');
    const gatewayOnly = moved(vs('to-a', ['istio-system/gw']));
    expect(gatewayOnly.exact.has('b-1.ns-1')).toBe(false);
    expect(gatewayOnly.got.proxies).not.toContain('b-1.ns-1');
  });

  it('a change that is not endpoint-only is left as affected.ts says', () => {
    const inputs = base.map((x) => (x === base[podIndex('a-2')] ? pod('a-2', 'ns-0', 'svc-other', '10.0.0.2') : x));
    const { prev, next, change } = storeTransition(base, inputs);
    expect(change.endpointsOnly).toBe(false);
    const a = affectedProxies(prev, next, change, DEFAULT_OPTIONS);
    expect(narrowEndpointChange(prev, next, change, a, DEFAULT_OPTIONS)).toBe(a);
  });
});

describe('what the plane carries from snapshot to snapshot (routing index, scope groups) answers as if made afresh', () => {
  it('pod moves between VirtualService edits that add, retarget and remove a route to the moved service', () => {
    // ns-1 imports only itself; its mesh-bound VirtualService decides whether ns-1's sidecar holds svc-a's CLA.
    const vs = (dest: string | undefined) =>
      ri({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'to-x', namespace: 'ns-1' },
        spec: { hosts: ['svc-b'], http: [{ route: [{ destination: { host: dest ?? 'svc-b' } }] }] },
      });
    const at = podIndex('a-2');
    let gen = 0;
    const moved = (inputs: RawInput[]) => inputs.map((x, i) => (i === at ? pod('a-2', 'ns-0', 'svc-a', `10.0.0.${10 + ++gen}`) : x));
    const steps: Array<(i: RawInput[]) => RawInput[]> = [
      moved,
      (i) => [...i, vs('svc-a.ns-0.svc.cluster.local')],
      moved,
      (i) => [...i.slice(0, -1), vs(undefined)],
      moved,
      (i) => [...i.slice(0, -1), vs('svc-a.ns-0.svc.cluster.local')],
      moved,
      (i) => i.slice(0, -1),
      moved,
    ];
    const store = new Store({ debounceMs: 1_000_000 });
    let inputs = base;
    store.replace('t', inputs);
    store.flush();
    let prev = store.snapshot();
    keepRouteHosts(undefined, prev);
    const seen: Array<[MeshSnapshot, MeshSnapshot, StoreChange]> = [];
    store.onChange((next, change) => {
      seen.push([prev, next, change]);
      // as the plane does on every change
      narrowedImpact(prev, next, change, DEFAULT_OPTIONS);
      keepRouteHosts(prev, next);
      keepScopeGroups(prev, next, DEFAULT_OPTIONS.rootNamespace);
      prev = next;
    });
    for (const step of steps) {
      inputs = step(inputs);
      store.replace('t', inputs);
      store.flush();
    }
    store.close();
    const fresh = (x: MeshSnapshot): MeshSnapshot => ({ ...x, memo: new SnapshotMemo() });
    let moves = 0;
    let reachB = 0;
    for (const [a, b, change] of seen) {
      if (!change.endpointsOnly) continue;
      moves++;
      // asked again of the carried memos (the plane's answer is kept per change) and of snapshots with empty memos
      const got = narrowedImpact(a, b, change, DEFAULT_OPTIONS).affected;
      const want = narrowedImpact(fresh(a), fresh(b), change, DEFAULT_OPTIONS).affected;
      expect(got).toEqual(want);
      if (got.proxies.includes('b-1.ns-1')) reachB++;
    }
    expect(moves).toBe(5);
    expect(reachB).toBe(2); // while the VirtualService routes ns-1 to svc-a (istiod: sidecar.go VirtualService destinations)
  });
});
