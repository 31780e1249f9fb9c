// The direct WDS writer (wire.ts) against protobuf-es, byte for byte: proto3's binary encoding of
// istio.workload.Address and istio.security.Authorization (proto/ambient; fields in number order, implicit-presence
// zero values left out, `optional` fields written when set, packed repeated scalars, map entries key then value) is
// what ztunnel decodes, and protobuf-es' toBinary is the reference the server used before. Inputs: every Address and
// Authorization the translator makes for the testdata mesh, the demo mesh and a generated mesh, then generated JSON
// that sets every field of every message the writer covers (checked against the descriptors), and JSON the writer
// must leave to protobuf-es.
import { fileURLToPath } from 'node:url';
import { type DescMessage, fromJson, type JsonValue, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { envoyRegistry } from '../../gen/registry';
import type { RawInput } from '../../model/inputs';
import { optionsOf } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { EncodeMemo, encodeTable } from '../../pipeline/encodeTable';
import { ZTUNNEL_PROXY } from '../../pipeline/ztunnelConfig';
import { loadPaths } from '../../sources/file/loadPaths';
import { REPO_ROOT } from '../../testing/paths';
import { translateZtunnel } from './index';
import { WireWriter } from './wire';

type Json = Record<string, unknown>;

const schema = (name: string): DescMessage => {
  const d = envoyRegistry.getMessage(name);
  if (!d) throw new Error(`${name} not generated`);
  return d;
};
const ADDRESS = schema('istio.workload.Address');
const AUTHORIZATION = schema('istio.security.Authorization');
const reference = (desc: DescMessage, json: unknown): string =>
  Buffer.from(toBinary(desc, fromJson(desc, json as JsonValue, { registry: envoyRegistry }))).toString('hex');
const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('hex') : 'declined');

/** Every Address and Authorization of a translated mesh, each written directly and by protobuf-es. */
function checkMesh(inputs: RawInput[]): { addresses: number; authorizations: number } {
  const snap = buildSnapshot(inputs, { version: 1, ambient: true });
  const table = translateZtunnel(snap, ZTUNNEL_PROXY, optionsOf(snap));
  const w = new WireWriter();
  for (const a of table.addresses ?? []) expect(hex(w.address(a))).toBe(reference(ADDRESS, a));
  for (const p of table.authorizations ?? []) expect(hex(w.authorization(p))).toBe(reference(AUTHORIZATION, p));
  // The pipeline's encoding (with and without its memo) serves those same bytes.
  for (const memo of [undefined, new EncodeMemo()]) {
    const r = encodeTable(ZTUNNEL_PROXY, 1, table, memo);
    expect((r.addresses ?? []).map((e) => hex(e.bytes))).toEqual((table.addresses ?? []).map((a) => reference(ADDRESS, a)));
    expect((r.authorizations ?? []).map((e) => hex(e.bytes))).toEqual((table.authorizations ?? []).map((p) => reference(AUTHORIZATION, p)));
  }
  return { addresses: table.addresses?.length ?? 0, authorizations: table.authorizations?.length ?? 0 };
}

/** A generated ambient mesh: namespaces with waypoints (hostname and address forms), Services with named and numeric
 * target ports, pods selected by one, several or no Services, selector and namespace policies, PeerAuthentications. */
