// The issue-24 bench's knobs (bench/issue24.ts's head lists them) and the allocator its server runs with.
import { chooseAllocator, serverHeapFlags } from '../server/cli/allocator';
import type { Mode } from './issueClients';
import type { Shape } from './issueMesh';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean);
export const big = process.env.BENCH_I24_BIG === '1';
export const N = Number(process.env.BENCH_I24_N ?? (big ? 5000 : 1000));
export const K = Number(process.env.BENCH_I24_K ?? (big ? 2000 : 1000));
export const shapes = list(process.env.BENCH_I24_SHAPES, 'multidoc,list,kube') as Shape[];
export const modes = list(process.env.BENCH_MODES, 'sotw,delta') as Mode[];
/** Runs per shape and mode, an odd count; each row is the median of them (the goals are medians on this machine). */
export const RUNS = oddRuns(process.env.BENCH_I24_RUNS);

function oddRuns(v: string | undefined): number {
  const n = Number(v ?? 3);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_I24_RUNS must be a positive integer, not ${JSON.stringify(v)}`);
  if (n % 2 === 1) return n;
  console.error(`bench(issue 24): BENCH_I24_RUNS=${n} is even; running ${n + 1} so each row is one run's, the middle one`);
  return n + 1;
}
/** The server's release grace (connect's MESHSCOPE_XDS_RELEASE_GRACE_MS, 30 s by default): the late RSS sample waits it out. */
export const RELEASE_GRACE_MS = Number(process.env.MESHSCOPE_XDS_RELEASE_GRACE_MS ?? 30_000);
export const LATER_S = (12_000 + RELEASE_GRACE_MS) / 1000;
/** The node flags `meshscope serve` gives its server child that bear on speed and memory (server/cli/allocator.ts). */
export const SERVE_FLAGS = serverHeapFlags(process.env);
/** Extra node flags for the server process only, after serve's (e.g. `--max-semi-space-size=16`, V8's default). */
export const SERVER_FLAGS = list(process.env.BENCH_SERVER_NODE_FLAGS, '');
/**
 * The client processes' own node flags: V8's worker pool sized to the machine, as `meshscope serve` sizes the server's
 * (server/cli/allocator.ts). The clients stand for sidecars on other machines; with node's fixed four V8 workers they
 * took 2.6–2.8 s of CPU in an N = 1,000 first wave on this 2-core machine, with one 2.0–2.3 s (docs/perf/issue24-waves.md,
 * session 14). BENCH_CLIENT_NODE_FLAGS come after (a later V8 flag wins).
 */
export const CLIENT_BASE_FLAGS: readonly string[] = ['--v8-pool-size=0'];
/** Extra node flags for the client processes (e.g. --cpu-prof,--cpu-prof-dir=/tmp/p to profile the test equipment). */
export const CLIENT_FLAGS = list(process.env.BENCH_CLIENT_NODE_FLAGS, '');
/** Processes the K clients are spread over (bench/clientProc.ts): 1 by default, the controller beside them. */
export const CLIENT_PROCS = Math.max(1, Number(process.env.BENCH_CLIENT_PROCS ?? 1));
export const MiB = (b: unknown) => (b as number) / 2 ** 20;

/** The allocator the bench server runs with: what `meshscope serve` would choose (server/cli/allocator.ts). */
export const allocator = chooseAllocator({ env: process.env });
export const ALLOC = `allocator ${allocator.text}${allocator.env.MALLOC_CONF ? ` (MALLOC_CONF ${allocator.env.MALLOC_CONF})` : ''}${SERVE_FLAGS.length ? `, ${SERVE_FLAGS.join(' ')}` : ''}`;
export const memText = (m: Record<string, unknown>) => {
  const c = m.cache as { entries?: number } | undefined;
  return `heap ${MiB(m.heapUsed).toFixed(0)} MiB, external ${MiB(m.external).toFixed(0)} MiB, [heap] ${MiB(m.mallocHeap ?? 0).toFixed(0)} MiB, ${c?.entries ?? '?'} cached translations`;
};
