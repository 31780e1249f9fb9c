// The issue-24 mesh as each shape hands it to the bench server (files, or the fake API server's watch events),
// the route names each namespace's sidecars ask for, and the K distinct-pod clients.
import { rmSync } from 'node:fs';
import { DEFAULT_OPTIONS } from '../server/model/mesh';
import { buildSnapshot } from '../server/model/snapshot';
import { FakeApiServer } from '../server/sources/kube/testing/fakeApiServer';
import { translateProxy } from '../server/translate/index';
import { type IssueMesh, KINDS, type MeshDir, type Shape, withPodIp, withVsWeight, writeIssueMesh } from './issueMesh';

/** The mesh as the shape gives it to a server, and how to make one edit of it. */
interface Input {
  env: Record<string, string>;
  /** Prepares the edit (the file's text, the object) and returns the write itself: the clock starts at the write. */
  editVs(w: number): () => void;
  editPod(gen: number): () => void;
  close(): Promise<void>;
}

export async function inputFor(mesh: IssueMesh, shape: Shape): Promise<Input> {
  if (shape !== 'kube') {
    const d: MeshDir = writeIssueMesh(mesh, shape);
    return {
      env: { BENCH_DIR: d.dir },
      editVs: (w) => d.prepare('VirtualService', withVsWeight(mesh, w)),
      editPod: (gen) => d.prepare('Pod', withPodIp(mesh, gen)),
      close: async () => rmSync(d.dir, { recursive: true, force: true }),
    };
  }
  const fake = new FakeApiServer();
  await fake.start();
  fake.silently(() => {
    for (const k of KINDS) for (const o of mesh.byKind[k]) fake.create(structuredClone(o) as Record<string, unknown>);
  });
  return {
    env: { BENCH_KUBE_URL: fake.url },
    editVs: (w) => {
      const o = withVsWeight(mesh, w)[0]! as Record<string, unknown>;
      return () => fake.update(o);
    },
    editPod: (gen) => {
      const o = withPodIp(mesh, gen)[0]! as Record<string, unknown>;
      return () => fake.update(o);
    },
    close: () => fake.stop(),
  };
}

/** Route names per namespace (all pods of a namespace share its Sidecar, so its listeners' route names). */
export function routeNames(mesh: IssueMesh): Map<string, string[]> {
  const inputs = KINDS.flatMap((k) => mesh.byKind[k]).map((object, doc) => ({ object, origin: { source: 'demo' as const, doc } }));
  const snap = buildSnapshot(inputs, { version: 1 });
  const out = new Map<string, string[]>();
  for (const p of snap.proxies) {
    if (p.type !== 'sidecar' || out.has(p.namespace)) continue;
    out.set(
      p.namespace,
      translateProxy(snap, p, DEFAULT_OPTIONS).routes.map((r) => r.name ?? ''),
    );
  }
  return out;
}

/** K distinct sidecar pods, round-robin over the namespaces; svc-0's own pods (whose IP the bench moves) excluded. */
export function chooseClients(
  proxies: Array<{ id: string; type: string; namespace: string }>,
  k: number,
): Array<{ id: string; namespace: string }> {
  const byNs = new Map<string, Array<{ id: string; namespace: string }>>();
  for (const p of proxies) {
    if (p.type !== 'sidecar' || p.id.startsWith('svc-0-')) continue;
    const l = byNs.get(p.namespace) ?? [];
    l.push(p);
    byNs.set(p.namespace, l);
  }
  const lists = [...byNs.values()];
  const out: Array<{ id: string; namespace: string }> = [];
  for (let i = 0; out.length < k && lists.some((l) => l.length > i); i++)
    for (const l of lists) if (out.length < k && l[i]) out.push(l[i]!);
  return out;
}
