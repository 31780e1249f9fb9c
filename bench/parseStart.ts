// Issue 24 goal 6: the file source's first load (what `meshscope serve` does at start, and on a whole-file
// reload of a file it could not narrow before) with and without the parse pool, one fresh process per run so
// both the main thread and the worker start cold, as a server does. Prints one JSON line per run: the load
// (FileSource.start → its replace(): read, parse, objects), its wall and the process's CPU (every thread), then
// the snapshot build of the loaded objects (the same in both modes: the store validates in-thread).
//
//   node --import tsx bench/parseStart.ts write N multidoc|list DIR   write the issue-24 mesh of N services
//   node --import tsx bench/parseStart.ts run DIR pool|thread         one start
import { join } from 'node:path';
import { buildSnapshot } from '../server/model/snapshot';
import { SnapshotCache } from '../server/model/snapshotCache';
import { FileSource } from '../server/sources/file/fileSource';
import { createParsePool, parsePoolSettings } from '../server/sources/file/parsePool';
import { poolFirstLoad } from '../server/sources/file/pooledLoad';
import type { RawInput, SourceSink } from '../server/sources/types';
import { issueMesh, writeIssueMesh } from './issueMesh';

const [cmd, a, b, c] = process.argv.slice(2);
if (cmd === 'write') {
  writeIssueMesh(issueMesh(Number(a)), b as 'multidoc' | 'list', c);
} else if (cmd === 'run') {
  const dir = a!;
  const settings = parsePoolSettings({ ...process.env, MESHSCOPE_PARSE_WORKERS: '1' })!;
  const pool = b === 'pool' ? createParsePool(join(process.cwd(), 'dist', 'cli', 'parseWorker.mjs'), settings) : undefined;
  pool?.warm(); // as the runtime does when MESHSCOPE_PARSE_WORKERS asks (server/sources/file/parsePool.ts serveParsePool)
  const logs: string[] = [];
  const firstLoad = pool ? poolFirstLoad(pool, settings.minBytes, (l) => logs.push(l)) : undefined;
  let inputs: readonly RawInput[] = [];
  const sink: SourceSink = {
    replace: (_id: string, got: readonly RawInput[]) => {
      inputs = got;
    },
    status: () => undefined,
  } as unknown as SourceSink;
  const src = new FileSource('file', [dir], { watch: false, ...(firstLoad ? { firstLoad } : {}) });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await src.start(sink);
  const loadMs = performance.now() - t0;
  const cpu1 = process.cpuUsage(cpu0);
  const t1 = performance.now();
  const snap = buildSnapshot(inputs, { version: 1, cache: new SnapshotCache() });
  const buildMs = performance.now() - t1;
  const cpu2 = process.cpuUsage(cpu0);
  await src.stop();
  await pool?.close();
  const ms = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);
  console.log(
    JSON.stringify({
      mode: b,
      objects: inputs.length,
      proxies: snap.proxies.length,
      loadMs: Math.round(loadMs),
      loadCpuMs: ms(cpu1),
      buildMs: Math.round(buildMs),
      totalCpuMs: ms(cpu2),
      pool: pool?.stats,
      logs,
      load: (await import('node:os')).loadavg()[0]!.toFixed(2),
    }),
  );
}
