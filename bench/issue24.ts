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
//   BENCH_I24_RUNS              runs per shape and mode (default 3): each row is their median, its detail every run's value
//   MESHSCOPE_XDS_WARMUP=0      the server without its scopes' warm-up (server/impact/scopeWarmup.ts); with it (default,
//                               as `meshscope serve`), the waves start once it ended (as a readiness-gated rollout: /api/healthz
//                               is 503 `warming` until then), and the first-config row prints its time and CPU
// Run: `node --import tsx bench/issue24.ts`. Benchmarks are not tests: nothing asserts a time.
// `npm run bench` includes these rows (BENCH_ISSUE24=0 skips them; BENCH_ONLY=issue24 runs them alone).
// Parts: issue24Bench.ts (the rows: CLI, then each shape and mode), issue24Env.ts (these knobs, the server's allocator), issue24Input.ts (the shapes, route names, clients),
// issue24Procs.ts (the server and client processes, counts of work), issue24Push.ts (one push run), issue24Rows.ts
// (the table rows, the CLI rows).
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../server/testing/paths';
import { formatSummary } from './profile';
import { machine, printTable } from './table';
import { N, K } from './issue24Env';
import { benchIssue24 } from './issue24Bench';

const loadStart = loadavg();
const out = process.env.BENCH_I24_OUT ?? join(REPO_ROOT, 'bench', 'results-issue24.json');
const save = (rows: readonly unknown[]) =>
  writeFileSync(
    out,
    `${JSON.stringify({ at: new Date().toISOString(), machine: machine(), loadStart, loadEnd: loadavg(), n: N, k: K, rows }, null, 2)}\n`,
  );
const rows = await benchIssue24(save);
const notes = rows.filter((r) => r.profile).map((r) => `- ${r.figure} (${r.size}): ${formatSummary(r.profile!)}`);
console.log(printTable(rows));
if (notes.length > 0)
  console.log(
    `\nCPU profiles of figures that miss their goal (from a second, profiled run; the figures above had no profiler):\n${notes.join('\n')}`,
  );
save(rows);
