// Translation sharing is safe: over generated meshes (fast-check), every proxy served through the shared
// cache — in any order, so that any proxy may be served another's entry — gets exactly what translating it
// alone gives (the encoded bytes of every resource, its errors and route provenance). Two proxies that
// differ in anything the translator reads therefore never share output. The meshes are made to collide:
// few label values, pods of one workload on different IPs, a headless service whose endpoint is a proxy's
// own address (outbound listeners skip it: istiod's outbound listener for headless services), Sidecars with
// workload selectors and ingress listeners bound to 0.0.0.0 (istiod inbound defaultEndpoint), sourceLabels
// routes, DestinationRule subsets, IPv6 pods (dnsLookupFamily / wildcard), a gateway, AuthorizationPolicies selected
// by namespace, root namespace and version label, and PeerAuthentications
// (mesh / namespace / version-selected, with port-level modes on a served and an unserved port).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import type { RawInput, RawObject } from '../sources/types';
import { translateProxy } from '../translate/index';
import { proxyInputsKey } from '../translate/proxyInputs';
import { encodeTable } from './encodeTable';
import { resourcesDigest } from './proxyResources';
import { SharedResourceCache } from './sharedResources';
import type { ProxyResources } from './types';

const NS = ['a', 'b'];
const APPS = ['x', 'y'];
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.0.3', 'fd00::1'];

const pod = (name: string, ns: string, labels: Record<string, string>, ip: string, router = false): RawObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns, labels },
  spec: {
    containers: [
      { name: 'app', image: 'app', ports: [{ name: 'web', containerPort: 8080 }] },
      ...(router ? [{ name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'router'] }] : []),
    ],
  },
  status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
});

const podArb = fc.record({
  ns: fc.constantFrom(...NS),
  app: fc.constantFrom(...APPS),
  version: fc.constantFrom('v1', 'v1', 'v2'),
  extra: fc.constantFrom(false, false, false, true),
  ip: fc.constantFrom(...IPS),
});

const serviceArb = fc.record({
  ns: fc.constantFrom(...NS),
  app: fc.constantFrom(...APPS),
  headless: fc.boolean(),
  tcp: fc.boolean(),
  namedTarget: fc.boolean(),
});

const sidecarArb = fc.record({
  ns: fc.constantFrom(...NS),
  selectApp: fc.option(fc.constantFrom(...APPS), { nil: undefined }),
  ownOnly: fc.boolean(),
  ingress: fc.constantFrom('none', '0.0.0.0', '127.0.0.1', '[::]'),
});

// AuthorizationPolicies (server/translate/authz): selected by namespace (or the root namespace) and labels.
const authzArb = fc.record({
  ns: fc.constantFrom(...NS, 'istio-system'),
  selectVersion: fc.option(fc.constantFrom('v1', 'v2'), { nil: undefined }),
  deny: fc.boolean(),
});

const peerAuthArb = fc.record({
  ns: fc.constantFrom('istio-system', ...NS),
  selectVersion: fc.option(fc.constantFrom('v1', 'v2'), { nil: undefined }),
  mode: fc.constantFrom('STRICT', 'PERMISSIVE', 'DISABLE'),
  portLevel: fc.constantFrom('none', '8080', '9999'),
});

const meshArb = fc.record({
  pods: fc.array(podArb, { minLength: 2, maxLength: 7 }),
  services: fc.array(serviceArb, { minLength: 1, maxLength: 4 }),
  sidecars: fc.array(sidecarArb, { maxLength: 2 }),
  sourceLabelsRoute: fc.boolean(),
  gateway: fc.boolean(),
  authz: fc.array(authzArb, { maxLength: 2 }),
  peerAuths: fc.array(peerAuthArb, { maxLength: 3 }),
});

type Generated = typeof meshArb extends fc.Arbitrary<infer T> ? T : never;
/** The hand-written meshes below leave out the AuthorizationPolicies. */
type Mesh = Omit<Generated, 'authz'> & { authz?: Generated['authz'] };

