// The server side of issue 24's connect wave, in one process, without clients or sockets (never asserted):
// issue 24's mesh (BIG_N Services, 2 Pods each, 7 multi-document inputs) in the real Store, the runtime's
// SharedResourceCache and ADS generator, and K distinct sidecar pods round-robin over the namespaces (as
// bench/issue24.ts chooses its clients). Per client, as the ADS server does for a SotW stream: generate (the
// translation of its scope, or its inbound build), then CDS, EDS, LDS, RDS prepared (xds/prepared.ts) and each
// response assembled (wire.ts sotwResponse, into one scratch buffer as xds/service.ts does). Prints CPU per phase, counts of work, bytes, and where
// the time went (node:inspector profile) — the measurement behind docs/perf/issue24-5x.md "The 5× rows and the
// second core". `node --expose-gc --import tsx bench/bigWave.ts` (BIG_N=5000 BIG_K=2000 PROFILE=1 PROFILE_FROM=20 WIRE=0
// CLONE=1: also what handing the snapshot to a worker costs).
import { TYPE, type TypeUrl } from '../server/envoy/typeUrls';
import { createAdsGenerator } from '../server/pipeline/adsGenerator';
import { DEFAULT_CACHE_BYTES, SharedResourceCache } from '../server/pipeline/sharedResources';
import { AnyCache } from '../server/xds/cache';
import { SotwResponseCache, subscriptionKey } from '../server/xds/prepared';
import type { ClientInfo, ResourceSet } from '../server/xds/types';
import { sotwResponse } from '../server/xds/wire';
import { issueStore } from './issueStore';
import { startProfile } from './profile';

const N = Number(process.env.BIG_N ?? 5000);
const K = Number(process.env.BIG_K ?? 2000);
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const gc = (globalThis as { gc?: () => void }).gc;
const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;

const t = cpu();
const { inputs, store, snap } = issueStore(N);
console.log(`N=${N}: ${inputs.length} objects, ${snap.proxies.length} proxies; mesh + snapshot ${(cpu() - t).toFixed(0)} ms CPU`);

// K distinct sidecars, round-robin over the namespaces, svc-0's pods left out (bench/issue24Input.ts chooseClients).
const byNs = new Map<string, string[]>();
for (const p of snap.proxies) {
  if (p.type !== 'sidecar' || p.id.startsWith('svc-0-')) continue;
  const l = byNs.get(p.namespace) ?? [];
  l.push(p.id);
  byNs.set(p.namespace, l);
}
const lists = [...byNs.values()];
const chosen: string[] = [];
for (let i = 0; chosen.length < K && lists.some((l) => l.length > i); i++)
  for (const l of lists) if (chosen.length < K && l[i]) chosen.push(l[i]!);

const cache = new SharedResourceCache(DEFAULT_CACHE_BYTES, { graceMs: 30_000 });
const gen = createAdsGenerator(() => store.snapshot(), undefined, cache);
const anys = new AnyCache();
const responses = new SotwResponseCache(anys);
const client = (id: string): ClientInfo => {
  const pod = snap.proxiesById.get(id)!;
  return {
    nodeId: `sidecar~${pod.ips[0] ?? ''}~${id}~${pod.namespace}.svc.cluster.local`,
    proxyId: id,
    nodeType: 'sidecar',
    ips: [...pod.ips],
    namespace: pod.namespace,
    labels: {},
    flavour: 'envoy',
    metadata: {},
    peer: 'bench',
  };
};

let scratch = new Uint8Array(0);
/** What a SotW stream sends for one type: prepared (shared) then assembled with its own nonce. */
function send(set: ResourceSet, typeUrl: TypeUrl, wildcard: boolean, names: Set<string>, nonce: number): number {
  const key = subscriptionKey(wildcard, names);
  const p = responses.prepare(set.byType.get(typeUrl), typeUrl, set.version, wildcard, names, key);
  const m = sotwResponse({ versionInfo: set.version, anys: p.anys, typeUrl, nonce: String(nonce), controlPlane: 'istiod' });
  // Into one scratch buffer, as the server's gRPC serializer writes (xds/service.ts): not a fresh buffer per response.
  if (scratch.length < m.size) scratch = new Uint8Array(m.size * 2);
  m.writeTo(scratch);
  return m.size;
}

