// The per-snapshot indexes (snapshotIndex.ts) answer exactly what the linear scans they replace answer
// (istiod's PushContext indexes are the same lookups, made once per push): every proxy's pod, service targets,
// visible services and DestinationRule picks with the memo equal the answers without it (a snapshot without a
// memo scans), and a copy of the snapshot with an array replaced is answered from the new array, not the memo.
import { describe, expect, it } from 'vitest';
import { generateMesh } from '../../../bench/generateMesh';
import { DEFAULT_OPTIONS, type MeshSnapshot } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { buildProxyView, servicesVisibleTo } from './buildProxyView';
import { SnapshotMemo } from '../../model/snapshotMemo';
import { proxyInputs } from '../proxyInputs';
import { buildSnapshot as meshOf, pod, service } from '../testing/meshBuilder';
import { findPod, serviceTargets } from './serviceTargets';
import { carryViewIndexes, podNamed, podsByKey } from './snapshotIndex';

const O = DEFAULT_OPTIONS;
const snap = buildSnapshot(generateMesh({ services: 40, namespaces: 4, scoped: true }), { version: 1 });
const bare = (s: MeshSnapshot): MeshSnapshot => ({ ...s, memo: undefined });

describe('snapshot indexes', () => {
  it('the snapshot carries a memo; every proxy gets the answers a linear scan gives', () => {
    expect(snap.memo).toBeDefined();
    expect(snap.proxies.length).toBeGreaterThan(40);
    let targets = 0;
    let rules = 0;
    for (const p of snap.proxies) {
      expect(findPod(snap, p)).toBe(findPod(bare(snap), p));
      expect(findPod(snap, p)).toBeDefined();
      const t = serviceTargets(snap, p);
      expect(t).toEqual(serviceTargets(bare(snap), p));
      expect(serviceTargets(snap, p)).toBe(t); // made once per snapshot and proxy
      targets += t.length;
      expect(servicesVisibleTo(snap, p.namespace)).toEqual(servicesVisibleTo(bare(snap), p.namespace));
      const view = buildProxyView(snap, p, O);
      const plain = buildProxyView(bare(snap), p, O);
      // the Sidecar scope's services (selectServices + dedupeByHostname), made once per Sidecar and namespace
      expect(view.services).toEqual(plain.services);
      expect(proxyInputs(snap, p, O)).toEqual(proxyInputs(bare(snap), p, O));
      for (const s of snap.services) {
        expect(view.service(s.hostname)).toBe(plain.service(s.hostname));
        expect(view.destinationRule(s.hostname)).toEqual(plain.destinationRule(s.hostname));
        expect(view.inboundDestinationRule(s.hostname)).toEqual(plain.inboundDestinationRule(s.hostname));
        if (view.destinationRule(s.hostname)) rules++;
      }
    }
    expect(targets).toBeGreaterThan(0);
    expect(rules).toBeGreaterThan(0);
  });

  it("a Sidecar scope's services are one list per Sidecar and namespace, and follow the snapshot's Sidecars", () => {
    const sidecars = snap.proxies.filter((x) => x.type === 'sidecar');
    const [a, b] = sidecars.filter((x) => x.namespace === sidecars[0]!.namespace);
    expect(b).toBeDefined();
    const va = buildProxyView(snap, a!, O);
    expect(buildProxyView(snap, b!, O).services).toBe(va.services);
    // the scoped mesh's Sidecars import only their namespace (and istio-system): fewer than every visible service
    expect(snap.sidecars.length).toBeGreaterThan(0);
    expect(va.services.length).toBeLessThan(servicesVisibleTo(snap, a!.namespace).length);
    // a copy without Sidecars is the default scope (every visible service), answered from its own arrays
    const noSidecars: MeshSnapshot = { ...snap, sidecars: [] };
    expect(noSidecars.memo).toBe(snap.memo);
    expect(buildProxyView(noSidecars, a!, O).services).toEqual(buildProxyView(bare(noSidecars), a!, O).services);
    expect(buildProxyView(noSidecars, a!, O).services.length).toBe(servicesVisibleTo(snap, a!.namespace).length);
    expect(buildProxyView(snap, a!, O).services).toEqual(va.services); // (the slot was made again for the copy)
  });

  it('a copy with other arrays is answered from its arrays, not from the memo it carries', () => {
    const p = snap.proxies.find((x) => x.type === 'sidecar' && serviceTargets(snap, x).length > 0)!;
    expect(findPod(snap, p)).toBeDefined();
    const noPods: MeshSnapshot = { ...snap, pods: [] };
    expect(noPods.memo).toBe(snap.memo);
    expect(findPod(noPods, p)).toBeUndefined();
    const noServices: MeshSnapshot = { ...snap, services: [] };
    expect(serviceTargets(noServices, p)).toEqual([]);
    expect(servicesVisibleTo(noServices, p.namespace)).toEqual([]);
    const host = serviceTargets(snap, p)[0]!.service.hostname;
    expect(buildProxyView(snap, p, O).destinationRule(host)).toBeDefined();
    expect(buildProxyView({ ...snap, destinationRules: [] }, p, O).destinationRule(host)).toBeUndefined();
    // and the original is still answered from its own
    expect(findPod(snap, p)).toBeDefined();
    expect(serviceTargets(snap, p).length).toBeGreaterThan(0);
  });

  it("a proxy whose IP is a headless service's endpoint is told so (selfIp), from the per-snapshot address set as from a scan", () => {
    // outbound.ts addService: a headless service (Passthrough, no VIP) with an endpoint at the proxy's own IP
    const mesh = meshOf({
      services: [service('db', 'data', { resolution: 'Passthrough' }), service('web', 'data')],
      pods: [pod('db-0', 'data', '10.0.0.5', { labels: { app: 'db' } }), pod('web-0', 'data', '10.0.0.6', { labels: { app: 'web' } })],
    });
    expect(mesh.memo).toBeUndefined();
    const memoised: MeshSnapshot = { ...mesh, memo: new SnapshotMemo() };
    const db = mesh.proxies.find((p) => p.id.startsWith('db-0'))!;
    const web = mesh.proxies.find((p) => p.id.startsWith('web-0'))!;
    for (const s of [mesh, memoised]) {
      expect(proxyInputs(s, db, O).selfIp).toBe('10.0.0.5');
      expect(proxyInputs(s, web, O).selfIp).toBeNull();
    }
    // the set follows the snapshot's endpoints: a copy without them is answered from its own
    expect(proxyInputs({ ...memoised, endpoints: new Map() }, db, O).selfIp).toBeNull();
  });

  it("the headless address set is carried to the next snapshot only while no headless service's endpoints moved", () => {
    const mesh = meshOf({
      services: [service('db', 'data', { resolution: 'Passthrough' }), service('web', 'data')],
      pods: [pod('db-0', 'data', '10.0.0.5', { labels: { app: 'db' } }), pod('web-0', 'data', '10.0.0.6', { labels: { app: 'web' } })],
    });
    const prev: MeshSnapshot = { ...mesh, memo: new SnapshotMemo() };
    const db = mesh.proxies.find((p) => p.id.startsWith('db-0'))!;
    expect(proxyInputs(prev, db, O).selfIp).toBe('10.0.0.5');
    const dbKey = [...mesh.endpoints.keys()].find((k) => k.includes('/db.'))!;
    const webKey = [...mesh.endpoints.keys()].find((k) => k.includes('/web.'))!;
    // web's endpoints moved (a new list): db's address is still a headless endpoint
    const webMoved: MeshSnapshot = { ...mesh, endpoints: new Map([...mesh.endpoints, [webKey, new Map()]]), memo: new SnapshotMemo() };
    carryViewIndexes(prev, webMoved);
    expect(proxyInputs(webMoved, db, O).selfIp).toBe('10.0.0.5');
    // db's endpoints moved away: the set is made again, not carried
    const dbMoved: MeshSnapshot = { ...mesh, endpoints: new Map([...mesh.endpoints, [dbKey, new Map()]]), memo: new SnapshotMemo() };
    carryViewIndexes(prev, dbMoved);
    expect(proxyInputs(dbMoved, db, O).selfIp).toBeNull();
  });
});