function generatedMesh(): RawInput[] {
  const at = (object: Json): RawInput => ({ object, origin: { source: 'file', file: 'generated.yaml' } }) as RawInput;
  const out: RawInput[] = [];
  for (let n = 0; n < 3; n++) {
    const ns = `gen-${n}`;
    out.push(at({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: n === 0 ? { 'istio.io/use-waypoint': 'wp' } : {} } }));
    out.push(
      at({
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'wp', namespace: ns, labels: { 'istio.io/waypoint-for': n === 1 ? 'all' : 'service' } },
        spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
        status: {
          addresses: [n === 2 ? { type: 'Hostname', value: `wp.${ns}.svc.cluster.local` } : { type: 'IPAddress', value: `10.9${n}.0.1` }],
        },
      }),
    );
    for (let s = 0; s < 4; s++)
      out.push(
        at({
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: `svc-${s}`, namespace: ns, labels: n > 0 && s === 0 ? { 'istio.io/use-waypoint': 'wp' } : {} },
          spec: {
            clusterIP: s === 3 ? 'fd00::1' : `10.96.${n}.${s + 1}`,
            selector: s === 2 ? { app: 'svc-0', tier: 'b' } : { app: `svc-${s}` },
            ports: [
              { name: 'http', port: 80, targetPort: s === 1 ? 'web' : 8080 },
              { name: 'grpc-x', port: 9000 + s, appProtocol: 'grpc' },
              { name: 'tcp', port: 5432 + 200 * s, targetPort: 40000 + s },
            ],
          },
        }),
      );
    for (let p = 0; p < 12; p++)
      out.push(
        at({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `pod-${p}`,
            namespace: ns,
            labels: {
              app: `svc-${p % 4}`,
              ...(p % 3 === 0 ? { tier: 'b' } : {}),
              ...(p === 5 ? { 'networking.istio.io/tunnel': 'http' } : {}),
            },
            annotations: p === 7 ? {} : { 'ambient.istio.io/redirection': 'enabled' },
          },
          spec: {
            nodeName: `node-${p % 2}`,
            containers: [{ name: 'app', image: 'app', ports: [{ name: 'web', containerPort: 8000 + p }] }],
          },
          status: {
            podIP: p === 4 ? `fd00::${p + 10}` : `10.20${n}.0.${p + 1}`,
            conditions: [{ type: 'Ready', status: p === 3 ? 'False' : 'True' }],
          },
        }),
      );
    out.push(
      at({
        apiVersion: 'security.istio.io/v1',
        kind: 'AuthorizationPolicy',
        metadata: { name: 'sel', namespace: ns },
        spec: {
          selector: { matchLabels: { app: 'svc-1' } },
          action: n === 1 ? 'DENY' : 'ALLOW',
          rules: [
            {
              from: [
                {
                  source: {
                    namespaces: ['a', 'b*', '*c', '*'],
                    principals: ['x/ns/y/sa/z'],
                    ipBlocks: ['10.0.0.0/8', 'fd00::/16', '1.2.3.4'],
                  },
                },
              ],
              to: [{ operation: { ports: ['80', '8080'], notPorts: ['9'] } }],
              when: [{ key: 'destination.ip', values: ['10.1.0.0/16'], notValues: ['10.1.2.3'] }],
            },
            { from: [{ source: { serviceAccounts: ['sa-a', 'other/sa-b'], notServiceAccounts: ['sa-c'] } }] },
          ],
        },
      }),
    );
  }
  out.push(
    at({
      apiVersion: 'security.istio.io/v1',
      kind: 'PeerAuthentication',
      metadata: { name: 'default', namespace: 'istio-system' },
      spec: { mtls: { mode: 'STRICT' } },
    }),
  );
  out.push(
    at({
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'allow-nothing', namespace: 'gen-0' },
      spec: {},
    }),
  );
  return out;
}

// ---- generated JSON covering every field ----

/** A small deterministic generator (no Math.random: a failing case must be reproducible). */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}
type Rng = ReturnType<typeof rng>;

const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
function text(r: Rng): string {
  const kind = r.int(6);
  if (kind === 0) return '';
  if (kind === 1) return 'x'.repeat(130 + r.int(300)); // a two-byte length
  if (kind === 2) return `ünïcødé-${r.int(100)}-名前-😀`; // multi-byte UTF-8, a surrogate pair
  return `name-${r.int(100000)}`;
}
const ipBytes = (r: Rng) => b64(Array.from({ length: r.chance(0.5) ? 4 : 16 }, () => r.int(256)));
const uint = (r: Rng) => r.pick([0, 1, 127, 128, 300, 15008, 16383, 16384, 2 ** 21, 2 ** 28, 0xffffffff]);
const some = <T>(r: Rng, make: () => T, max = 3): T[] => Array.from({ length: r.int(max + 1) }, make);