function objects(m: Mesh): RawObject[] {
  const out: RawObject[] = NS.map((n) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: n, labels: { 'istio-injection': 'enabled' } },
  }));
  m.pods.forEach((p, i) => {
    out.push(pod(`p${i}`, p.ns, { app: p.app, version: p.version, ...(p.extra ? { team: 't' } : {}) }, p.ip));
  });
  m.services.forEach((s, i) => {
    out.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `s${i}`, namespace: s.ns },
      spec: {
        selector: { app: s.app },
        ...(s.headless ? { clusterIP: 'None' } : {}),
        ports: [{ name: s.tcp ? 'tcp' : 'http', port: 80 + i, targetPort: s.namedTarget ? 'web' : 8080 }],
      },
    });
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name: `s${i}`, namespace: s.ns },
      spec: { host: `s${i}`, subsets: ['v1', 'v2'].map((v) => ({ name: v, labels: { version: v } })) },
    });
    if (m.sourceLabelsRoute && !s.tcp)
      out.push({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: `s${i}`, namespace: s.ns },
        spec: {
          hosts: [`s${i}`],
          http: [
            { match: [{ sourceLabels: { version: 'v1' } }], route: [{ destination: { host: `s${i}`, subset: 'v2' } }] },
            { route: [{ destination: { host: `s${i}`, subset: 'v1' } }] },
          ],
        },
      });
  });
  m.sidecars.forEach((sc, i) => {
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Sidecar',
      metadata: { name: `sc${i}`, namespace: sc.ns },
      spec: {
        ...(sc.selectApp ? { workloadSelector: { labels: { app: sc.selectApp } } } : {}),
        egress: [{ hosts: sc.ownOnly ? ['./*'] : ['*/*'] }],
        ...(sc.ingress !== 'none'
          ? { ingress: [{ port: { number: 8080, protocol: 'HTTP', name: 'web' }, defaultEndpoint: `${sc.ingress}:8080` }] }
          : {}),
      },
    });
  });
  (m.authz ?? []).forEach((ap, i) => {
    out.push({
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: `ap${i}`, namespace: ap.ns },
      spec: {
        ...(ap.selectVersion ? { selector: { matchLabels: { version: ap.selectVersion } } } : {}),
        ...(ap.deny ? { action: 'DENY' } : {}),
        rules: [{ from: [{ source: { namespaces: ['a'] } }], to: [{ operation: { methods: ['GET'] } }] }],
      },
    });
  });
  m.peerAuths.forEach((pa, i) => {
    const selected = pa.selectVersion !== undefined && pa.ns !== 'istio-system';
    out.push({
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: `pa${i}`, namespace: pa.ns },
      spec: {
        ...(selected ? { selector: { matchLabels: { version: pa.selectVersion } } } : {}),
        mtls: { mode: pa.mode },
        ...(selected && pa.portLevel !== 'none'
          ? { portLevelMtls: { [pa.portLevel]: { mode: pa.mode === 'STRICT' ? 'DISABLE' : 'STRICT' } } }
          : {}),
      },
    });
  });
  if (m.gateway) {
    out.push(
      pod('gw0', 'a', { istio: 'ingressgateway' }, '10.0.0.9', true),
      pod('gw1', 'a', { istio: 'ingressgateway' }, '10.0.0.8', true),
    );
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Gateway',
      metadata: { name: 'gw', namespace: 'a' },
      spec: { selector: { istio: 'ingressgateway' }, servers: [{ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*/*'] }] },
    });
  }
  return out;
}

const snapshotOf = (m: Mesh): MeshSnapshot =>
  buildSnapshot(
    objects(m).map((object, doc): RawInput => ({ object, origin: { source: 'demo', file: 'generated', doc } })),
    { version: 1 },
  );

/** What a proxy is sent and told: every resource's bytes (by hash), errors, provenance. */
const fingerprint = (r: ProxyResources) => ({
  digest: resourcesDigest(r),
  errors: JSON.stringify(r.errors),
  provenance: JSON.stringify(r.provenance),
});

const alone = (snap: MeshSnapshot, p: ProxyModel) => encodeTable(p, snap.version, translateProxy(snap, p, DEFAULT_OPTIONS));

describe('translation sharing (property: shared output = un-shared translation)', () => {
  it('every proxy of a generated mesh, served in any order through one shared cache, gets its own translation', () => {
    let sharedSome = 0;
    fc.assert(
      fc.property(meshArb, fc.infiniteStream(fc.nat()), (m, rand) => {
        const snap = snapshotOf(m);
        const order = [...snap.proxies].map((p) => ({ p, k: rand.next().value as number })).sort((x, y) => x.k - y.k);
        const cache = new SharedResourceCache();
        for (const { p } of order) {
          const shared = cache.resources(snap, p, DEFAULT_OPTIONS, () => translateProxy(snap, p, DEFAULT_OPTIONS));
          expect(shared.proxy).toBe(p);
          expect(fingerprint(shared)).toEqual(fingerprint(alone(snap, p)));
        }
        if (cache.stats().translations < snap.proxies.length) sharedSome++;
      }),
      { numRuns: 200, seed: 12 },
    );
    // Not vacuous: some runs had proxies with equal inputs, which were served one shared translation.
    expect(sharedSome).toBeGreaterThan(10);
  });

  it('two replicas of one workload (same labels, other IP and name) share one translation and its bytes', () => {
    const m: Mesh = {
      pods: [
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: '10.0.0.1' },
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: '10.0.0.2' },
        { ns: 'a', app: 'x', version: 'v2', extra: false, ip: '10.0.0.3' },
      ],
      services: [{ ns: 'a', app: 'x', headless: false, tcp: false, namedTarget: false }],
      sidecars: [],
      sourceLabelsRoute: true,
      gateway: false,
      peerAuths: [],
    };
    const snap = snapshotOf(m);
    const [p0, p1, p2] = ['p0.a', 'p1.a', 'p2.a'].map((id) => snap.proxiesById.get(id)!);
    const cache = new SharedResourceCache();
    const r0 = cache.resources(snap, p0!, DEFAULT_OPTIONS, () => translateProxy(snap, p0!, DEFAULT_OPTIONS));
    const r1 = cache.resources(snap, p1!, DEFAULT_OPTIONS, () => translateProxy(snap, p1!, DEFAULT_OPTIONS));
    expect(r1.routes).toBe(r0.routes); // the same encoded objects, not copies
    expect(r1.proxy).toBe(p1);
    // version v2 differs in a label the sourceLabels route reads: its own translation.
    const r2 = cache.resources(snap, p2!, DEFAULT_OPTIONS, () => translateProxy(snap, p2!, DEFAULT_OPTIONS));
    expect(r2.routes).not.toBe(r0.routes);
    expect(cache.stats().translations).toBe(2);
  });

  it('the key follows every input the translator reads: labels, namespace, service targets, IP family', () => {
    const m: Mesh = {
      pods: [
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: '10.0.0.1' },
        { ns: 'a', app: 'x', version: 'v1', extra: true, ip: '10.0.0.2' },
        { ns: 'b', app: 'x', version: 'v1', extra: false, ip: '10.0.0.3' },
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: 'fd00::1' },
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: '10.0.0.4' },
      ],
      services: [{ ns: 'a', app: 'x', headless: false, tcp: false, namedTarget: false }],
      sidecars: [],
      sourceLabelsRoute: false,
      gateway: false,
      peerAuths: [],
    };
    const snap = snapshotOf(m);
    const key = (id: string) => proxyInputsKey(snap, snap.proxiesById.get(id)!, DEFAULT_OPTIONS);
    expect(key('p1.a')).not.toBe(key('p0.a')); // an extra label
    expect(key('p2.b')).not.toBe(key('p0.a')); // another namespace (and no service target)
    expect(key('p3.a')).not.toBe(key('p0.a')); // IPv6 only
    expect(key('p4.a')).toBe(key('p0.a')); // another IPv4 address only
  });

  it('a Sidecar ingress bound to 0.0.0.0 binds the pod IP (istiod inbound defaultEndpoint): replicas then differ', () => {
    const m: Mesh = {
      pods: [
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: '10.0.0.1' },
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: '10.0.0.2' },
      ],
      services: [{ ns: 'a', app: 'x', headless: false, tcp: false, namedTarget: false }],
      sidecars: [{ ns: 'a', selectApp: undefined, ownOnly: false, ingress: '0.0.0.0' }],
      sourceLabelsRoute: false,
      gateway: false,
      peerAuths: [],
    };
    const snap = snapshotOf(m);
    const [p0, p1] = ['p0.a', 'p1.a'].map((id) => snap.proxiesById.get(id)!);
    expect(resourcesDigest(alone(snap, p0!))).not.toBe(resourcesDigest(alone(snap, p1!)));
    const cache = new SharedResourceCache();
    for (const p of [p0!, p1!])
      expect(fingerprint(cache.resources(snap, p, DEFAULT_OPTIONS, () => translateProxy(snap, p, DEFAULT_OPTIONS)))).toEqual(
        fingerprint(alone(snap, p)),
      );
    expect(cache.stats().translations).toBe(2);
  });

  it('a PeerAuthentication selecting one version: proxies it selects get their own (STRICT) inbound chains', () => {
    const m: Mesh = {
      pods: [
        { ns: 'a', app: 'x', version: 'v1', extra: false, ip: '10.0.0.1' },
        { ns: 'a', app: 'x', version: 'v2', extra: false, ip: '10.0.0.2' },
        { ns: 'a', app: 'x', version: 'v2', extra: false, ip: '10.0.0.3' },
      ],
      services: [{ ns: 'a', app: 'x', headless: false, tcp: false, namedTarget: false }],
      sidecars: [],
      sourceLabelsRoute: false,
      gateway: false,
      peerAuths: [{ ns: 'a', selectVersion: 'v2', mode: 'STRICT', portLevel: '9999' }],
    };
    const snap = snapshotOf(m);
    const [p0, p1, p2] = ['p0.a', 'p1.a', 'p2.a'].map((id) => snap.proxiesById.get(id)!);
    // policy_applier.go ComposePeerAuthentication: the selected workload is STRICT, the other PERMISSIVE
    expect(resourcesDigest(alone(snap, p0!))).not.toBe(resourcesDigest(alone(snap, p1!)));
    const cache = new SharedResourceCache();
    for (const p of [p0!, p1!, p2!])
      expect(fingerprint(cache.resources(snap, p, DEFAULT_OPTIONS, () => translateProxy(snap, p, DEFAULT_OPTIONS)))).toEqual(
        fingerprint(alone(snap, p)),
      );
    expect(cache.stats().translations).toBe(2); // the two v2 replicas share one translation
  });
});
