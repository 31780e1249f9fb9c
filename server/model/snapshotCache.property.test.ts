// Incremental snapshot builds are invisible: over random edit sequences on a generated mesh (fast-check), a
// build that reuses per-object results (model/snapshotCache, as the store does) equals a build from scratch of
// the same inputs — deep equality including Map order, errors and their locations, rejected configs, Ingress and
// Gateway API conversions, the mesh config and redacted Secrets. Issue 12: "change → new snapshot ≤ 50 ms"
// must not change what the snapshot says.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawInput, RawObject } from './inputs';
import { buildSnapshot } from './snapshot';
import { SnapshotCache } from './snapshotCache';
import { applyEdit, expectSameSnapshot, serSnapshot } from './snapshotEdits.testing';

const ts = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');

/** One object of the mesh in one of a few variants (valid, edited, invalid…), by slot. */
function objectFor(slot: number, variant: number): RawObject {
  // Slots come in groups of 12 (one service's objects, kind by slot % 12); groups 0/2 and 1/3 share a namespace.
  const group = Math.floor(slot / 12);
  const ns = `ns-${group % 2}`;
  const name = `s${group}`;
  const created = variant % 2 === 0 ? {} : { creationTimestamp: ts(slot) };
  switch (slot % 12) {
    case 0:
      return {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns, labels: variant % 3 === 0 ? {} : { 'istio-injection': 'enabled' } },
      };
    case 1:
      return {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace: ns, ...created },
        spec: {
          selector: { app: name },
          ports: [{ name: 'http', port: 80 + (variant % 2), targetPort: variant % 3 === 0 ? 'web' : 8080 }],
        },
      };
    case 2:
      return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: `${name}-v${variant % 2}`, namespace: ns, ...created },
        spec: {
          replicas: 1 + (variant % 3),
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name, version: `v${variant % 2}` } },
            spec: { containers: [{ name: 'app', image: 'a:1', ports: [{ name: 'web', containerPort: 8080 }] }] },
          },
        },
      };
    case 3:
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `${name}-bare`, namespace: ns, labels: { app: name }, ...created },
        spec: { containers: [{ name: 'app', image: 'a:1', ports: [{ name: 'web', containerPort: 8080 }] }] },
        status: { phase: 'Running', ...(variant % 3 === 2 ? {} : { podIP: `10.1.${slot % 250}.${1 + (variant % 200)}` }) },
      };
    case 4:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name, namespace: ns, ...created },
        spec:
          variant % 4 === 3
            ? { hosts: [name], http: [{ route: [{ destination: { host: name }, weight: 'heavy' }] }] } // unreadable
            : variant % 4 === 2
              ? {
                  hosts: [name],
                  http: [
                    {
                      route: [
                        { destination: { host: name }, weight: 30 },
                        { destination: { host: name }, weight: 30 },
                      ],
                    },
                  ],
                } // rejected
              : {
                  hosts: [name],
                  gateways: ['mesh', 'istio-system/ingress'],
                  http: [{ route: [{ destination: { host: name, subset: `v${variant % 2}` } }] }],
                },
      };
    case 5:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'DestinationRule',
        metadata: { name, namespace: ns, ...created },
        spec: {
          host: name,
          subsets: [0, 1].map((v) => ({ name: `v${v}`, labels: { version: `v${v}` } })),
          ...(variant % 2 ? { unknownField: 1 } : {}),
        },
      };
    case 6:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'Gateway',
        metadata: { name: 'ingress', namespace: 'istio-system', ...created },
        spec: {
          selector: { istio: 'ingressgateway' },
          servers: [{ port: { number: 80 + (variant % 2), name: 'http', protocol: 'HTTP' }, hosts: ['*/*'] }],
        },
      };
    case 7:
      return {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name, namespace: ns, annotations: { 'kubernetes.io/ingress.class': 'istio' }, ...created },
        spec: {
          rules: [
            {
              host: `h${variant % 3}.example`,
              http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } }] },
            },
          ],
        },
      };
    case 8:
      return variant % 2 === 0
        ? {
            apiVersion: 'gateway.networking.k8s.io/v1',
            kind: 'Gateway',
            metadata: { name: 'gw', namespace: ns, ...created },
            spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 8080 + (variant % 3), protocol: 'HTTP' }] },
          }
        : {
            apiVersion: 'gateway.networking.k8s.io/v1',
            kind: 'HTTPRoute',
            metadata: { name, namespace: ns, ...created },
            spec: { parentRefs: [{ name: 'gw' }], rules: [{ backendRefs: [{ name, port: 80 }] }] },
          };
    case 9:
      return {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `cert-${name}`, namespace: ns, ...created },
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': `Y2VydA${variant}`, 'tls.key': 'a2V5' },
      };
    case 10:
      return {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'istio', namespace: 'istio-system' },
        data: {
          mesh:
            variant % 3 === 2
              ? 'outboundTrafficPolicy: ['
              : `outboundTrafficPolicy:\n  mode: ${variant % 2 ? 'REGISTRY_ONLY' : 'ALLOW_ANY'}\n`,
        },
      };
    default:
      return variant % 3 === 0
        ? { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: ns } }
        : {
            apiVersion: 'networking.istio.io/v1',
            kind: 'Sidecar',
            metadata: { name: 'default', namespace: ns, ...created },
            spec: { egress: [{ hosts: ['./*'] }] },
          };
  }
}

