// The CLI with its parse worker on (issue 24 goal 6), through the real bin and its bundle (dist/cli/main.mjs
// and dist/cli/parseWorker.mjs, as `npx meshscope` runs them): on the issue-24 mesh (7 multi-document files)
// `translate --type all` prints byte for byte what the in-thread CLI prints, cold and with its cache of validated
// files — the first run (the worker's ParsedOnes stored) and the warm run after it (read back) — and the process
// ends (the worker never holds it). Run with the pool threshold lowered so these small files use it.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueMesh, podName, writeIssueMesh } from '../../bench/issueMesh';
import { runCli } from '../acceptance/cliRun';

const tmp = mkdtempSync(join(tmpdir(), 'meshscope-pooled-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string>) =>
  runCli(args, undefined, { timeoutMs: 120_000, maxBuffer: 256 * 1024 * 1024, env: { MESHSCOPE_CLI_TSX: '', ...env } });

describe('the CLI with a parse worker', () => {
  it('prints what the in-thread CLI prints, cold, on a cache miss and warm', () => {
    mkdirSync(join(tmp, 'mesh'));
    const mesh = writeIssueMesh(issueMesh(60), 'multidoc', join(tmp, 'mesh'));
    const proxy = `${podName(1, 'v1').pod}.ns-1`;
    const args = ['translate', '--config', mesh.dir, '--proxy', proxy, '--type', 'all'];
    const off = cli(args, { MESHSCOPE_PARSE_CACHE: '0', MESHSCOPE_PARSE_WORKERS: '0' });
    expect(off.status).toBe(0);
    expect(off.stdout.length).toBeGreaterThan(10_000);
    const on = { MESHSCOPE_PARSE_WORKERS: '1', MESHSCOPE_PARSE_POOL_MIN_BYTES: '1', MESHSCOPE_PARSE_POOL_STATS: '1' };
    // The pool ran: its line says how the jobs were shared (how many the worker took depends on timing).
    const used =
      /^meshscope: parse pool: \d+ jobs in a worker, \d+ on the main thread \(0 failed in the worker\); [1-9]\d* of [1-9]\d* files$/m;
    const same = (r: ReturnType<typeof cli>, pooled: boolean) => {
      expect(r.status).toBe(0);
      expect(r.stdout === off.stdout).toBe(true);
      expect(r.stderr.replace(used, '').trim()).toBe(off.stderr.trim());
      expect(used.test(r.stderr)).toBe(pooled);
    };
    same(cli(args, { ...on, MESHSCOPE_PARSE_CACHE: '0' }), true);
    const cache = join(tmp, 'cache');
    same(cli(args, { ...on, MESHSCOPE_CACHE_DIR: cache }), true);
    expect(readdirSync(cache).length).toBeGreaterThan(0); // the pooled files were stored
    same(cli(args, { ...on, MESHSCOPE_CACHE_DIR: cache }), false); // warm: every big file from the cache, no pool
  }, 240_000);
});
