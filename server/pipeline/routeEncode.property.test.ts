// Virtual hosts written from a template (routeEncode.ts) are exactly what encoding them gives: over generated
// meshes (fast-check) of many Services with VirtualServices, every sidecar served through one shared cache in any
// order gets the bytes of its own translation (sharing.testing.ts serveInRandomOrder). The meshes are made so that
// templates are tried on near misses: service names and ClusterIPs of equal and of different lengths, two
// namespaces of one length, one port or another, and VirtualServices that differ between same-shaped services in
// what a virtual host carries besides the service's own names (istiod route.BuildSidecarVirtualHostWrapper): a
// header match on the service's own name or on a fixed value, weights, a timeout, a route to another service.
// The services' pods make their ClusterLoadAssignments templates too (encodeTable.ts endpointVary: the cluster's
// host, each endpoint's IPv4 address and pod name): pod IPs and names of equal and of different lengths, one or two
// pods, a pod that is not ready (istiod: its health status), versions (subset CLAs).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawObject } from '../sources/types';
import { serveInRandomOrder, snapshotOfObjects } from './sharing.testing';

const meshArb = fc.record({
  services: fc.array(
    fc.record({
      ns: fc.constantFrom('ns-a', 'ns-a', 'ns-b'),
      prefix: fc.constantFrom('svc-', 'svc-', 'svc-', 'svcx-'),
      /** The ClusterIP's third octet (`10.96.<octet>.<index + 1>`): IPs of one length or of another. */
      octet: fc.constantFrom(0, 0, 0, 10),
      port: fc.constantFrom(80, 80, 80, 9080),
      /** The pods' app label is the service's name (else `app-<index>`: in their CLAs' istio.workload metadata). */
      app: fc.constantFrom(true, true, false),
      pods: fc.array(
        fc.record({
          octet: fc.constantFrom(0, 0, 0, 20),
          version: fc.constantFrom('v1', 'v1', 'v2'),
          ready: fc.constantFrom(true, true, true, false),
        }),
        { maxLength: 2 },
      ),
      vs: fc.option(
        fc.record({
          header: fc.constantFrom('own', 'own', 'fixed', 'none'),
          weight: fc.constantFrom(80, 80, 100),
          timeout: fc.constantFrom(undefined, undefined, '5s'),
          /** Routes to the next service instead of its own. */
          other: fc.constantFrom(false, false, false, true),
        }),
        { nil: undefined, freq: 4 },
      ),
    }),
    { minLength: 3, maxLength: 9 },
  ),
  clients: fc.array(fc.constantFrom('ns-a', 'ns-b'), { minLength: 1, maxLength: 3 }),
});
type Mesh = typeof meshArb extends fc.Arbitrary<infer T> ? T : never;

function objects(m: Mesh): RawObject[] {
  const out: RawObject[] = ['ns-a', 'ns-b'].map((n) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: n, labels: { 'istio-injection': 'enabled' } },
  }));
  const name = (i: number) => `${m.services[i]!.prefix}${i}`;
  const host = (i: number) => `${name(i)}.${m.services[i]!.ns}.svc.cluster.local`;
  m.services.forEach((s, i) => {
    const ip = `10.96.${s.octet}.${i + 1}`;
    out.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: name(i), namespace: s.ns },
      spec: { clusterIP: ip, selector: { app: s.app ? name(i) : `app-${i}` }, ports: [{ name: 'http', port: s.port, targetPort: 8080 }] },
    });
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name: name(i), namespace: s.ns },
      spec: {
        host: host(i),
        subsets: [
          { name: 'v1', labels: { version: 'v1' } },
          { name: 'v2', labels: { version: 'v2' } },
        ],
      },
    });
    s.pods.forEach((p, k) => {
      const podIp = `10.16.${p.octet}.${i * 2 + k + 1}`;
      out.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${name(i)}-${p.version}-${k}`,
          namespace: s.ns,
          labels: { app: s.app ? name(i) : `app-${i}`, version: p.version },
        },
        spec: { containers: [{ name: 'app', image: 'app', ports: [{ containerPort: 8080 }] }] },
        status: {
          phase: 'Running',
          podIP: podIp,
          podIPs: [{ ip: podIp }],
          conditions: [{ type: 'Ready', status: p.ready ? 'True' : 'False' }],
        },
      });
    });
    if (!s.vs) return;
    const to = s.vs.other ? (i + 1) % m.services.length : i;
    const dest = (subset: string, weight: number) => ({ destination: { host: host(to), subset }, weight });
    const match = s.vs.header === 'none' ? [] : [{ headers: { 'end-user': { exact: s.vs.header === 'own' ? name(i) : 'jason' } } }];
    out.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: name(i), namespace: s.ns },
      spec: {
        hosts: [name(i)],
        http: [
          ...(match.length ? [{ match, route: [dest('v2', 100)] }] : []),
          {
            ...(s.vs.timeout ? { timeout: s.vs.timeout } : {}),
            route: s.vs.weight === 100 ? [dest('v1', 100)] : [dest('v1', s.vs.weight), dest('v2', 100 - s.vs.weight)],
          },
        ],
      },
    });
  });
  m.clients.forEach((ns, k) => {
    const ip = `10.0.0.${k + 1}`;
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `client-${k}`, namespace: ns, labels: { app: `client-${k}`, version: 'v1' } },
      spec: { containers: [{ name: 'app', image: 'app' }] },
      status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
    });
  });
  return out;
}

describe('virtual hosts and CLAs written from a template (property: = their own encoding)', () => {
  it('every sidecar of a generated mesh with VirtualServices, served in any order through one cache, gets its own bytes', () => {
    let templatedSome = 0;
    let templated = 0;
    let endpointsSome = 0;
    let endpoints = 0;
    fc.assert(
      fc.property(meshArb, fc.infiniteStream(fc.nat()), (m, rand) => {
        const cache = serveInRandomOrder(snapshotOfObjects(objects(m)), rand);
        if (cache.memo.templatedVirtualHosts > 0) templatedSome++;
        templated += cache.memo.templatedVirtualHosts;
        if (cache.memo.templatedEndpoints > 0) endpointsSome++;
        endpoints += cache.memo.templatedEndpoints;
      }),
      { numRuns: 150, seed: 24 },
    );
    // Not vacuous: many runs wrote some virtual hosts from another service's template.
    expect(templatedSome).toBeGreaterThan(25);
    expect(templated).toBeGreaterThan(40);
    // … and some services' CLAs from another's.
    expect(endpointsSome).toBeGreaterThan(60);
    expect(endpoints).toBeGreaterThan(200);
  }, 600_000);
});
