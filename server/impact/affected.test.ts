// affectedProxies must never miss a proxy whose Envoy config changed: for every mutation of real meshes
// (Istio's Bookinfo + our ingress gateway, the demo mesh, a generated multi-namespace mesh) the exact
// answer — translate and encode every proxy of both snapshots, compare per-type digests — must be a
// subset of what affectedProxies names, without it translating anything.
import { describe, expect, it } from 'vitest';

/** Exhaustive over every object of the mesh: seconds alone, and well over vitest's 30 s on a loaded 2-core CI. */
const HEAVY = 120_000;
import { generateMesh } from '../../bench/generateMesh';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { loadPaths } from '../sources/file/loadPaths';
import type { RawInput } from '../sources/types';
import { affectedProxies, exportScope, parseStoreKey } from './affected';
import { exactDiff, mutations, storeTransition, typeDigests, type Mutation } from './affected.testing';
import { bookinfo } from '../testing/paths';

const F = bookinfo();
const REPO = new URL('../../', import.meta.url).pathname;

function load(paths: string[], namespace?: string): RawInput[] {
  const r = loadPaths(paths, namespace ? { namespace } : {});
  expect(r.errors).toEqual([]);
  return r.inputs;
}

/** Every mutation: exact changed proxies ⊆ affected, and their changed types ⊆ affected types. */
function checkNoneMissed(base: RawInput[], muts: Mutation[]): { mutations: number; exactTotal: number; affectedTotal: number } {
  const baseSnap = storeTransition(base, base).prev;
  const before = typeDigests(baseSnap);
  let exactTotal = 0;
  let affectedTotal = 0;
  const misses: string[] = [];
  for (const m of muts) {
    const { prev, next, change } = storeTransition(base, m.inputs);
    const exact = exactDiff(before, typeDigests(next));
    const got = affectedProxies(prev, next, change, DEFAULT_OPTIONS);
    const named = new Set(got.proxies);
    exactTotal += exact.size;
    affectedTotal += got.proxies.length;
    for (const [id, types] of exact) {
      if (!named.has(id)) misses.push(`${m.name}: missed ${id} (${types.join(',')}) [changed ${change.changed.join(' ')}]`);
      for (const t of types) if (!got.types.includes(t)) misses.push(`${m.name}: ${id} type ${t} not named (named ${got.types.join(',')})`);
    }
    if (got.all) expect(got.proxies.length).toBe(new Set([...prev.proxies, ...next.proxies].map((p) => p.id)).size);
  }
  expect(misses).toEqual([]);
  return { mutations: muts.length, exactTotal, affectedTotal };
}

