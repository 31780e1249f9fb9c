// The 20 scopes' first translations of issue 24's connect wave, split into translation and encoding, with the JIT
// warm (never asserted): issue 24's mesh (BIG_N Services) in the real Store, the first sidecar of each namespace
// translated (buildProxyTable, as the scope's first proxy is in scopeParts.ts fromScope), then ROUNDS rounds
// encoding those tables through a fresh EncodeMemo (every content key misses, as on a first connect). OTHER=<a
// worktree or copy of another commit>: its EncodeMemo too, round by round in turn with this tree's, and every
// resource's bytes compared between the two. The measurement behind docs/perf/issue24-sharing.md, session 13.
// `node --expose-gc --import tsx bench/scopeEncode.ts` (BIG_N=5000 ROUNDS=8 OTHER=/tmp/main-copy).
import { resolve } from 'node:path';
import { optionsOf } from '../server/model/mesh';
import { EncodeMemo, encodeTable } from '../server/pipeline/encodeTable';
import { buildProxyTable } from '../server/pipeline/stages';
import type { ProxyResources } from '../server/pipeline/types';
import { issueStore } from './issueStore';

type Encoder = { name: string; memo: () => EncodeMemo; encode: typeof encodeTable };
const N = Number(process.env.BIG_N ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const gc = (globalThis as { gc?: () => void }).gc;

const { store, snap } = issueStore(N);
const firsts = new Map<string, string>();
for (const p of snap.proxies)
  if (p.type === 'sidecar' && !p.id.startsWith('svc-0-') && !firsts.has(p.namespace)) firsts.set(p.namespace, p.id);
const proxies = [...firsts.values()].map((id) => snap.proxiesById.get(id)!);
const t0 = cpu();
const tables = proxies.map((p) => buildProxyTable(snap, p, optionsOf(snap)));
console.log(`N=${N}: ${proxies.length} scopes translated in ${(cpu() - t0).toFixed(0)} ms CPU (cold)`);

const encoders: Encoder[] = [{ name: 'this tree', memo: () => new EncodeMemo(), encode: encodeTable }];
if (process.env.OTHER) {
  const m = (await import(resolve(process.env.OTHER, 'server/pipeline/encodeTable.ts'))) as typeof import('../server/pipeline/encodeTable');
  encoders.push({ name: process.env.OTHER, memo: () => new m.EncodeMemo(), encode: m.encodeTable });
}
const times = new Map<string, number[]>(encoders.map((e) => [e.name, []]));
const last = new Map<string, ProxyResources[]>();
for (let r = 0; r < ROUNDS; r++)
  for (const e of encoders) {
    gc?.();
    const memo = e.memo();
    const a = cpu();
    last.set(
      e.name,
      proxies.map((p, i) => e.encode(p, snap.version, tables[i]!, memo)),
    );
    times.get(e.name)!.push(cpu() - a);
  }
const perScope = (ms: number) => (ms / proxies.length).toFixed(1);
for (const [name, xs] of times) {
  const warm = xs.slice(1).sort((a, b) => a - b);
  console.log(
    `encode (${name}): ${xs.map((x) => x.toFixed(0)).join(' ')} ms a round; warm rounds min ${perScope(warm[0] ?? 0)}, median ${perScope(warm[Math.floor(warm.length / 2)] ?? 0)} ms a scope`,
  );
}
if (encoders.length === 2) {
  const [a, b] = encoders.map((e) => last.get(e.name)!);
  let n = 0;
  let differ = 0;
  a!.forEach((r, i) => {
    for (const list of ['listeners', 'routes', 'clusters', 'endpoints'] as const)
      r[list].forEach((x, j) => {
        n++;
        const y = b![i]![list][j];
        if (y?.name !== x.name || y.hash !== x.hash) differ++;
      });
  });
  console.log(`resources compared ${n}, differing ${differ}`);
}
store.close();
