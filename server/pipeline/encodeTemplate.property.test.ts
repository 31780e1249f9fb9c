// Inbound resources written from a template (encodeTemplate.ts) are exactly what encoding them gives: over
// generated meshes (fast-check) of many Services, each selecting its own app, every sidecar served through one
// shared cache in any order gets the bytes of its own translation (sharing.property.test.ts's check). The meshes
// are made so that templates are tried on near misses: service and namespace names of equal and of different
// lengths (`svc-1` / `svc-2` / `svc-10`, `ns-a` / `ns-b` / `ns-cc`), one port or another, HTTP or TCP, a
// named or numeric targetPort, PeerAuthentications and AuthorizationPolicies selecting one app (a policy is
// read by the inbound build: istiod listener_inbound.go / authz builder), a Sidecar ingress bound to 0.0.0.0
// (the pod IP lands in the listener), pods selected by two services or by none, IPv6 pods.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../model/mesh';
import type { RawObject } from '../sources/types';
import { serveInRandomOrder, snapshotOfObjects } from './sharing.testing';

const NS = ['ns-a', 'ns-b', 'ns-cc'];
const PREFIX = ['svc-', 'svc-', 'svc-1', 'ab'];

const meshArb = fc.record({
  services: fc.array(
    fc.record({
      ns: fc.constantFrom('ns-a', 'ns-a', 'ns-b', 'ns-cc'),
      prefix: fc.constantFrom(...PREFIX),
      port: fc.constantFrom(80, 80, 80, 9080),
      tcp: fc.constantFrom(false, false, true),
      namedTarget: fc.constantFrom(false, false, true),
      /** Also selects the next service's app (its pods are then targets of both). */
      wide: fc.constantFrom(false, false, false, true),
    }),
    { minLength: 2, maxLength: 6 },
  ),
  pods: fc.array(
    fc.record({
      service: fc.nat({ max: 6 }),
      version: fc.constantFrom('v1', 'v2'),
      v6: fc.constantFrom(false, false, false, true),
    }),
    { minLength: 4, maxLength: 12 },
  ),
  peerAuths: fc.array(fc.record({ service: fc.nat({ max: 5 }), mode: fc.constantFrom('STRICT', 'DISABLE'), portLevel: fc.boolean() }), {
    maxLength: 2,
  }),
  authz: fc.array(fc.record({ service: fc.nat({ max: 5 }), deny: fc.boolean() }), { maxLength: 2 }),
  ingressSidecar: fc.option(fc.constantFrom(...NS), { nil: undefined }),
});
type Mesh = typeof meshArb extends fc.Arbitrary<infer T> ? T : never;

function objects(m: Mesh): RawObject[] {
  const out: RawObject[] = NS.map((n) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: n, labels: { 'istio-injection': 'enabled' } },
  }));
  const name = (i: number) => `${m.services[i]!.prefix}${i}`;
  m.services.forEach((s, i) => {
    out.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: name(i), namespace: s.ns },
      spec: {
        selector: s.wide ? { tier: `t${i}` } : { app: `app-${i}` },
        ports: [{ name: s.tcp ? 'tcp' : 'http', port: s.port, targetPort: s.namedTarget ? 'web' : 8080 }],
      },
    });
  });
  m.pods.forEach((p, k) => {
    // pod `service` beyond the services: an app no service selects
    const s = m.services[p.service];
    const ns = s?.ns ?? NS[p.service % NS.length]!;
    const ip = p.v6 ? `fd00::${k + 1}` : `10.0.${k >> 8}.${(k & 255) + 1}`;
    const tier = m.services[p.service - 1]?.wide ? { tier: `t${p.service - 1}` } : {};
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `pod-${k}`, namespace: ns, labels: { app: `app-${p.service}`, version: p.version, ...tier } },
      spec: { containers: [{ name: 'app', image: 'app', ports: [{ name: 'web', containerPort: 8080 }] }] },
      status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
    });
  });
  m.peerAuths.forEach((pa, i) => {
    const s = m.services[pa.service % m.services.length]!;
    out.push({
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: `pa${i}`, namespace: s.ns },
      spec: {
        selector: { matchLabels: { app: `app-${pa.service % m.services.length}` } },
        mtls: { mode: pa.mode },
        ...(pa.portLevel ? { portLevelMtls: { 8080: { mode: pa.mode === 'STRICT' ? 'DISABLE' : 'STRICT' } } } : {}),
      },
    });
  });
  m.authz.forEach((ap, i) => {
    const s = m.services[ap.service % m.services.length]!;
    out.push({
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: `ap${i}`, namespace: s.ns },
      spec: {
        selector: { matchLabels: { app: `app-${ap.service % m.services.length}` } },
        ...(ap.deny ? { action: 'DENY' } : {}),
        rules: [{ from: [{ source: { namespaces: [s.ns] } }], to: [{ operation: { methods: ['GET'] } }] }],
      },
    });
  });
  if (m.ingressSidecar)
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Sidecar',
      metadata: { name: 'ingress', namespace: m.ingressSidecar },
      spec: {
        egress: [{ hosts: ['./*'] }],
        ingress: [{ port: { number: 8080, protocol: 'HTTP', name: 'web' }, defaultEndpoint: '0.0.0.0:8080' }],
      },
    });
  return out;
}

const snapshotOf = (m: Mesh): MeshSnapshot => snapshotOfObjects(objects(m));

describe('inbound resources written from a template (property: = their own encoding)', () => {
  it('every sidecar of a generated many-service mesh, served in any order through one cache, gets its own bytes', () => {
    let templatedSome = 0;
    let templated = 0;
    fc.assert(
      fc.property(meshArb, fc.infiniteStream(fc.nat()), (m, rand) => {
        const snap = snapshotOf(m);
        const cache = serveInRandomOrder(snap, rand);
        if (cache.memo.templated > 0) templatedSome++;
        templated += cache.memo.templated;
      }),
      { numRuns: 150, seed: 24 },
    );
    // Not vacuous: many runs wrote some pods' inbound resources from another service's template.
    expect(templatedSome).toBeGreaterThan(15);
    expect(templated).toBeGreaterThan(20);
  }, 600_000);
});