describe('affectedProxies never misses a changed proxy (exact digest diff as the oracle)', () => {
  it('Istio Bookinfo + DestinationRules + VirtualServices + gateway + ServiceEntry, every object removed/edited/copied', () => {
    const base = [
      ...load(
        [
          `${F}/platform/bookinfo.yaml`,
          `${F}/platform/bookinfo-versions.yaml`,
          `${F}/networking/destination-rule-all.yaml`,
          `${F}/networking/virtual-service-reviews-80-20.yaml`,
          `${F}/networking/bookinfo-gateway.yaml`,
          `${F}/networking/egress-rule-google-apis.yaml`,
        ],
        'default',
      ),
      ...load([`${REPO}e2e/fixtures/ingressgateway.yaml`]),
    ];
    const r = checkNoneMissed(base, mutations(base, ['default', 'istio-system']));
    expect(r.mutations).toBeGreaterThan(50);
    expect(r.exactTotal).toBeGreaterThan(0);
  }, HEAVY);

  it('the demo mesh (shop, catalog, istio-system), every object removed/edited/copied', () => {
    const base = load([`${REPO}examples/demo`]);
    const r = checkNoneMissed(base, mutations(base, ['shop', 'catalog', 'istio-system']));
    expect(r.exactTotal).toBeGreaterThan(0);
  }, HEAVY);

  it('a generated mesh over 3 namespaces: changes stay scoped when exportTo narrows them', () => {
    const base = generateMesh({ services: 6, namespaces: 3 });
    // Narrow ns-0's objects to their namespace: edits there must then reach only ns-0's proxies.
    for (const i of base) {
      const o = i.object as {
        kind?: string;
        metadata?: { namespace?: string; annotations?: Record<string, string> };
        spec?: Record<string, unknown>;
      };
      if (o.metadata?.namespace !== 'ns-0') continue;
      if (o.kind === 'Service') o.metadata.annotations = { 'networking.istio.io/exportTo': '.' };
      if (o.kind === 'VirtualService' || o.kind === 'DestinationRule') o.spec = { ...o.spec, exportTo: ['.'] };
    }
    const muts = mutations(base, ['ns-0', 'ns-1', 'ns-2']);
    const r = checkNoneMissed(base, muts);
    // Over-notification is bounded: a DestinationRule edit in ns-0 (exportTo .) names only ns-0's proxies.
    const m = muts.find((x) => x.name === 'DestinationRule ns-0/svc-0: drop http/subsets')!;
    const { prev, next, change } = storeTransition(base, m.inputs);
    const got = affectedProxies(prev, next, change, DEFAULT_OPTIONS);
    expect(got.all).toBe(false);
    expect(got.proxies.length).toBeGreaterThan(0);
    expect(got.proxies.every((id) => id.endsWith('.ns-0'))).toBe(true);
    expect(r.affectedTotal).toBeLessThan(r.mutations * 12); // 12 proxies in all: not "everything" every time
  }, HEAVY);
});

describe('affectedProxies rules', () => {
  const base = generateMesh({ services: 4, namespaces: 2 });
  const snap = storeTransition(base, base).prev;

  it('nothing seen before (no previous snapshot) means every proxy, every type', () => {
    const got = affectedProxies(undefined, snap, { changed: [] }, DEFAULT_OPTIONS);
    expect(got.all).toBe(true);
    expect(got.proxies).toEqual(snap.proxies.map((p) => p.id).sort());
    expect(got.types).toEqual(['listeners', 'routes', 'clusters', 'endpoints']);
  });

  it('an EndpointSlice change of ClientSideLB services is EDS only (istiod: EDS-only push for endpoint updates)', () => {
    const got = affectedProxies(snap, snap, { changed: ['discovery.k8s.io/v1/EndpointSlice/ns-0/svc-0-abc'] }, DEFAULT_OPTIONS);
    expect(got.types).toEqual(['endpoints']);
  });

  it('a Gateway change reaches only routers (sidecars never read Gateways); none here', () => {
    const got = affectedProxies(snap, snap, { changed: ['networking.istio.io/v1/Gateway/ns-0/gw'] }, DEFAULT_OPTIONS);
    expect(got.proxies).toEqual([]);
  });

  it("a Sidecar in the root namespace is every namespace's default (sidecar.go: root namespace Sidecar)", () => {
    const got = affectedProxies(
      snap,
      snap,
      { changed: [`networking.istio.io/v1/Sidecar/${DEFAULT_OPTIONS.rootNamespace}/default`] },
      DEFAULT_OPTIONS,
    );
    expect(got.all).toBe(true);
  });

  it('unknown kinds and Namespaces are treated as everything (conservative)', () => {
    expect(affectedProxies(snap, snap, { changed: ['core/v1/Namespace//ns-0'] }, DEFAULT_OPTIONS).all).toBe(true);
    expect(affectedProxies(snap, snap, { changed: ['odd-key'] }, DEFAULT_OPTIONS).all).toBe(true);
  });

  it('exportScope follows exportTo: empty/* → all, . → own, ~ → nobody but the owner', () => {
    expect(exportScope([], 'a')).toBe('all');
    expect(exportScope(['*'], 'a')).toBe('all');
    expect(exportScope(['.'], 'a')).toEqual(new Set(['a']));
    expect(exportScope(['~'], 'a')).toEqual(new Set(['a']));
    expect(exportScope(['b', '.'], 'a')).toEqual(new Set(['a', 'b']));
    expect(parseStoreKey('core/v1/Pod/ns/p')).toEqual({ kind: 'Pod', namespace: 'ns', name: 'p' });
  });
});

