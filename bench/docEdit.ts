// Issue 24 goal 5 alone (bench/docEditBench.ts: what it measures). `npm run bench` prints the same rows in
// issue 24's section.
//   BENCH_I24_N (default 1000; a comma list for several sizes), BENCH_I24_BIG=1 (N = 1,000 and 5,000),
//   BENCH_DOCEDIT_LAYOUTS (`files,multidoc,list`), BENCH_DOCEDIT_REPS (default 15),
//   BENCH_PROFILE=1 (a CPU profile summary of each row's reps, taken in a second pass; BENCH_PROFILE_DIR: keep
//   each raw .cpuprofile there)
//   run: node --import tsx bench/docEdit.ts
import { benchDocEdit } from './docEditBench';
import { printTable } from './table';

const sizes =
  process.env.BENCH_I24_BIG === '1' ? [1000, 5000] : (process.env.BENCH_I24_N ?? '1000').split(',').map((n) => Number(n.trim()));
const layouts = new Set((process.env.BENCH_DOCEDIT_LAYOUTS ?? 'files,multidoc,list').split(',').map((s) => s.trim()));
console.log(printTable(await benchDocEdit(sizes, layouts, Number(process.env.BENCH_DOCEDIT_REPS ?? 15))));
