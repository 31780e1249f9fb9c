// The worker pool (issue 24 goal 6) with real worker threads running small scripts written here: answers come
// back per job, in any order, to the right caller; a worker that exits, throws at load or loops past its
// budget is terminated and every job it held is rejected (the caller's fallback runs them), never hangs; a
// worker file that cannot start breaks the pool after maxFailures starts; close() terminates the workers.
// And through pooledLoads: a parse pool whose worker crashes on every job still gives the in-thread load,
// with one log line per job it could not run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FILE_LIMITS, parseText } from '../sources/file/parseFile';
import type { PieceJob, PieceResult } from '../sources/file/parseJobs';
import { parsePoolSettings, SERVE_PARSE_POOL_MIN_BYTES, serveParsePool, serveParsePoolDefaults } from '../sources/file/parsePool';
import { REPO_ROOT } from '../testing/paths';
import { pooledLoads } from '../sources/file/pooledLoad';
import { WorkerPool } from './workerPool';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-workerpool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = (name: string, body: string): string => {
  const f = join(dir, name);
  writeFileSync(f, `import { parentPort } from 'node:worker_threads';\n${body}\n`);
  return f;
};

const ECHO = script('echo.mjs', "parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, ok: true, result: m.job * 2 }));");
const THROWS = script(
  'throws.mjs',
  "parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, ok: false, error: 'bad job ' + m.job }));",
);
const EXITS = script('exits.mjs', "parentPort.on('message', () => process.exit(3));");
const LOOPS = script('loops.mjs', "parentPort.on('message', () => { for (;;) {} });");
const BROKEN = script('broken.mjs', "throw new Error('cannot load');");