describe('endpoint-only changes (Pod status, EndpointSlice) against the exact diff', () => {
  const origin = { source: 'file' as const, file: 'eps.yaml' };
  const pod = (name: string, ns: string, app: string, ip: string, ready = true): RawInput => ({
    object: {
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
    },
    origin,
  });
  const service = (name: string, ns: string, exportTo?: string): RawInput => ({
    object: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: ns, ...(exportTo ? { annotations: { 'networking.istio.io/exportTo': exportTo } } : {}) },
      spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    },
    origin,
  });
  const slice = (svc: string, ns: string, ips: string[]): RawInput => ({
    object: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `${svc}-abc`, namespace: ns, labels: { 'kubernetes.io/service-name': svc } },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 8080 }],
      endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    },
    origin,
  });
  const base: RawInput[] = [
    service('a', 'x', '.'),
    pod('a-1', 'x', 'a', '10.0.0.1'),
    pod('a-2', 'x', 'a', '10.0.0.2'),
    service('b', 'y'),
    pod('b-1', 'y', 'b', '10.0.1.1'),
    slice('b', 'y', ['10.0.1.1']),
    service('c', 'z', '.'),
    pod('c-1', 'z', 'c', '10.0.2.1'),
  ];
  const replace = (i: number, by: RawInput) => base.map((x, j) => (j === i ? by : x));
  const muts: Mutation[] = [
    { name: 'pod a-2 not ready', inputs: replace(2, pod('a-2', 'x', 'a', '10.0.0.2', false)) },
    { name: 'pod a-2 new IP', inputs: replace(2, pod('a-2', 'x', 'a', '10.0.0.9')) },
    { name: 'pod b-1 new IP', inputs: replace(4, pod('b-1', 'y', 'b', '10.0.1.9')) },
    { name: 'slice b: endpoint added', inputs: replace(5, slice('b', 'y', ['10.0.1.1', '10.0.1.7'])) },
    { name: 'slice b removed', inputs: base.filter((_, j) => j !== 5) },
    { name: 'pod c-2 added', inputs: [...base, pod('c-2', 'z', 'c', '10.0.2.2')] },
  ];

  it('no changed proxy is missed, and exportTo "." keeps namespace-private endpoint changes private', () => {
    expect(checkNoneMissed(base, muts).exactTotal).toBeGreaterThan(0);
    const { prev, next, change } = storeTransition(base, muts[0]!.inputs);
    expect(change.endpointsOnly).toBe(true);
    // Service a is exported to its own namespace only: only proxies of x can see its endpoints.
    expect(affectedProxies(prev, next, change, DEFAULT_OPTIONS).proxies).toEqual(['a-1.x', 'a-2.x']);
    const s = storeTransition(base, muts[3]!.inputs);
    const got = affectedProxies(s.prev, s.next, s.change, DEFAULT_OPTIONS);
    expect(got.types).toEqual(['endpoints']);
    expect(got.all).toBe(true); // b is public: every proxy sees its endpoints
  });
});

describe('kinds meshscope does not read', () => {
  it('a ServiceAccount or ConfigMap change reaches no proxy (kinds.ts IGNORED_KINDS are never read)', () => {
    const base = generateMesh({ services: 2, namespaces: 1 });
    const snap = storeTransition(base, base).prev;
    const got = affectedProxies(snap, snap, { changed: ['core/v1/ServiceAccount/ns-0/sa', 'core/v1/ConfigMap/ns-0/cm'] }, DEFAULT_OPTIONS);
    expect(got).toEqual({ all: false, proxies: [], types: [] });
  });
});
