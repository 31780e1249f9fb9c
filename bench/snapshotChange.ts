// Snapshot build per change (issues 20 and 24; never asserted): the Store's flush after a replace() of the whole input
// list — as a file source hands it over — for a pod IP change at issue 20's size (10,000 ambient pods / 2,000
// Services) and a pod IP change and a VirtualService edit on issue 24's mesh (N = 1,000, multi-document files).
// Prints wall and CPU medians and the SnapshotCache's counts of full / incremental builds (model/snapshotIncremental).
// `node --import tsx bench/snapshotChange.ts` (SIZE=20|24, ROUNDS).
import { ambientMesh } from './ztunnel';
import { issueMesh, KINDS, withPodIp, withVsWeight } from './issueMesh';
import { Store } from '../server/sources/store';
import type { RawInput, RawObject } from '../server/model/inputs';
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function run(label: string, inputs: RawInput[], ambient: boolean, next: (r: number) => RawInput[]) {
  const store = new Store({ debounceMs: 1 });
  if (ambient) store.setAmbient(true);
  store.replace('bench', inputs);
  store.flush();
  const flush: number[] = [];
  const cpu: number[] = [];
  const total: number[] = [];
  for (let r = 1; r <= Number(process.env.ROUNDS ?? 21); r++) {
    const list = next(r);
    const t0 = performance.now();
    store.replace('bench', list);
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    store.flush();
    const c2 = process.cpuUsage(c1);
    const t2 = performance.now();
    cpu.push((c2.user + c2.system) / 1000);
    flush.push(t2 - t1);
    total.push(t2 - t0);
  }
  store.close();
  const stats = (store as unknown as { cache: { stats?: unknown } }).cache.stats ?? '';
  console.log(
    `${label}: flush (snapshot build) median ${med(flush).toFixed(1)} ms wall / ${med(cpu).toFixed(1)} ms CPU, replace+flush ${med(total).toFixed(1)} ms`,
    stats,
  );
}
const which = process.env.SIZE ?? 'both';
if (which !== '24') {
  const base = ambientMesh(10000, 2000);
  const podAt = base.findIndex((i) => i.object.kind === 'Pod') + 777;
  run('#20 10k pods/2k svc ambient, pod IP', base, true, (r) => {
    const l = base.slice();
    const o = structuredClone(l[podAt]!.object) as { status: { podIP: string } };
    o.status.podIP = `10.250.${r}.1`;
    l[podAt] = { object: o as unknown as RawObject, origin: l[podAt]!.origin };
    return l;
  });
}
if (which !== '20') {
  const mesh = issueMesh(1000);
  const file = (k: string, objs: readonly RawObject[]): RawInput[] =>
    objs.map((object, doc) => ({ object, origin: { source: 'file', file: `/m/${k.toLowerCase()}s.yaml`, doc } }) as RawInput);
  const all = (over: Partial<Record<string, RawObject[]>>) => KINDS.flatMap((k) => file(k, over[k] ?? mesh.byKind[k]));
  run('#24 N=1000 multidoc, pod IP', all({}), false, (r) => all({ Pod: withPodIp(mesh, r) }));
  run('#24 N=1000 multidoc, VS edit', all({}), false, (r) => all({ VirtualService: withVsWeight(mesh, 10 + r) }));
}