describe('WorkerPool', () => {
  it('answers every job to its caller', async () => {
    const pool = new WorkerPool<number, number>({ file: ECHO, workers: 2, budgetMs: 60_000 });
    const got = await Promise.all([1, 2, 3, 4, 5].map((n) => pool.run(n)));
    expect(got).toEqual([2, 4, 6, 8, 10]);
    expect(pool.stats.spawned).toBe(2);
    await pool.close();
    expect(pool.usable()).toBe(false);
    await expect(pool.run(1)).rejects.toThrow('pool closed');
  });

  it('with idleMs, terminates a worker idle that long after its answer, and starts a new one for the next job', async () => {
    const pool = new WorkerPool<number, number>({ file: ECHO, workers: 1, budgetMs: 60_000, idleMs: 100 });
    expect(await pool.run(1)).toBe(2);
    // Polled, not timed: the retirement is asserted, not how soon it came.
    for (let i = 0; i < 200 && pool.stats.idleRetired === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(pool.stats.idleRetired).toBe(1);
    expect(pool.usable()).toBe(true); // an idle retirement is not a failed start
    expect(await pool.run(2)).toBe(4);
    expect(pool.stats.spawned).toBe(2);
    await pool.close();
  });

  it('rejects a job the worker reports as failed, and keeps the worker', async () => {
    const pool = new WorkerPool<number, number>({ file: THROWS, workers: 1, budgetMs: 60_000 });
    await expect(pool.run(7)).rejects.toThrow('bad job 7');
    await expect(pool.run(8)).rejects.toThrow('bad job 8');
    expect(pool.stats.spawned).toBe(1);
    await pool.close();
  });

  it('rejects the jobs of a worker that exits, and of one past its budget (terminated)', async () => {
    const exits = new WorkerPool<number, number>({ file: EXITS, workers: 1, budgetMs: 60_000 });
    const both = await Promise.allSettled([exits.run(1), exits.run(2)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((both[0] as PromiseRejectedResult).reason)).toContain('exited (3)');
    await exits.close();
    const loops = new WorkerPool<number, number>({ file: LOOPS, workers: 1, budgetMs: 300 });
    await expect(loops.run(1)).rejects.toThrow('over its time budget (300 ms)');
    await loops.close();
  });

  it('is broken after maxFailures workers that never answered', async () => {
    const pool = new WorkerPool<number, number>({ file: BROKEN, workers: 1, budgetMs: 60_000, maxFailures: 2 });
    await expect(pool.run(1)).rejects.toThrow();
    await expect(pool.run(2)).rejects.toThrow();
    expect(pool.usable()).toBe(false);
    await expect(pool.run(3)).rejects.toThrow('worker does not start');
    await pool.close();
  });
});

describe('pooledLoads with a failing worker', () => {
  it('gives the in-thread load and logs each job it ran on the main thread instead', async () => {
    const docs = Array.from(
      { length: 40 },
      (_, i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: s-${i}\n  namespace: x\nspec:\n  ports:\n  - port: 80\n`,
    );
    const text = docs.join('---\n');
    const log: string[] = [];
    const pool = new WorkerPool<PieceJob, PieceResult[]>({ file: EXITS, workers: 1, budgetMs: 60_000 });
    const loads = await pooledLoads([{ file: '/m/svc.yaml', text }], {
      namespace: undefined,
      limits: DEFAULT_FILE_LIMITS,
      pool,
      minBytes: 0,
      minFileBytes: 0,
      jobChars: 400,
      validate: true,
      log: (l) => log.push(l),
    });
    await pool.close();
    expect(loads?.files.get('/m/svc.yaml')?.result).toEqual(parseText(text, '/m/svc.yaml'));
    expect(loads?.jobs.worker).toBe(0);
    expect(loads?.jobs.failed).toBeGreaterThan(0);
    expect(log.length).toBe(loads?.jobs.failed);
    expect(log[0]).toMatch(
      /^parse worker: job \d+\/\d+ \(\/m\/svc\.yaml\) failed in the worker \(worker exited \(3\)\); parsed on the main thread$/,
    );
  });
});

describe('parsePoolSettings', () => {
  it('is off unless MESHSCOPE_PARSE_WORKERS asks; at most cores − 1 (at least 1) and 4', () => {
    expect(parsePoolSettings({})).toBeUndefined();
    expect(parsePoolSettings({ MESHSCOPE_PARSE_WORKERS: '0' })).toBeUndefined();
    expect(parsePoolSettings({ MESHSCOPE_PARSE_WORKERS: 'x' })).toBeUndefined();
    const one = parsePoolSettings({ MESHSCOPE_PARSE_WORKERS: '1', MESHSCOPE_PARSE_POOL_MIN_BYTES: '5000' });
    expect(one).toEqual({ workers: 1, minBytes: 5000 });
    expect(parsePoolSettings({ MESHSCOPE_PARSE_WORKERS: '64' })?.workers).toBeLessThanOrEqual(4);
    expect(parsePoolSettings({ MESHSCOPE_PARSE_WORKERS: '2' })?.minBytes).toBe(1024 * 1024);
  });

  it("serve's defaults: one worker with a second core, for files of 5 MiB and more; the variables still decide", () => {
    expect(serveParsePoolDefaults(1).workers).toBe(0);
    expect(serveParsePoolDefaults(2)).toEqual({ workers: 1, minBytes: SERVE_PARSE_POOL_MIN_BYTES });
    expect(SERVE_PARSE_POOL_MIN_BYTES).toBe(5 * 1024 * 1024);
    expect(parsePoolSettings({}, serveParsePoolDefaults(1))).toBeUndefined();
    expect(parsePoolSettings({ MESHSCOPE_PARSE_WORKERS: '0' }, serveParsePoolDefaults(8))).toBeUndefined();
    expect(parsePoolSettings({ MESHSCOPE_PARSE_POOL_MIN_BYTES: '7' }, serveParsePoolDefaults(8))?.minBytes).toBe(7);
  });

  it('serveParsePool: only under serve (MESHSCOPE_ROOT), and no worker starts before a file needs one', async () => {
    expect(serveParsePool({}, 2)).toBeUndefined();
    expect(serveParsePool({ MESHSCOPE_ROOT: REPO_ROOT }, 1)).toBeUndefined();
    const on = serveParsePool({ MESHSCOPE_ROOT: REPO_ROOT }, 2);
    expect(on?.minBytes).toBe(SERVE_PARSE_POOL_MIN_BYTES);
    expect(on?.pool.stats.spawned).toBe(0);
    await on?.pool.close();
  });
});