type Edit =
  | { op: 'put'; slot: number; variant: number }
  | { op: 'delete'; at: number }
  | { op: 'move'; at: number }
  | { op: 'touch'; at: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), slot: fc.nat(47), variant: fc.nat(11) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat() }),
  // The same content as a new object (a relist, a re-read file): no cache hit by identity.
  fc.record({ op: fc.constant('touch' as const), at: fc.nat() }),
);

const input = (slot: number, variant: number): RawInput => ({
  object: objectFor(slot, variant),
  origin: { source: 'file', file: `f${slot}.yaml`, doc: 0 },
});

const apply = (list: RawInput[], e: Edit): RawInput[] => applyEdit(list, e, input);

describe('SnapshotCache: an incremental build equals a build from scratch', () => {
  it('after every step of random add/change/delete/move sequences on a generated mesh', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(47), fc.nat(11)), { minLength: 8, maxLength: 30 }),
        fc.array(edit, { minLength: 1, maxLength: 25 }),
        (initial, edits) => {
          const cache = new SnapshotCache();
          let inputs = initial.reduce<RawInput[]>((l, [slot, variant]) => apply(l, { op: 'put', slot, variant }), []);
          let version = 1;
          const check = () => {
            const opts = { version, secretsWatched: version % 2 === 0 };
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
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a Pod that takes the IP a Deployment pod was given moves that pod: the reused pod is rebuilt with its new IP', () => {
    // buildPods: explicit pod IPs are reserved first, synthetic pods take the next free address (parse/hash IpPool).
    const cache = new SnapshotCache();
    const base = [input(0, 1), input(1, 1), input(2, 1)];
    const before = buildSnapshot(base, { version: 1, cache });
    const synthetic = before.pods.find((p) => p.owner?.kind === 'Deployment')!;
    const squatter: RawInput = {
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'squatter', namespace: synthetic.namespace, labels: { app: 'other' } },
        spec: { containers: [{ name: 'app', image: 'a:1' }] },
        status: { phase: 'Running', podIP: synthetic.ip },
      },
      origin: { source: 'file', file: 'squatter.yaml' },
    };
    const inputs = [...base, squatter];
    const incremental = buildSnapshot(inputs, { version: 2, cache });
    expect(incremental.pods.find((p) => p.name === synthetic.name)!.ip).not.toBe(synthetic.ip);
    expect(serSnapshot(incremental)).toBe(serSnapshot(buildSnapshot(inputs, { version: 2 })));
  });

  it('the generated mesh exercises what the cache keeps: pods, endpoints, rejected configs, conversions, redaction', () => {
    // Guards the property above against a generator that stops producing the interesting cases.
    const inputs = Array.from({ length: 48 }, (_, slot) => input(slot, slot % 12 === 4 ? 2 : 1));
    const s = buildSnapshot(inputs, { version: 1, cache: new SnapshotCache() });
    expect(s.pods.some((p) => p.owner?.kind === 'Deployment')).toBe(true);
    expect(s.pods.some((p) => p.owner === undefined)).toBe(true);
    expect([...s.endpoints.values()].some((byPort) => [...byPort.values()].some((l) => l.length > 0))).toBe(true);
    expect(s.rejectedConfigs?.length).toBeGreaterThan(0);
    expect(s.virtualServices.some((v) => v.generatedBy?.kind === 'Ingress')).toBe(true);
    expect(s.gatewayApi).toBeDefined();
    expect(s.errors.some((e) => e.file !== undefined && e.path !== undefined)).toBe(true);
    expect(JSON.stringify(s)).not.toContain('a2V5'); // the TLS key never enters the snapshot
  });
});