// PROFILE_FROM: start the profile at that client (e.g. 20: after every scope's first translation), PROFILE_TO: stop it
// before that client (e.g. 20: the scopes' first translations alone); WIRE=0: generate only.
const from = Number(process.env.PROFILE_FROM ?? 0);
const to = Number(process.env.PROFILE_TO ?? Number.POSITIVE_INFINITY);
let summary: import('./profile').ProfileSummary | undefined;
const wire = process.env.WIRE !== '0';
let stop: (() => Promise<import('./profile').ProfileSummary>) | undefined;
let genMs = 0;
let wireMs = 0;
let firstMs = 0;
let bytes = 0;
const seen = new Set<string>();
let nonce = 0;
const c0 = cpu();
const sets: ResourceSet[] = [];
for (const [i, id] of chosen.entries()) {
  if (process.env.PROFILE === '1' && i === from) stop = await startProfile(process.env.PROFILE_OUT);
  if (stop && i === to) {
    summary = await stop();
    stop = undefined;
  }
  const a = cpu();
  const set = gen.generate(client(id))!;
  const b = cpu();
  genMs += b - a;
  const ns = snap.proxiesById.get(id)!.namespace;
  if (!seen.has(ns)) {
    seen.add(ns);
    firstMs += b - a;
  }
  sets.push(set);
  if (!wire) continue;
  // CDS → EDS (names of the EDS clusters), LDS → RDS (the route names), as Envoy asks.
  bytes += send(set, TYPE.cluster, true, new Set(), ++nonce);
  bytes += send(set, TYPE.endpoint, false, new Set(set.byType.get(TYPE.endpoint)?.keys() ?? []), ++nonce);
  bytes += send(set, TYPE.listener, true, new Set(), ++nonce);
  bytes += send(set, TYPE.route, false, new Set(set.byType.get(TYPE.route)?.keys() ?? []), ++nonce);
  wireMs += cpu() - b;
}
const total = cpu() - c0;
if (stop) summary = await stop();
const s = cache.stats();
console.log(
  `wave K=${chosen.length}: CPU ${total.toFixed(0)} ms (${(total / chosen.length).toFixed(2)} ms/client); generate ${genMs.toFixed(0)} ms ` +
    `(first of each scope ${firstMs.toFixed(0)} ms for ${seen.size} scopes, the others ${((genMs - firstMs) / Math.max(1, chosen.length - seen.size)).toFixed(2)} ms each); ` +
    `prepare + assemble ${wireMs.toFixed(0)} ms; ${mib(bytes)} of responses (${(bytes / chosen.length / 1024).toFixed(0)} kB/client)`,
);
console.log(
  `cache: translations ${s.translations}, scopes ${s.scopes}, scopeShared ${s.scopeShared}, inbound builds shared ${(s as { inboundShared?: number }).inboundShared ?? '-'}, entries ${s.entries}, memo ${s.memoEntries}, pinned ${s.pinnedScopes}`,
);
const one = sets[0]!;
for (const [type, m] of one.byType) {
  let b = 0;
  for (const r of m.values()) b += r.bytes.length;
  console.log(`  first client ${type.split('.').pop()}: ${m.size} resources, ${(b / 1024).toFixed(0)} kB`);
}
gc?.();
const mem = process.memoryUsage();
console.log(`memory after the wave (gc): rss ${mib(mem.rss)}, heap ${mib(mem.heapUsed)}, external ${mib(mem.external)}`);
if (summary) {
  console.log(`profile ${summary.totalMs.toFixed(0)} ms sampled:`);
  for (const x of summary.top) console.log(`  ${x.pct.toFixed(1)}%  ${x.selfMs.toFixed(0)} ms  ${x.fn}`);
}
store.close();
if (process.env.CLONE === '1') {
  // Goal 6's price of a worker: handing it the snapshot (V8's structured serialization, what postMessage does).
  const { serialize, deserialize } = await import('node:v8');
  const plain = { ...snap, memo: undefined };
  const a = cpu();
  const buf = serialize(plain);
  const b = cpu();
  deserialize(buf);
  const c = cpu();
  console.log(`snapshot to a worker: serialize ${(b - a).toFixed(0)} ms, ${mib(buf.length)}, deserialize ${(c - b).toFixed(0)} ms CPU`);
}