function networkAddress(r: Rng): Json {
  const a: Json = {};
  if (r.chance(0.5)) a['network'] = text(r);
  if (r.chance(0.9)) a['address'] = r.chance(0.1) ? '' : ipBytes(r);
  if (r.chance(0.4)) a['length'] = r.pick([0, 8, 24, 32, 128]);
  return a;
}
function gatewayAddress(r: Rng): Json {
  const g: Json = {};
  const form = r.int(3);
  if (form === 0) g['hostname'] = { namespace: text(r), hostname: text(r) };
  if (form === 1) g['address'] = networkAddress(r);
  if (r.chance(0.8)) g['hboneMtlsPort'] = uint(r);
  return g;
}
function port(r: Rng): Json {
  const p: Json = { servicePort: uint(r) };
  if (r.chance(0.6)) p['targetPort'] = uint(r);
  if (r.chance(0.6)) p['appProtocol'] = r.pick(['UNKNOWN', 'HTTP11', 'HTTP2', 'GRPC', 'TCP', 'TLS']);
  return p;
}
function workload(r: Rng): Json {
  const w: Json = {};
  const maybe = (k: string, v: () => unknown, p = 0.6) => {
    if (r.chance(p)) w[k] = v();
  };
  maybe('uid', () => text(r));
  maybe('name', () => text(r));
  maybe('namespace', () => text(r));
  maybe('addresses', () => some(r, () => (r.chance(0.1) ? '' : ipBytes(r))));
  maybe('hostname', () => text(r));
  maybe('network', () => text(r));
  maybe('tunnelProtocol', () => r.pick(['NONE', 'HBONE', 'LEGACY_ISTIO_MTLS']));
  maybe('trustDomain', () => text(r));
  maybe('serviceAccount', () => text(r));
  maybe('waypoint', () => gatewayAddress(r));
  maybe('networkGateway', () => gatewayAddress(r));
  maybe('node', () => text(r));
  maybe('canonicalName', () => text(r));
  maybe('canonicalRevision', () => text(r));
  maybe('workloadType', () => r.pick(['DEPLOYMENT', 'CRONJOB', 'POD', 'JOB']));
  maybe('workloadName', () => text(r));
  maybe('nativeTunnel', () => r.chance(0.5));
  maybe('authorizationPolicies', () => some(r, () => text(r)));
  maybe('status', () => r.pick(['HEALTHY', 'UNHEALTHY']));
  maybe('clusterId', () => text(r));
  maybe('services', () => {
    const m: Json = {};
    for (let i = r.int(4); i > 0; i--)
      m[r.chance(0.1) ? '' : `ns-${r.int(9)}/${text(r)}`] = r.chance(0.2) ? {} : { ports: some(r, () => port(r)) };
    return m;
  });
  maybe('applicationTunnel', () => (r.chance(0.2) ? {} : { protocol: r.pick(['NONE', 'PROXY']), port: uint(r) }));
  maybe('locality', () => {
    const l: Json = {};
    for (const k of ['region', 'zone', 'subzone']) if (r.chance(0.6)) l[k] = text(r);
    return l;
  });
  maybe('networkMode', () => r.pick(['STANDARD', 'HOST_NETWORK']));
  maybe('capacity', () => uint(r));
  return w;
}
function service(r: Rng): Json {
  const s: Json = {};
  const maybe = (k: string, v: () => unknown, p = 0.6) => {
    if (r.chance(p)) s[k] = v();
  };
  maybe('name', () => text(r));
  maybe('namespace', () => text(r));
  maybe('hostname', () => text(r));
  maybe('addresses', () => some(r, () => networkAddress(r)));
  maybe('ports', () => some(r, () => port(r), 5));
  maybe('subjectAltNames', () => some(r, () => text(r)));
  maybe('waypoint', () => gatewayAddress(r));
  maybe('loadBalancing', () => {
    const lb: Json = {};
    const scopes = ['UNSPECIFIED_SCOPE', 'REGION', 'ZONE', 'SUBZONE', 'NODE', 'CLUSTER', 'NETWORK'];
    if (r.chance(0.7)) lb['routingPreference'] = some(r, () => r.pick(scopes), 4);
    if (r.chance(0.7)) lb['mode'] = r.pick(['UNSPECIFIED_MODE', 'STRICT', 'FAILOVER', 'PASSTHROUGH']);
    if (r.chance(0.7)) lb['healthPolicy'] = r.pick(['ONLY_HEALTHY', 'ALLOW_ALL']);
    return lb;
  });
  maybe('ipFamilies', () => r.pick(['AUTOMATIC', 'IPV4_ONLY', 'IPV6_ONLY', 'DUAL']));
  maybe('canonical', () => r.chance(0.5));
  maybe('ingressUseWaypoint', () => r.chance(0.5));
  maybe('weightedWaypoints', () => some(r, () => (r.chance(0.2) ? {} : { destination: gatewayAddress(r), weight: uint(r) })));
  maybe('visibility', () => r.pick(['PUBLIC', 'NAMESPACE']));
  return s;
}
function stringMatch(r: Rng): Json {
  return r.pick([() => ({ exact: text(r) }), () => ({ prefix: text(r) }), () => ({ suffix: text(r) }), () => ({ presence: {} })])();
}
function authorization(r: Rng): Json {
  const a: Json = {};
  if (r.chance(0.8)) a['name'] = text(r);
  if (r.chance(0.8)) a['namespace'] = text(r);
  if (r.chance(0.6)) a['scope'] = r.pick(['GLOBAL', 'NAMESPACE', 'WORKLOAD_SELECTOR']);
  if (r.chance(0.6)) a['action'] = r.pick(['ALLOW', 'DENY']);
  if (r.chance(0.3)) a['dryRun'] = r.chance(0.5);
  const address = () => {
    const x: Json = {};
    if (r.chance(0.9)) x['address'] = ipBytes(r);
    if (r.chance(0.8)) x['length'] = r.pick([0, 8, 32, 128]);
    return x;
  };
  const sa = () => {
    const x: Json = {};
    if (r.chance(0.8)) x['namespace'] = text(r);
    if (r.chance(0.8)) x['serviceAccount'] = text(r);
    return x;
  };
  const match = (): Json => {
    const m: Json = {};
    for (const k of ['namespaces', 'notNamespaces', 'principals', 'notPrincipals']) if (r.chance(0.4)) m[k] = some(r, () => stringMatch(r));
    for (const k of ['sourceIps', 'notSourceIps', 'destinationIps', 'notDestinationIps']) if (r.chance(0.4)) m[k] = some(r, address);
    for (const k of ['destinationPorts', 'notDestinationPorts']) if (r.chance(0.4)) m[k] = some(r, () => uint(r), 5);
    for (const k of ['serviceAccounts', 'notServiceAccounts']) if (r.chance(0.4)) m[k] = some(r, sa);
    return m;
  };
  if (r.chance(0.8))
    a['groups'] = some(r, () => (r.chance(0.2) ? {} : { rules: some(r, () => (r.chance(0.2) ? {} : { matches: some(r, match) })) }), 4);
  return a;
}

