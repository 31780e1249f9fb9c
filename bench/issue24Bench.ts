// The issue-24 bench's rows (bench/issue24.ts prints them; `npm run bench` includes them, BENCH_ONLY=issue24 alone):
// the CLI rows, goal 5's document-edit rows (bench/docEditBench.ts; BENCH_I24_DOCEDIT=0 skips them), then each shape
// and mode's push rows, each the median of BENCH_I24_RUNS runs.
import { benchDocEdit } from './docEditBench';
import { issueMesh } from './issueMesh';
import { type BenchRow, load1, printTable } from './table';
import { N, K, shapes, modes, SERVER_FLAGS, CLIENT_PROCS, ALLOC, RUNS } from './issue24Env';
import { routeNames } from './issue24Input';
import { benchPushShape, type PushFigures, profilePushShape } from './issue24Push';
import { pushRows, cliRows, medianRows, missedByMedian } from './issue24Rows';

/** BENCH_I24_PROFILE=0: no second, profiled run for the rows that missed (faster; no profile notes). */
const PROFILE_MISSES = process.env.BENCH_I24_PROFILE !== '0';
const step = (what: string) => console.error(`bench(issue 24): ${what} (load ${load1()})`);

/** Every issue-24 row; `progress` gets the rows so far after each shape and mode (for a results file kept current). */
export async function benchIssue24(progress: (rows: readonly BenchRow[]) => void = () => {}): Promise<BenchRow[]> {
  const mesh = issueMesh(N);
  const rows: BenchRow[] = [];
  if (process.env.BENCH_CLI !== '0') {
    step('CLI');
    const cli = cliRows(mesh);
    rows.push(...cli);
    console.error(printTable(cli));
  }
  if (process.env.BENCH_I24_DOCEDIT !== '0') {
    step(`goal 5: one document's edit, N=${N}`);
    const edits = await benchDocEdit([N]);
    rows.push(...edits);
    console.error(printTable(edits));
  }
  step('route names');
  const routes = routeNames(mesh);
  progress(rows);
  for (const shape of shapes)
    for (const mode of modes) {
      step(
        `push ${shape} ${mode} N=${N} K=${K}, ${ALLOC}${SERVER_FLAGS.length ? ` ${SERVER_FLAGS.join(' ')}` : ''}, ${CLIENT_PROCS} client process(es), ${RUNS} run(s)`,
      );
      try {
        const runs: PushFigures[] = [];
        // Each run's rows are made as it ends (their load is that run's); a run that fails leaves the others.
        const runRows: BenchRow[][] = [];
        for (let run = 1; run <= RUNS; run++) {
          if (run > 1) step(`push ${shape} ${mode}: run ${run} of ${RUNS}`);
          try {
            const f = await benchPushShape(mesh, shape, mode, routes);
            runs.push(f);
            runRows.push(pushRows(f));
          } catch (e) {
            if (run === RUNS && runs.length === 0) throw e;
            console.error(`bench(issue 24): push ${shape} ${mode} run ${run} failed: ${String(e)}`);
          }
        }
        if (runs.length % 2 === 0) {
          // An even count left (a run failed): the last one is set aside, so each row is still one run's, the middle one.
          runs.pop();
          runRows.pop();
        }
        // The figures were measured without a profiler; the rows whose median missed get the profile of a second run.
        const missed = PROFILE_MISSES ? missedByMedian(runs) : [];
        let profiled: BenchRow[] | undefined;
        if (missed.length > 0) {
          step(`push ${shape} ${mode}: profiling ${missed.join(', ')} in a second run`);
          profiled = pushRows({ ...runs[0]!, profiles: await profilePushShape(mesh, shape, mode, routes, missed) }, true);
        }
        const got = medianRows(runRows, profiled);
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
      progress(rows);
    }
  return rows;
}
