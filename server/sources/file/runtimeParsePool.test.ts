// The runtime singleton's parse pool (issue 24 goal 6), on: with MESHSCOPE_PARSE_WORKERS and MESHSCOPE_ROOT set
// as `meshscope serve` sets them, a runtime over the issue-24 mesh (7 multi-document files) loads the snapshot
// an in-thread FileSet gives (same objects, same errors), and stop() resolves with the pool's worker terminated
// (an idle worker is unref'd: it never holds the process). How the jobs were shared is not asserted
// (it depends on timing; pooledLoad.property.test.ts and fileSet.pool.test.ts check the worker took part).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueMesh, writeIssueMesh } from '../../../bench/issueMesh';
import { buildSnapshot } from '../../model/snapshot';
import { createRuntimeForTest } from '../../runtime';
import { REPO_ROOT } from '../../testing/paths';
import { FileSet } from './fileSet';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-rt-parse-pool-'));
const saved = { ...process.env };
afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('the runtime with its parse pool on', () => {
  it('loads what the in-thread file set loads, and stops', async () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-cli.mjs'), '--if-stale'], { cwd: REPO_ROOT });
    writeIssueMesh(issueMesh(80), 'multidoc', dir);
    Object.assign(process.env, { MESHSCOPE_PARSE_WORKERS: '1', MESHSCOPE_ROOT: REPO_ROOT, MESHSCOPE_PARSE_POOL_MIN_BYTES: '1' });
    const rt = createRuntimeForTest({ config: [dir] }, { log: () => undefined });
    try {
      await rt.ready;
      const plain = await new FileSet([dir]).scan();
      const expected = buildSnapshot(plain.inputs, { version: 1, extraErrors: plain.errors });
      const snap = rt.snapshot();
      expect(snap.pods).toEqual(expected.pods);
      expect(snap.virtualServices).toEqual(expected.virtualServices);
      expect(snap.services).toEqual(expected.services);
      expect(snap.errors).toEqual(expected.errors);
      expect(snap.pods.length).toBe(161);
    } finally {
      await rt.stop();
    }
  }, 120_000);
});
