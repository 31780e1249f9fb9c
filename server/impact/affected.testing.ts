// Test support for affected.ts: the exact answer (translate + encode every proxy of both snapshots and
// compare per-type digests) and a generator of realistic mutations of a mesh's raw inputs. Test-only.
import { DEFAULT_OPTIONS, type MeshSnapshot } from '../model/mesh';
import { Store, type StoreChange } from '../sources/store';
import type { RawInput, RawObject } from '../sources/types';
import type { ResourceKind } from './affected';
import { proxyResources } from '../pipeline/proxyResources';

export type TypeDigests = Map<string, Record<ResourceKind, string>>;

/** Per proxy, per type: a digest of the encoded resources (names + content hashes). */
export function typeDigests(snap: MeshSnapshot): TypeDigests {
  const out: TypeDigests = new Map();
  for (const p of snap.proxies) {
    const r = proxyResources(snap, p.id, DEFAULT_OPTIONS);
    if (!r) continue;
    const d = (list: typeof r.listeners) => list.map((e) => `${e.name}/${e.hash}`).join('\n');
    out.set(p.id, { listeners: d(r.listeners), routes: d(r.routes), clusters: d(r.clusters), endpoints: d(r.endpoints) });
  }
  return out;
}

/** Exactly which proxies (added, removed or changed) and which of their types changed. */
export function exactDiff(a: TypeDigests, b: TypeDigests): Map<string, ResourceKind[]> {
  const out = new Map<string, ResourceKind[]>();
  const kinds: ResourceKind[] = ['listeners', 'routes', 'clusters', 'endpoints'];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(id);
    const y = b.get(id);
    const changed = kinds.filter((k) => x?.[k] !== y?.[k] && !(x === undefined && y?.[k] === '') && !(y === undefined && x?.[k] === ''));
    if (!x || !y) out.set(id, changed);
    else if (changed.length > 0) out.set(id, changed);
  }
  return out;
}

/** Runs base → next through a real Store, returning both snapshots and the store's change. */
export function storeTransition(
  base: readonly RawInput[],
  next: readonly RawInput[],
): { prev: MeshSnapshot; next: MeshSnapshot; change: StoreChange } {
  const store = new Store({ debounceMs: 1_000_000 });
  store.replace('t', base);
  store.flush();
  const prev = store.snapshot();
  let change: StoreChange = { version: prev.version, changed: [], endpointsOnly: false };
  store.onChange((_s, c) => (change = c));
  store.replace('t', next);
  store.flush();
  const after = store.snapshot();
  store.close();
  return { prev, next: after, change };
}

export interface Mutation {
  name: string;
  inputs: RawInput[];
}

type Obj = RawObject & { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };

const clone = <T>(v: T): T => structuredClone(v);
const nameOf = (o: Obj) => `${String(o.kind)} ${String(o.metadata?.namespace ?? '')}/${String(o.metadata?.name ?? '')}`;

/** Edits of one object that the translator reads (each kind: what its rules depend on). */
function edits(o: Obj, otherNs: string): Array<[string, (x: Obj) => void]> {
  const spec = (x: Obj) => (x.spec ??= {});
  const md = (x: Obj) => (x.metadata ??= {});
  const common: Array<[string, (x: Obj) => void]> = [];
  switch (o.kind) {
    case 'VirtualService':
    case 'DestinationRule':
    case 'ServiceEntry':
      return [
        ['exportTo .', (x) => void (spec(x).exportTo = ['.'])],
        [`exportTo ${otherNs}`, (x) => void (spec(x).exportTo = [otherNs])],
        ['drop http/subsets', (x) => void (delete spec(x).http, delete spec(x).subsets, delete spec(x).tcp)],
      ];
    case 'Service':
      return [
        [
          'exportTo annotation .',
          (x) => void (md(x).annotations = { ...(md(x).annotations as object), 'networking.istio.io/exportTo': '.' }),
        ],
        [
          'port +1',
          (x) => {
            const ports = (spec(x).ports ?? []) as Array<{ port: number }>;
            if (ports[0]) ports[0].port += 1;
          },
        ],
        ['selector changed', (x) => void (spec(x).selector = { app: 'nothing-selected' })],
      ];
    case 'Deployment':
      return [
        ['replicas +1', (x) => void (spec(x).replicas = Number(spec(x).replicas ?? 1) + 1)],
        [
          'template version label',
          (x) => {
            const t = spec(x).template as { metadata?: { labels?: Record<string, string> } } | undefined;
            if (t?.metadata?.labels) t.metadata.labels.version = 'v-edited';
          },
        ],
      ];
    case 'Gateway':
      return [
        [
          'server port +1',
          (x) => {
            const servers = (spec(x).servers ?? []) as Array<{ port?: { number: number } }>;
            if (servers[0]?.port) servers[0].port.number += 1;
          },
        ],
      ];
    case 'Namespace':
      return [['label', (x) => void (md(x).labels = { ...(md(x).labels as object), edited: 'yes' })]];
    default:
      return common;
  }
}

/**
 * Every object removed, edited (per kind), and copied into another namespace; plus a Sidecar added in
 * each namespace and the root namespace. `namespaces` are the mesh's namespaces (for copies and exportTo).
 */
export function mutations(base: readonly RawInput[], namespaces: readonly string[]): Mutation[] {
  const out: Mutation[] = [];
  base.forEach((input, i) => {
    const o = input.object as Obj;
    const ns = String(o.metadata?.namespace ?? '');
    const otherNs = namespaces.find((n) => n !== ns) ?? ns;
    const without = base.filter((_, j) => j !== i);
    out.push({ name: `remove ${nameOf(o)}`, inputs: without });
    for (const [what, edit] of edits(o, otherNs)) {
      const copy = clone(input);
      edit(copy.object as Obj);
      out.push({ name: `${nameOf(o)}: ${what}`, inputs: base.map((x, j) => (j === i ? copy : x)) });
    }
    if (o.kind !== 'Namespace' && ns && otherNs !== ns) {
      const copy = clone(input);
      const m = ((copy.object as Obj).metadata ??= {});
      m.namespace = otherNs;
      out.push({ name: `copy ${nameOf(o)} to ${otherNs}`, inputs: [...base, copy] });
    }
  });
  for (const ns of [...namespaces, DEFAULT_OPTIONS.rootNamespace]) {
    const sidecar: RawInput = {
      object: {
        apiVersion: 'networking.istio.io/v1',
        kind: 'Sidecar',
        metadata: { name: 'default', namespace: ns },
        spec: { egress: [{ hosts: ['./*'] }] },
      },
      origin: { source: 'file', file: 'added.yaml', doc: 0 },
    };
    out.push({ name: `add Sidecar ${ns}/default (./*)`, inputs: [...base, sidecar] });
  }
  return out;
}
