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
// Per-scope sharing (scopeSharing.ts: one outbound part per scope, inbound per pod) is checked the same way, over
// meshes that also vary what an outbound resource depends on: Sidecar scopes (`./*` or `*/*`, workload-selected),
// services' exportTo, DestinationRules in the client's namespace (some workload-selected), sourceLabels on HTTP
// and TCP routes, and EnvoyFilters (namespace- and label-selected) applied by the pipeline's EnvoyFilter stage.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../model/mesh';
import type { RawObject } from '../sources/types';
import { proxyInputsKey } from '../translate/proxyInputs';
import { buildProxyTable } from './stages';
import { resourcesDigest } from './proxyResources';
import { SharedResourceCache } from './sharedResources';
import { alone, fingerprint, serveInRandomOrder, snapshotOfObjects } from './sharing.testing';
import type { ProxyResources } from './types';

const NS = ['a', 'b'];
const APPS = ['x', 'y'];
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.0.3', 'fd00::1'];

const pod = (
  name: string,
  ns: string,
  labels: Record<string, string>,
  ip: string,
  router = false,
  extra: { sa?: string; webPort?: number } = {},
): RawObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns, labels },
  spec: {
    ...(extra.sa ? { serviceAccountName: extra.sa } : {}),
    containers: [
      { name: 'app', image: 'app', ports: [{ name: 'web', containerPort: extra.webPort ?? 8080 }] },
      ...(router ? [{ name: 'istio-proxy', image: 'proxyv2', args: ['proxy', 'router'] }] : []),
    ],
  },
  status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
});

// Pods of one app differ in labels no selector reads (`extra`, `hash`: they share inbound resources,
// proxyInputs.ts inboundInputsKey) and in what the inbound build does read: the version label (selected by some
// Services, Sidecars, policies), the labels read by name (tlsMode, the Gateway API gateway name an
// AuthorizationPolicy's targetRefs name), the service account, the container port a named targetPort resolves to.
const podArb = fc.record(
  {
    ns: fc.constantFrom(...NS),
    app: fc.constantFrom(...APPS),
    version: fc.constantFrom('v1', 'v1', 'v2'),
    extra: fc.constantFrom(false, false, false, true),
    ip: fc.constantFrom(...IPS),
    hash: fc.constantFrom('h1', 'h2'),
    tlsMode: fc.constantFrom(false, false, true),
    gwName: fc.constantFrom(false, false, false, true),
    sa: fc.constantFrom('default', 'default', 'other'),
    webPort: fc.constantFrom(8080, 8080, 9090),
  },
  { requiredKeys: ['ns', 'app', 'version', 'extra', 'ip'] },
);

const serviceArb = fc.record(
  {
    ns: fc.constantFrom(...NS),
    app: fc.constantFrom(...APPS),
    headless: fc.boolean(),
    tcp: fc.boolean(),
    namedTarget: fc.boolean(),
    exportTo: fc.constantFrom<'all' | 'own' | 'a'>('all', 'all', 'own', 'a'),
    // a selector that also reads `version` (only one version's pods are its targets)
    selectVersion: fc.constantFrom<'v1' | 'v2' | undefined>(undefined, undefined, 'v1', 'v2'),
  },
  { requiredKeys: ['ns', 'app', 'headless', 'tcp', 'namedTarget', 'exportTo'] },
);

// A DestinationRule for service `service` in a client namespace (istiod: the client namespace's rule wins),
// optionally workload-selected (it applies only to the proxies it selects).
const clientDrArb = fc.record({
  ns: fc.constantFrom(...NS),
  service: fc.nat({ max: 3 }),
  selectVersion: fc.option(fc.constantFrom('v1', 'v2'), { nil: undefined }),
  lb: fc.constantFrom('RANDOM', 'LEAST_REQUEST'),
});

// EnvoyFilters: in the root namespace or a workload namespace, optionally label-selected; they patch outbound clusters.
const envoyFilterArb = fc.record({
  ns: fc.constantFrom('istio-system', ...NS),
  selectVersion: fc.option(fc.constantFrom('v1', 'v2'), { nil: undefined }),
});

const sidecarArb = fc.record(
  {
    ns: fc.constantFrom(...NS),
    selectApp: fc.option(fc.constantFrom(...APPS), { nil: undefined }),
    ownOnly: fc.boolean(),
    ingress: fc.constantFrom('none', '0.0.0.0', '127.0.0.1', '[::]'),
    selectVersion: fc.constantFrom<'v1' | 'v2' | undefined>(undefined, undefined, 'v2'),
  },
  { requiredKeys: ['ns', 'selectApp', 'ownOnly', 'ingress'] },
);

