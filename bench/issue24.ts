// issue 24's figures on its mesh (bench/issueMesh.ts), for each input shape — 7 multi-document files, 7
// `kind: List` files, the kube source fed by the fake API server (per-object watch events) — and K distinct-pod
// ADS clients spread over the namespaces, SotW and Delta, against a real server process (bench/pushServer.ts):
// first configs ACKed, VirtualService edit → last affected ACK, pod IP change → EDS p99 (with the snapshot
// event's scope and the server's work: translations, CLA refreshes, CPU), reconnect after a server-side drop,
// RSS per client and after they left; and the CLI (`translate --type all` sidecar / gateway, `simulate`,
// `analyze`, whole process) on the multi-document files. Each row beside its goal, anchor and ratio.
//   BENCH_I24_N / BENCH_I24_K   mesh size and clients (default 1000 / 1000)
//   BENCH_I24_BIG=1             the 5× row instead: N=5000 (10,000 pods), K=2000
//   BENCH_I24_SHAPES            multidoc,list,kube (default all)      BENCH_MODES   sotw,delta (default both)
//   BENCH_CLIENT_PROCS          processes the clients run in (bench/clientProc.ts, default 1)
//   BENCH_SERVER_NODE_FLAGS     extra node flags for the server process, comma-separated
//   BENCH_CLIENT_NODE_FLAGS     the same for the client processes (e.g. --cpu-prof,--cpu-prof-dir=/tmp/p); every wave
//                               row prints the client processes' CPU beside the server's (the test equipment's share)
//   BENCH_CLIENT_WINDOW         the clients' HTTP/2 stream and connection windows in bytes (bench/rawAds.ts): 1048576
//                               (default: istio-agent → istiod), 65535 grpc-js' client, 268435456 Envoy's default
//   BENCH_STREAMS_PER_CHANNEL   ADS streams per client HTTP/2 connection (default 1, as a real proxy holds; 100 until session 14)
//   MESHSCOPE_ALLOCATOR / MESHSCOPE_JEMALLOC / MALLOC_CONF: the server's allocator, chosen as `meshscope serve` does
//   BENCH_CLI=0                 skip the CLI rows                      BENCH_I24_OUT results file (default bench/results-issue24.json)
//   BENCH_I24_PROFILE=0         no second, profiled run for the rows that missed (figures are always measured unprofiled)
//   MESHSCOPE_XDS_WARMUP=0      the server without its scopes' warm-up (server/impact/scopeWarmup.ts); with it (default,
//                               as `meshscope serve`), the waves start once it ended (as a readiness-gated rollout: /api/healthz
//                               is 503 `warming` until then), and the first-config row prints its time and CPU
// Run: `node --import tsx bench/issue24.ts`. Benchmarks are not tests: nothing asserts a time.
// Parts: issue24Env.ts (these knobs, the server's allocator), issue24Input.ts (the shapes, route names, clients),
// issue24Procs.ts (the server and client processes, counts of work), issue24Push.ts (one push run), issue24Rows.ts
// (the table rows, the CLI rows).
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../server/testing/paths';
import { issueMesh } from './issueMesh';
import { formatSummary } from './profile';
import { type BenchRow, load1, machine, printTable } from './table';
import { N, K, shapes, modes, SERVER_FLAGS, CLIENT_PROCS, ALLOC } from './issue24Env';
import { routeNames } from './issue24Input';
import { benchPushShape, profilePushShape } from './issue24Push';
import { pushRows, cliRows, missedPhases } from './issue24Rows';

/** BENCH_I24_PROFILE=0: no second, profiled run for the rows that missed (faster; no profile notes). */
const PROFILE_MISSES = process.env.BENCH_I24_PROFILE !== '0';
const loadStart = loadavg();
const step = (what: string) => console.error(`bench(issue 24): ${what} (load ${load1()})`);
const mesh = issueMesh(N);
const rows: BenchRow[] = [];
if (process.env.BENCH_CLI !== '0') {
  step('CLI');
  const cli = cliRows(mesh);
  rows.push(...cli);
  console.error(printTable(cli));
}
step('route names');
const routes = routeNames(mesh);
const out = process.env.BENCH_I24_OUT ?? join(REPO_ROOT, 'bench', 'results-issue24.json');
const save = () =>
  writeFileSync(
    out,
    `${JSON.stringify({ at: new Date().toISOString(), machine: machine(), loadStart, loadEnd: loadavg(), n: N, k: K, rows }, null, 2)}\n`,
  );
save();
for (const shape of shapes)
  for (const mode of modes) {
    step(
      `push ${shape} ${mode} N=${N} K=${K}, ${ALLOC}${SERVER_FLAGS.length ? ` ${SERVER_FLAGS.join(' ')}` : ''}, ${CLIENT_PROCS} client process(es)`,
    );
    try {
      const figures = await benchPushShape(mesh, shape, mode, routes);
      // The figures were measured without a profiler; the rows that missed get the profile of a second run.
      const missed = PROFILE_MISSES ? missedPhases(figures) : [];
      if (missed.length > 0) {
        step(`push ${shape} ${mode}: profiling ${missed.join(', ')} in a second run`);
        figures.profiles = await profilePushShape(mesh, shape, mode, routes, missed);
      }
      const got = pushRows(figures);
      rows.push(...got);
      console.error(printTable(got));
    } catch (e) {
      console.error(`bench(issue 24): push ${shape} ${mode} failed: ${String(e)}`);
      rows.push({
        figure: 'all K distinct-pod clients ACK their first config',
        size: `N=${N}, K=${K}, ${shape}, ${mode}`,
        value: Number.NaN,
        unit: 'ms',
        detail: `failed: ${String(e)}`,
        load: load1(),
      });
    }
    save();
  }
const table = printTable(rows);
const notes = rows.filter((r) => r.profile).map((r) => `- ${r.figure} (${r.size}): ${formatSummary(r.profile!)}`);
console.log(table);
if (notes.length > 0)
  console.log(
    `\nCPU profiles of figures that miss their goal (from a second, profiled run; the figures above had no profiler):\n${notes.join('\n')}`,
  );
save();