describe('pod indexes carried across an in-place pod change (carryViewIndexes, the push plane on every change)', () => {
  // The answers of a linear scan (podNamed: the first pod of a key; podsByKey: the last).
  const first = (s: MeshSnapshot, ns: string, name: string) => s.pods.find((p) => p.namespace === ns && p.name === name);
  const last = (s: MeshSnapshot, ns: string, name: string) => [...s.pods].reverse().find((p) => p.namespace === ns && p.name === name);
  const withPods = (s: MeshSnapshot, pods: MeshSnapshot['pods']): MeshSnapshot => ({ ...s, pods, memo: new SnapshotMemo() });
  const moved = (p: MeshSnapshot['pods'][number]) => ({ ...p, ip: `${p.ip}9` });
  const expectScan = (s: MeshSnapshot) => {
    for (const p of s.pods) {
      expect(podNamed(s, p.namespace, p.name)).toBe(first(s, p.namespace, p.name));
      expect(podsByKey(s).get(`${p.namespace}/${p.name}`)).toBe(last(s, p.namespace, p.name));
    }
  };
  const built = (s: MeshSnapshot) => {
    const p = s.pods[0]!;
    podNamed(s, p.namespace, p.name);
    podsByKey(s);
    return s;
  };

  it('one pod replaced: both indexes answer as a scan of the new pods (the new pod, never the old one)', () => {
    const prev = built(withPods(snap, snap.pods.slice()));
    const pods = prev.pods.slice();
    pods[3] = moved(pods[3]!);
    const next = withPods(snap, pods);
    carryViewIndexes(prev, next);
    expect(podNamed(next, pods[3]!.namespace, pods[3]!.name)).toBe(pods[3]);
    expectScan(next);
    expectScan(prev); // the previous snapshot's answers are untouched
  });

  it('a key held twice: the replaced position is swapped in only where it is the first (last) of its key', () => {
    const dup = { ...snap.pods[1]!, ip: '10.99.0.1' }; // same namespace/name as pods[1], a later position
    const prev = built(withPods(snap, [...snap.pods, dup]));
    for (const at of [1, prev.pods.length - 1]) {
      const pods = prev.pods.slice();
      pods[at] = moved(pods[at]!);
      const next = withPods(snap, pods);
      carryViewIndexes(prev, next);
      expectScan(next);
    }
  });

  it('the same pod object at two positions, pods added or renamed: not carried, answers still a scan', () => {
    const twice = built(withPods(snap, [...snap.pods, snap.pods[2]!]));
    const a = twice.pods.slice();
    a[2] = moved(a[2]!);
    const b = [...snap.pods.slice(0, 4), { ...snap.pods[4]!, name: 'renamed' }, ...snap.pods.slice(5)];
    for (const [prev, pods] of [
      [twice, a],
      [built(withPods(snap, snap.pods.slice())), [...snap.pods, moved(snap.pods[0]!)]],
      [built(withPods(snap, snap.pods.slice())), b],
    ] as const) {
      const next = withPods(snap, pods);
      carryViewIndexes(prev, next);
      expectScan(next);
    }
  });
});
