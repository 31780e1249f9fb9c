// The generated mesh of the incremental-build property tests (snapshotIncremental.property.test.ts,
// translate/view/viewCarry.property.test.ts): one object per slot (one file per slot, its kind fixed by the slot) in
// one of 60 variants, and the random edits over them, mostly in-place replacements of the kinds an incremental build
// narrows (a pod's IP, labels, readiness; one VirtualService, DestinationRule, Sidecar, …).
import fc from 'fast-check';
import type { RawInput, RawObject } from './inputs';
import type { SnapshotEdit } from './snapshotEdits.testing';

const ts = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');
export const GROUP = 10;

/** One object by slot (kind by slot % GROUP, fixed per slot so an edit keeps its key) in one of a few variants. */
export function objectFor(slot: number, v: number): RawObject {
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

export const SLOTS = 4 * GROUP;
/** In-place replacements of the narrowed kinds dominate; the rest keep the fallback honest. */
export const narrowedSlot = fc
  .nat(SLOTS - 1)
  .filter((s) => [2, 3, 4, 5, 6, 7].includes(s % GROUP) || (s % GROUP === 9 && s < GROUP) || (s % GROUP === 0 && s >= 2 * GROUP));
export const edit: fc.Arbitrary<SnapshotEdit> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant('put' as const), slot: narrowedSlot, variant: fc.nat(59) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('put' as const), slot: fc.nat(SLOTS - 1), variant: fc.nat(59) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('delete' as const, 'move' as const, 'touch' as const), at: fc.nat() }) },
);

export const input = (slot: number, variant: number): RawInput => ({
  object: objectFor(slot, variant),
  origin: { source: 'file', file: `f${slot}.yaml`, doc: 0 },
});
