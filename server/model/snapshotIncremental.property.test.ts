// The incremental snapshot build (./snapshotIncremental) is invisible: over random edit sequences on a generated
// ambient mesh whose edits mostly replace one object in place (a pod's IP, labels, readiness, ambient annotation;
// one VirtualService, DestinationRule, Sidecar, AuthorizationPolicy, Istio Gateway) — the changes it narrows —
// mixed with edits it must not narrow (namespace labels, Services, EndpointSlices, ServiceEntries, WorkloadEntries,
// Gateway API objects incl. waypoint Gateways, adds, deletes, moves), a build through the store's SnapshotCache
// equals a build from scratch of the same inputs: deep equality and the same Map order. Issue 24: "an incremental
// build from any sequence of document-level edits equals a build from scratch".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawInput, RawObject } from './inputs';
import { buildSnapshot } from './snapshot';
import { SnapshotCache } from './snapshotCache';
import { applyEdit, expectSameSnapshot, type SnapshotEdit } from './snapshotEdits.testing';

const ts = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');
const GROUP = 10;

/** One object by slot (kind by slot % GROUP, fixed per slot so an edit keeps its key) in one of a few variants. */
function objectFor(slot: number, v: number): RawObject {
  const g = Math.floor(slot / GROUP);
  const ns = `ns-${g % 2}`;
  const name = `s${g}`;
  const created = v % 4 === 0 ? {} : { creationTimestamp: ts(v % 3) };
  const pod = (suffix: string, octet: number): RawObject => {
    const app = v % 5 === 4 ? `s${(g + 2) % 4}` : name; // moves to the other Service of its namespace
    const waypointPod = suffix === 'b' && g < 2 && v % 6 === 5;
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${name}-${suffix}`,
        namespace: ns,
        labels: {
          app,
          version: `v${v % 2}`,
          ...(v % 7 === 3 ? { 'istio.io/use-waypoint': 'wp' } : {}),
          ...(waypointPod
            ? { 'gateway.networking.k8s.io/gateway-name': 'wp', 'gateway.istio.io/managed': 'istio.io-mesh-controller' }
            : {}),
        },
        annotations: v % 3 === 1 ? {} : { 'ambient.istio.io/redirection': 'enabled' },
        ...created,
      },
      spec: {
        containers: [
          { name: 'app', image: 'a:1', ports: [{ name: 'web', containerPort: 8080 + (v % 2) }] },
          ...(v % 8 === 6 ? [{ name: 'istio-proxy', image: 'proxyv2' }] : []),
        ],
      },
      status: {
        phase: 'Running',
        ...(v % 11 === 10 ? {} : { podIP: `10.${octet}.${g}.${1 + (v % 4)}` }),
        conditions: [{ type: 'Ready', status: v % 9 === 8 ? 'False' : 'True' }],
      },
    };
  };
  switch (slot % GROUP) {
    case 0: {
      if (g >= 2)
        return {
          apiVersion: 'security.istio.io/v1',
          kind: 'PeerAuthentication',
          metadata: { name: 'default', namespace: ns, ...created },
          spec: { mtls: { mode: v % 2 ? 'STRICT' : 'PERMISSIVE' } },
        };
      const labels = [{}, { 'istio-injection': 'enabled' }, { 'istio.io/dataplane-mode': 'ambient' }, { 'istio.io/use-waypoint': 'wp' }];
      return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: labels[v % 4]! } };
    }
    case 1:
      return {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace: ns, labels: v % 3 === 2 ? { 'istio.io/use-waypoint': 'wp' } : {}, ...created },
        spec: {
          clusterIP: `10.96.0.${g + 1}`,
          selector: v % 4 === 3 ? { app: name, version: 'v1' } : { app: name },
          ports: [{ name: 'http', port: 80, targetPort: v % 2 ? 'web' : 8080 }],
        },
      };
    case 2:
      return pod('a', 1);
    case 3:
      return pod('b', 2);
    case 4:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name, namespace: ns, ...created },
        spec: {
          hosts: [name],
          http: [
            {
              route: [
                { destination: { host: name, subset: 'v0' }, weight: 10 * (v % 10) },
                { destination: { host: name, subset: 'v1' }, weight: 100 - 10 * (v % 10) },
              ],
            },
          ],
        },
      };
    case 5:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'DestinationRule',
        metadata: { name, namespace: ns, ...created },
        spec: { host: name, subsets: [0, 1].map((x) => ({ name: `v${x}`, labels: { version: `v${(x + v) % 2}` } })) },
      };
    case 6:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'Sidecar',
        metadata: { name: `sc-${name}`, namespace: ns, ...created },
        spec: {
          ...(v % 2 ? { workloadSelector: { labels: { app: name } } } : {}),
          egress: [{ hosts: v % 3 ? ['./*'] : ['./*', 'istio-system/*'] }],
        },
      };
    case 7:
      return {
        apiVersion: 'security.istio.io/v1',
        kind: 'AuthorizationPolicy',
        metadata: { name, namespace: ns, ...created },
        spec: {
          selector: { matchLabels: { app: name } },
          action: v % 2 ? 'DENY' : 'ALLOW',
          rules: [{ from: [{ source: { namespaces: [ns] } }] }],
        },
      };
    case 8:
      return g < 2
        ? {
            apiVersion: 'gateway.networking.k8s.io/v1',
            kind: 'Gateway',
            metadata: { name: 'wp', namespace: ns, labels: { 'istio.io/waypoint-for': v % 2 ? 'service' : 'all' }, ...created },
            spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
            ...(v % 3 === 0 ? {} : { status: { addresses: [{ type: 'Hostname', value: `wp.${ns}.svc.cluster.local` }] } }),
          }
        : {
            apiVersion: 'gateway.networking.k8s.io/v1',
            kind: 'HTTPRoute',
            metadata: { name, namespace: ns, ...created },
            spec: {
              parentRefs: [{ group: '', kind: 'Service', name: `s${g - 2}` }],
              rules: [{ backendRefs: [{ name: `s${g - 2}`, port: 80, weight: 1 + (v % 3) }] }],
            },
          };
    default:
      switch (g) {
        case 0:
          return {
            apiVersion: 'networking.istio.io/v1',
            kind: 'Gateway',
            metadata: { name: 'ingress', namespace: 'istio-system', ...created },
            spec: {
              selector: { istio: 'ingressgateway' },
              servers: [{ port: { number: 80 + (v % 2), name: 'http', protocol: 'HTTP' }, hosts: ['*/*'] }],
            },
          };
        case 1:
          return {
            apiVersion: 'networking.istio.io/v1',
            kind: 'WorkloadEntry',
            metadata: { name: 'vm', namespace: ns, ...created },
            spec: { address: `10.9.0.${1 + (v % 3)}`, labels: { app: v % 2 ? name : 'vm' } },
          };
        case 2:
          return {
            apiVersion: 'networking.istio.io/v1',
            kind: 'ServiceEntry',
            metadata: { name: 'ext', namespace: ns, ...created },
            spec: {
              hosts: ['ext.example.com'],
              ports: [{ number: 80, name: 'http', protocol: 'HTTP', targetPort: 8080 }],
              resolution: 'STATIC',
              workloadSelector: { labels: { version: `v${v % 2}` } },
            },
          };
        default:
          return {
            apiVersion: 'discovery.k8s.io/v1',
            kind: 'EndpointSlice',
            metadata: { name: `${name}-x`, namespace: ns, labels: { 'kubernetes.io/service-name': name } },
            addressType: 'IPv4',
            ports: [{ name: 'http', port: 8080 }],
            endpoints: [
              { addresses: [`10.1.${g}.${1 + (v % 4)}`], targetRef: { kind: 'Pod', name: `${name}-a`, namespace: ns } },
              { addresses: [`10.2.${g - 2}.${1 + (v % 3)}`], conditions: { ready: v % 2 === 0 } },
            ],
          };
      }
  }
}

type Edit = SnapshotEdit;

const SLOTS = 4 * GROUP;
/** In-place replacements of the narrowed kinds dominate; the rest keep the fallback honest. */
const narrowedSlot = fc
  .nat(SLOTS - 1)
  .filter((s) => [2, 3, 4, 5, 6, 7].includes(s % GROUP) || (s % GROUP === 9 && s < GROUP) || (s % GROUP === 0 && s >= 2 * GROUP));
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant('put' as const), slot: narrowedSlot, variant: fc.nat(59) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('put' as const), slot: fc.nat(SLOTS - 1), variant: fc.nat(59) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('delete' as const, 'move' as const, 'touch' as const), at: fc.nat() }) },
);

const input = (slot: number, variant: number): RawInput => ({
  object: objectFor(slot, variant),
  origin: { source: 'file', file: `f${slot}.yaml`, doc: 0 },
});

const apply = (list: RawInput[], e: Edit): RawInput[] => applyEdit(list, e, input);

describe('incremental snapshot build: equal to a build from scratch', () => {
  const totals = { full: 0, incremental: 0 };
  it.each([true, false])('after every step of random in-place edits on a generated mesh (ambient %s)', (ambient) => {
    fc.assert(
      fc.property(
        // Every slot filled (an in-place edit then keeps the key and position); deletes make room for adds.
        fc.array(fc.nat(59), { minLength: SLOTS, maxLength: SLOTS }),
        fc.array(edit, { minLength: 1, maxLength: 30 }),
        (initial, edits) => {
          const cache = new SnapshotCache();
          let inputs = initial.map((variant, slot) => input(slot, variant));
          let version = 1;
          const check = () => {
            const opts = { version, ambient, extraErrors: [{ severity: 'warning' as const, message: `v${version}` }] };
            const incremental = buildSnapshot(inputs, { ...opts, cache });
            const scratch = buildSnapshot(inputs, opts);
            expectSameSnapshot(incremental, scratch);
          };
          check();
          for (const e of edits) {
            inputs = apply(inputs, e);
            version++;
            check();
          }
          totals.full += cache.stats.full;
          totals.incremental += cache.stats.incremental;
        },
      ),
      { numRuns: 50 },
    );
  });

  it('the property above exercised the incremental path and the fallback', () => {
    // Guards the generator: most steps must take the incremental path, and some must fall back.
    expect(totals.incremental).toBeGreaterThan(totals.full);
    expect(totals.full).toBeGreaterThan(0);
  });

  it('unchanged parts keep their identity: a pod IP change reuses every other pod, service and list', () => {
    const cache = new SnapshotCache();
    const base = Array.from({ length: SLOTS }, (_, slot) => input(slot, 1));
    const before = buildSnapshot(base, { version: 1, ambient: true, cache });
    const next = base.slice();
    next[2] = input(2, 2); // s0-a: another IP, the same labels
    const after = buildSnapshot(next, { version: 2, ambient: true, cache });
    expect(cache.stats).toEqual({ full: 1, incremental: 1 });
    const changed = after.pods.findIndex((p) => p.name === 's0-a');
    expect(after.pods[changed]!.ip).not.toBe(before.pods[changed]!.ip);
    after.pods.forEach((p, i) => i !== changed && expect(p).toBe(before.pods[i]));
    expect(after.services).toBe(before.services);
    expect(after.destinationRules).toBe(before.destinationRules);
    expect(after.virtualServices).toBe(before.virtualServices); // the Gateway API conversion gave the same again
    expect(after.ambient!.services).toBe(before.ambient!.services);
    // ns-0's Service s0 and its ServiceEntry (workloadSelector) may change; nothing of ns-1 does.
    for (const [k, v] of after.endpoints) if (k.startsWith('ns-1/')) expect(v).toBe(before.endpoints.get(k));
  });
});