/** The JSON names set anywhere in `json` under each message type, walking it with the descriptors. */
function fieldsSeen(desc: DescMessage, json: unknown, seen: Map<string, Set<string>>): void {
  if (typeof json !== 'object' || json === null) return;
  const set = seen.get(desc.typeName) ?? new Set<string>();
  seen.set(desc.typeName, set);
  for (const f of desc.fields) {
    const v = (json as Json)[f.jsonName];
    if (v === undefined) continue;
    set.add(f.jsonName);
    const sub =
      f.fieldKind === 'message' ||
      (f.fieldKind === 'list' && f.listKind === 'message') ||
      (f.fieldKind === 'map' && f.mapKind === 'message')
        ? f.message
        : undefined;
    if (!sub || sub.typeName.startsWith('google.protobuf.')) continue;
    const values = f.fieldKind === 'list' ? (v as unknown[]) : f.fieldKind === 'map' ? Object.values(v as Json) : [v];
    for (const x of values) fieldsSeen(sub, x, seen);
  }
}

describe('WDS wire writer = protobuf-es, byte for byte', () => {
  it('every Address and Authorization of the testdata mesh', () => {
    const n = checkMesh(loadPaths([fileURLToPath(new URL('./testdata/ambient.yaml', import.meta.url))]).inputs);
    expect(n.addresses).toBeGreaterThan(5);
    expect(n.authorizations).toBeGreaterThan(0);
  });

  it('every Address and Authorization of the demo mesh (examples/demo)', () => {
    const n = checkMesh(loadPaths([`${REPO_ROOT}/examples/demo`]).inputs);
    expect(n.addresses).toBeGreaterThan(10);
  });

  it('every Address and Authorization of a generated mesh (waypoints in both address forms, IPv6, named ports, policies)', () => {
    const inputs = generatedMesh();
    const n = checkMesh(inputs);
    expect(n.addresses).toBeGreaterThan(3 * 12);
    // The mesh reaches what it was made for: both waypoint address forms, IPv6 bytes, several Services per pod.
    const snap = buildSnapshot(inputs, { version: 1, ambient: true });
    const text = JSON.stringify(translateZtunnel(snap, ZTUNNEL_PROXY, optionsOf(snap)).addresses);
    expect(text).toContain('"waypoint":{"hostname":');
    expect(text).toContain('"waypoint":{"address":');
    expect(text).toContain('"addresses":["/QAAAAAAAAAAAAAAAAAAFA=="]'); // fd00::14
    expect(text).toMatch(/"services":\{"gen-0\/svc-0\.gen-0\.svc\.cluster\.local":\{"ports":\[[^\]]*\]\},"gen-0\/svc-2/);
  });

  it('generated JSON that sets every field of every message it covers', () => {
    const r = rng(20);
    const w = new WireWriter();
    const seen = new Map<string, Set<string>>();
    for (let i = 0; i < 1500; i++) {
      const a = r.chance(0.5) ? { workload: workload(r) } : { service: service(r) };
      expect(hex(w.address(a)), JSON.stringify(a)).toBe(reference(ADDRESS, a));
      fieldsSeen(ADDRESS, a, seen);
      const p = authorization(r);
      expect(hex(w.authorization(p)), JSON.stringify(p)).toBe(reference(AUTHORIZATION, p));
      fieldsSeen(AUTHORIZATION, p, seen);
    }
    // Coverage, from the descriptors: every field except the Extensions (an Any: left to protobuf-es) was set.
    for (const [typeName, set] of seen) {
      const desc = schema(typeName);
      const missing = desc.fields.filter((f) => f.jsonName !== 'extensions' && !set.has(f.jsonName)).map((f) => f.jsonName);
      expect(missing, typeName).toEqual([]);
    }
    expect([...seen.keys()].sort()).toEqual(
      [
        'istio.security.Address',
        'istio.security.Authorization',
        'istio.security.Group',
        'istio.security.Match',
        'istio.security.Rules',
        'istio.security.ServiceAccountMatch',
        'istio.security.StringMatch',
        'istio.workload.Address',
        'istio.workload.ApplicationTunnel',
        'istio.workload.GatewayAddress',
        'istio.workload.LoadBalancing',
        'istio.workload.Locality',
        'istio.workload.NamespacedHostname',
        'istio.workload.NetworkAddress',
        'istio.workload.Port',
        'istio.workload.PortList',
        'istio.workload.Service',
        'istio.workload.WeightedWaypoint',
        'istio.workload.Workload',
      ].sort(),
    );
  });

  it('a message longer than the scratch buffer and lengths of three varint bytes', () => {
    const w = new WireWriter();
    const big = { workload: { uid: 'u', authorizationPolicies: Array.from({ length: 400 }, (_, i) => `ns/${'p'.repeat(100)}-${i}`) } };
    expect(hex(w.address(big))).toBe(reference(ADDRESS, big));
    const deep = { service: { name: 's', ports: Array.from({ length: 5000 }, (_, i) => ({ servicePort: i + 1, targetPort: 70000 + i })) } };
    expect(hex(w.address(deep))).toBe(reference(ADDRESS, deep));
    // The writer is reusable after a large message.
    const small = { workload: { uid: 'u2' } };
    expect(hex(w.address(small))).toBe(reference(ADDRESS, small));
  });

  it('leaves to protobuf-es what it does not know exactly; the pipeline still encodes it (or reports its error)', () => {
    const w = new WireWriter();
    const declined: unknown[] = [
      { workload: { uid: 'u', extensions: [{ name: 'x' }] } }, // an Any: protobuf-es' registry
      { workload: { uid: 'u', workload_name: 'snake' } }, // the proto name form
      { workload: { uid: 'u', status: 1 } }, // an enum by number
      { workload: { uid: 'u', node: null } }, // null: proto3 JSON's "unset"
      { workload: { uid: 'u', addresses: ['CgAAAQ'] } }, // base64 without padding
      { workload: { uid: 'u', addresses: ['-_8='] } }, // URL-safe base64
      { workload: { uid: 'u', capacity: '5' } }, // a number as a string
      { workload: { uid: 'u' }, service: { name: 's' } }, // both members of a oneof
      { service: { name: 's', waypoint: { hostname: { hostname: 'h' }, address: { address: 'CgAAAQ==' } } } },
    ];
    expect(w.address({})).toBeUndefined();
    for (const json of declined) {
      expect(w.address(json), JSON.stringify(json)).toBeUndefined();
      let expected: string;
      try {
        expected = `bytes ${reference(ADDRESS, json)}`;
      } catch {
        expected = 'error';
      }
      const r = encodeTable(ZTUNNEL_PROXY, 1, { ...emptyTable(), addresses: [json as never] });
      const got = r.addresses!.length === 1 ? `bytes ${hex(r.addresses![0]!.bytes)}` : 'error';
      expect(got, JSON.stringify(json)).toBe(expected);
      if (got === 'error') expect(r.errors.map((e) => e.message).join('\n')).toMatch(/could not encode Address/);
    }
    expect(
      w.authorization({ name: 'p', groups: [{ rules: [{ matches: [{ namespaces: [{ exact: 'a', prefix: 'b' }] }] }] }] }),
    ).toBeUndefined();
    expect(w.authorization({ name: 'p', action: 'AUDIT' })).toBeUndefined();
    // Declining one message does not disturb the next.
    const ok = { name: 'p', namespace: 'n', action: 'DENY' };
    expect(hex(w.authorization(ok))).toBe(reference(AUTHORIZATION, ok));
  });

  it('writes zero values only where proto3 says they are present', () => {
    const w = new WireWriter();
    // Implicit presence: an empty string, a 0, false and an enum's first value are left out ...
    const zeros = {
      workload: { uid: '', nativeTunnel: false, workloadType: 'DEPLOYMENT', status: 'HEALTHY', waypoint: { hboneMtlsPort: 0 } },
    };
    expect(hex(w.address(zeros))).toBe(reference(ADDRESS, zeros));
    // ... a set message, a set oneof member, an `optional` field and a wrapper are written even when empty or 0.
    const present = { service: { addresses: [{ length: 0 }], waypoint: { hostname: {} } } };
    expect(hex(w.address(present))).toBe(reference(ADDRESS, present));
    expect(hex(w.address({ workload: { capacity: 0 } }))).toBe(reference(ADDRESS, { workload: { capacity: 0 } }));
    const oneof = { name: 'p', groups: [{ rules: [{ matches: [{ namespaces: [{ exact: '' }, { presence: {} }] }] }] }] };
    expect(hex(w.authorization(oneof))).toBe(reference(AUTHORIZATION, oneof));
  });
});

function emptyTable() {
  return { listeners: [], routes: [], clusters: [], endpoints: [], errors: [], provenance: [] };
}