// AuthorizationPolicies (server/translate/authz): selected by namespace (or the root namespace) and labels, or naming
// a Gateway API gateway by targetRefs (never a sidecar's, whatever its gateway-name label says: authz/select.ts).
const authzArb = fc.record(
  {
    ns: fc.constantFrom(...NS, 'istio-system'),
    selectVersion: fc.option(fc.constantFrom('v1', 'v2'), { nil: undefined }),
    deny: fc.boolean(),
    targetGateway: fc.constantFrom(false, false, true),
  },
  { requiredKeys: ['ns', 'selectVersion', 'deny'] },
);

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
  clientDrs: fc.array(clientDrArb, { maxLength: 2 }),
  envoyFilters: fc.array(envoyFilterArb, { maxLength: 1 }),
  longNames: fc.boolean(),
  samePort: fc.boolean(),
});

type Generated = typeof meshArb extends fc.Arbitrary<infer T> ? T : never;
type Optional = 'authz' | 'clientDrs' | 'envoyFilters' | 'services' | 'longNames' | 'samePort';
/** The hand-written meshes below leave out the AuthorizationPolicies, client DestinationRules, EnvoyFilters and exportTo. */
type Mesh = Omit<Generated, Optional> & {
  services: Array<Omit<Generated['services'][number], 'exportTo'> & { exportTo?: Generated['services'][number]['exportTo'] }>;
} & Partial<Pick<Generated, 'authz' | 'clientDrs' | 'envoyFilters' | 'longNames' | 'samePort'>>;

const EXPORT_TO = { all: undefined, own: ['.'], a: ['a'] } as const;

function objects(m: Mesh): RawObject[] {
  // Long service names on one port: pods of different services in a namespace then have inbound resources that
  // differ only in the service's hostname and name (of one length), written from one template (encodeTemplate.ts).
  const sn = (i: number) => (m.longNames ? `svc-${i}` : `s${i}`);
  const out: RawObject[] = NS.map((n) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: n, labels: { 'istio-injection': 'enabled' } },
  }));
  m.pods.forEach((p, i) => {
    const labels: Record<string, string> = { app: p.app, version: p.version, ...(p.extra ? { team: 't' } : {}) };
    if (p.hash) labels['pod-template-hash'] = p.hash;
    if (p.tlsMode) labels['security.istio.io/tlsMode'] = 'istio';
    if (p.gwName) labels['gateway.networking.k8s.io/gateway-name'] = 'gw';
    out.push(pod(`p${i}`, p.ns, labels, p.ip, false, { ...(p.sa ? { sa: p.sa } : {}), ...(p.webPort ? { webPort: p.webPort } : {}) }));
  });
  m.services.forEach((s, i) => {
    out.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: sn(i),
        namespace: s.ns,
        ...(EXPORT_TO[s.exportTo ?? 'all']
          ? { annotations: { 'networking.istio.io/exportTo': EXPORT_TO[s.exportTo ?? 'all']!.join(',') } }
          : {}),
      },
      spec: {
        selector: { app: s.app, ...(s.selectVersion ? { version: s.selectVersion } : {}) },
        ...(s.headless ? { clusterIP: 'None' } : {}),
        ports: [{ name: s.tcp ? 'tcp' : 'http', port: m.samePort ? 80 : 80 + i, targetPort: s.namedTarget ? 'web' : 8080 }],
      },
    });
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name: sn(i), namespace: s.ns },
      spec: { host: sn(i), subsets: ['v1', 'v2'].map((v) => ({ name: v, labels: { version: v } })) },
    });
    if (m.sourceLabelsRoute && s.tcp)
      out.push({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: sn(i), namespace: s.ns },
        spec: {
          hosts: [sn(i)],
          tcp: [
            { match: [{ sourceLabels: { version: 'v2' } }], route: [{ destination: { host: sn(i), subset: 'v2' } }] },
            { route: [{ destination: { host: sn(i), subset: 'v1' } }] },
          ],
        },
      });
    if (m.sourceLabelsRoute && !s.tcp)
      out.push({
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: sn(i), namespace: s.ns },
        spec: {
          hosts: [sn(i)],
          http: [
            { match: [{ sourceLabels: { version: 'v1' } }], route: [{ destination: { host: sn(i), subset: 'v2' } }] },
            { route: [{ destination: { host: sn(i), subset: 'v1' } }] },
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
        ...(sc.selectApp || sc.selectVersion
          ? {
              workloadSelector: {
                labels: { ...(sc.selectApp ? { app: sc.selectApp } : {}), ...(sc.selectVersion ? { version: sc.selectVersion } : {}) },
              },
            }
          : {}),
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
        ...(ap.targetGateway
          ? { targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'gw' }] }
          : ap.selectVersion
            ? { selector: { matchLabels: { version: ap.selectVersion } } }
            : {}),
        ...(ap.deny ? { action: 'DENY' } : {}),
        rules: [{ from: [{ source: { namespaces: ['a'] } }], to: [{ operation: { methods: ['GET'] } }] }],
      },
    });
  });
  (m.clientDrs ?? []).forEach((dr, i) => {
    const s = m.services[dr.service % m.services.length]!;
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name: `client-dr${i}`, namespace: dr.ns },
      spec: {
        host: `${sn(dr.service % m.services.length)}.${s.ns}.svc.cluster.local`,
        ...(dr.selectVersion ? { workloadSelector: { matchLabels: { version: dr.selectVersion } } } : {}),
        trafficPolicy: { loadBalancer: { simple: dr.lb } },
        exportTo: ['.'],
      },
    });
  });
  (m.envoyFilters ?? []).forEach((ef, i) => {
    out.push({
      apiVersion: 'networking.istio.io/v1alpha3',
      kind: 'EnvoyFilter',
      metadata: { name: `ef${i}`, namespace: ef.ns },
      spec: {
        ...(ef.selectVersion ? { workloadSelector: { labels: { version: ef.selectVersion } } } : {}),
        configPatches: [
          { applyTo: 'CLUSTER', match: { context: 'SIDECAR_OUTBOUND' }, patch: { operation: 'MERGE', value: { connect_timeout: '7s' } } },
        ],
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

const snapshotOf = (m: Mesh): MeshSnapshot => snapshotOfObjects(objects(m));

const build = (snap: MeshSnapshot, p: ProxyModel) => () => buildProxyTable(snap, p, DEFAULT_OPTIONS);

describe('translation sharing (property: shared output = un-shared translation)', () => {
  it('every proxy of a generated mesh, served in any order through one shared cache, gets its own translation', () => {
    let sharedSome = 0;
    let scopeSome = 0;
    let templatedSome = 0;
    let inboundSome = 0;
    fc.assert(
      fc.property(meshArb, fc.infiniteStream(fc.nat()), (m, rand) => {
        const snap = snapshotOf(m);
        const cache = serveInRandomOrder(snap, rand);
        if (cache.stats().translations + cache.stats().scopeShared < snap.proxies.length) sharedSome++;
        if (cache.stats().scopeShared > 0) scopeSome++;
        if (cache.memo.templated > 0) templatedSome++;
        if (cache.stats().inboundShared > 0) inboundSome++;
      }),
      { numRuns: 200, seed: 12 },
    );
    // Not vacuous: some runs had proxies with equal inputs, which were served one shared translation, and
    // some had distinct proxies of one scope, served the scope's outbound part beside their own inbound.
    expect(sharedSome).toBeGreaterThan(10);
    expect(scopeSome).toBeGreaterThan(10);
    // and a few had pods of different services whose inbound resources were written from one template (the
    // dedicated check, over meshes made for it: encodeTemplate.property.test.ts).
    expect(templatedSome).toBeGreaterThan(0);
    // and some had pods whose inbound inputs were equal (labels no selector reads): one inbound build for them.
    expect(inboundSome).toBeGreaterThan(4);
  }, 600_000);

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
    const r0 = cache.resources(snap, p0!, DEFAULT_OPTIONS, build(snap, p0!));
    const r1 = cache.resources(snap, p1!, DEFAULT_OPTIONS, build(snap, p1!));
    expect(r1.routes).toBe(r0.routes); // the same encoded objects, not copies
    expect(r1.proxy).toBe(p1);
    // version v2 differs in a label the sourceLabels route reads: its own translation.
    const r2 = cache.resources(snap, p2!, DEFAULT_OPTIONS, build(snap, p2!));
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
      expect(fingerprint(cache.resources(snap, p, DEFAULT_OPTIONS, build(snap, p)))).toEqual(fingerprint(alone(snap, p)));
    // One scope: the second replica gets the first's outbound part and its own virtualInbound.
    expect(cache.stats()).toMatchObject({ translations: 1, scopeShared: 1 });
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
      expect(fingerprint(cache.resources(snap, p, DEFAULT_OPTIONS, build(snap, p)))).toEqual(fingerprint(alone(snap, p)));
    // The two v2 replicas share one translation; v1 and v2 share their outbound part (a PeerAuthentication is inbound only).
    expect(cache.stats()).toMatchObject({ translations: 1, scopeShared: 1 });
  });
});

describe('per-scope sharing (istiod XdsCache: outbound once per scope, inbound per pod)', () => {
  const pods = (...specs: Array<[string, string, 'v1' | 'v2']>): Mesh['pods'] =>
    specs.map(([ns, app, version], i) => ({ ns, app, version, extra: false, ip: `10.0.0.${i + 1}` }));
  const base: Mesh = {
    pods: pods(['a', 'x', 'v1'], ['a', 'y', 'v1'], ['a', 'x', 'v2'], ['b', 'x', 'v1']),
    services: [
      { ns: 'a', app: 'x', headless: false, tcp: false, namedTarget: false },
      { ns: 'a', app: 'y', headless: false, tcp: true, namedTarget: false },
    ],
    sidecars: [{ ns: 'a', selectApp: undefined, ownOnly: true, ingress: 'none' }],
    sourceLabelsRoute: false,
    gateway: false,
    peerAuths: [],
  };
  const serve = (m: Mesh) => {
    const snap = snapshotOf(m);
    const cache = new SharedResourceCache();
    const out = new Map<string, ProxyResources>();
    for (const p of snap.proxies) {
      const r = cache.resources(snap, p, DEFAULT_OPTIONS, build(snap, p));
      expect(fingerprint(r), p.id).toEqual(fingerprint(alone(snap, p)));
      out.set(p.id, r);
    }
    return { out, stats: cache.stats() };
  };

  it('distinct pods of one namespace scope: one outbound build, the same encoded objects, their own inbound', () => {
    const { out, stats } = serve(base);
    // a: three distinct pods (x v1, y v1, x v2) in one scope; b: its own scope.
    expect(stats).toMatchObject({ translations: 2, scopeShared: 2 });
    const [x1, y1, x2] = ['p0.a', 'p1.a', 'p2.a'].map((id) => out.get(id)!);
    expect(y1!.routes).toBe(x1!.routes); // RDS and EDS: the very same arrays (one response map per scope on the wire)
    expect(x2!.endpoints).toBe(x1!.endpoints);
    // x v1 and x v2 serve the same service: the same inbound objects, so the very same CDS and LDS lists.
    expect(x2!.clusters).toBe(x1!.clusters);
    expect(x2!.listeners).toBe(x1!.listeners);
    const outbound = (r: ProxyResources) => r.clusters.filter((c) => c.name.startsWith('outbound|'));
    outbound(y1!).forEach((c, i) => expect(c).toBe(outbound(x1!)[i])); // references, not copies
    // inbound per pod: x's pods serve s0 (HTTP), y's serve s1 (TCP)
    const inbound = (r: ProxyResources) => r.clusters.filter((c) => c.name.startsWith('inbound|')).map((c) => c.name);
    expect(inbound(x1!)).toEqual(['inbound|8080||']);
    expect(inbound(y1!)).toEqual(['inbound|8080||']);
    expect(x1!.listeners.find((l) => l.name === 'virtualInbound')!.hash).not.toBe(
      y1!.listeners.find((l) => l.name === 'virtualInbound')!.hash,
    );
  });

  it('a sourceLabels route or a workload-selected DestinationRule splits the scope by the labels it reads', () => {
    const routed = serve({ ...base, sourceLabelsRoute: true });
    // s0's HTTP route and s1's TCP route read `version`: x v1 and y v1 share, x v2 is its own scope.
    expect(routed.stats).toMatchObject({ translations: 3, scopeShared: 1 });
    expect(routed.out.get('p2.a')!.routes).not.toBe(routed.out.get('p0.a')!.routes);
    const dr = serve({ ...base, clientDrs: [{ ns: 'a', service: 0, selectVersion: 'v2', lb: 'RANDOM' }] });
    expect(dr.stats).toMatchObject({ translations: 3, scopeShared: 1 });
  });

  it('pods of one Service differing only in labels no selector reads share one inbound build (the same objects)', () => {
    // issue 24's mesh: a Service's v1 and v2 pods differ in `version`, `pod-template-hash` and the canonical labels.
    const m: Mesh = {
      ...base,
      pods: [...pods(['a', 'x', 'v1'], ['a', 'x', 'v2']), { ...pods(['a', 'x', 'v1'])[0]!, hash: 'h2', ip: '10.0.0.3' }],
    };
    const { out, stats } = serve(m);
    expect(stats).toMatchObject({ translations: 1, scopeShared: 2, inboundShared: 2 });
    const inbound = (r: ProxyResources) => r.listeners.find((l) => l.name === 'virtualInbound')!;
    expect(inbound(out.get('p1.a')!)).toBe(inbound(out.get('p0.a')!));
    expect(inbound(out.get('p2.a')!)).toBe(inbound(out.get('p0.a')!));
  });

  // Each row: two pods of one Service that differ in exactly one input the inbound build reads (istiod
  // listener_inbound.go buildInboundListeners / cluster.go buildInboundClusters read the pod's service targets, the
  // Sidecar ingress, the PeerAuthentication and AuthorizationPolicies selected by its labels, its IPs where a Sidecar
  // ingress binds them). Their inbound resources differ built alone, so they must not be shared (serve() checks each
  // against its own build).
  const one = (p: Partial<Mesh['pods'][number]>): Mesh['pods'] => [
    pods(['a', 'x', 'v1'])[0]!,
    { ...pods(['a', 'x', 'v1'])[0]!, ip: '10.0.0.2', ...p },
  ];
  const svc = base.services[0]!;
  const differing: Array<[string, Mesh]> = [
    [
      'a PeerAuthentication selects one version',
      { ...base, pods: one({ version: 'v2' }), peerAuths: [{ ns: 'a', selectVersion: 'v2', mode: 'STRICT', portLevel: 'none' }] },
    ],
    [
      'an AuthorizationPolicy selects one version',
      { ...base, pods: one({ version: 'v2' }), authz: [{ ns: 'a', selectVersion: 'v2', deny: true }] },
    ],
    ['a Service selects one version only', { ...base, pods: one({ version: 'v2' }), services: [{ ...svc, selectVersion: 'v1' }] }],
    [
      'a Sidecar selects one version (its ingress)',
      {
        ...base,
        pods: one({ version: 'v2' }),
        sidecars: [{ ns: 'a', selectApp: undefined, ownOnly: true, ingress: '127.0.0.1', selectVersion: 'v2' }],
      },
    ],
    [
      'a Sidecar ingress bound to 0.0.0.0 (the pod IP)',
      { ...base, pods: one({}), sidecars: [{ ns: 'a', selectApp: undefined, ownOnly: true, ingress: '0.0.0.0' }] },
    ],
    [
      'a named targetPort resolved to another container port',
      { ...base, pods: one({ webPort: 9090 }), services: [{ ...svc, namedTarget: true }] },
    ],
    ['an IPv6 pod', { ...base, pods: one({ ip: 'fd00::1' }) }],
  ];
  for (const [what, m] of differing)
    it(`no inbound sharing when ${what}`, () => {
      const snap = snapshotOf(m);
      const [p0, p1] = ['p0.a', 'p1.a'].map((id) => snap.proxiesById.get(id)!);
      const own = (n: string) => n === 'virtualInbound' || n === 'InboundPassthroughCluster' || n.startsWith('inbound');
      const inboundOf = (r: ProxyResources) => [...r.listeners, ...r.clusters].filter((x) => own(x.name)).map((x) => x.hash);
      expect(inboundOf(alone(snap, p0!))).not.toEqual(inboundOf(alone(snap, p1!)));
      const { stats } = serve(m);
      expect(stats.inboundShared).toBe(0);
    });

  it('an EnvoyFilter in the root namespace or the proxy namespace: nothing of the namespace is scope-shared', () => {
    for (const ns of ['istio-system', 'a']) {
      const { stats } = serve({ ...base, envoyFilters: [{ ns, selectVersion: 'v2' }] });
      // a's three pods are translated alone (and b's too when the filter is in the root namespace)
      expect(stats).toMatchObject({ translations: 4, scopeShared: 0 });
    }
    expect(serve({ ...base, envoyFilters: [{ ns: 'b', selectVersion: undefined }] }).stats).toMatchObject({
      translations: 2,
      scopeShared: 2,
    });
  });
});
