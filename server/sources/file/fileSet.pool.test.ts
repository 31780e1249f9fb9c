// The file source's first loads on a parse worker (issue 24 goal 6; the server's runtime wires this as
// FileSetOptions.firstLoad): a real FileSet over a multi-document file and a List big enough for the pool,
// with a real worker thread (the bundled dist/cli/parseWorker.mjs), loads what the in-thread FileSet loads
// (objects, origins, errors); a one-document edit afterwards is narrowed in-thread as before (one piece
// parsed, no job sent to the pool: goal 5's narrowing untouched), and a file with a syntax error is parsed
// whole in-thread with its located error and keeps its last good objects, as without the pool.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FileSet } from './fileSet';
import { createParsePool, type ParsePool } from './parsePool';
import { poolFirstLoad } from './pooledLoad';

const ROOT = join(__dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'meshscope-fileset-pool-'));
let pool: ParsePool;
const logs: string[] = [];

const pod = (i: number, ip: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `p-${i}`, namespace: `ns-${i % 3}`, labels: { app: `a-${i % 7}` } },
  spec: { containers: [{ name: 'app', image: 'x', ports: [{ containerPort: 8080 }] }] },
  status: { podIP: ip, podIPs: [{ ip }] },
});
const N = 600;
const multidoc = (ips: (i: number) => string) => Array.from({ length: N }, (_, i) => stringify(pod(i, ips(i)))).join('---\n');
const list = () =>
  stringify(
    { apiVersion: 'v1', kind: 'List', items: Array.from({ length: N }, (_, i) => pod(i, `10.1.0.${i % 250}`)) },
    { indentSeq: false },
  );

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), '--if-stale'], { cwd: ROOT });
  pool = createParsePool(join(ROOT, 'dist', 'cli', 'parseWorker.mjs'), { workers: 1, minBytes: 0 });
}, 120_000);
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('FileSet first loads on the parse pool', () => {
  it('loads what the in-thread FileSet loads; an edit stays in-thread and narrowed; errors as before', async () => {
    const pods = join(dir, 'pods.yaml');
    const items = join(dir, 'list.yaml');
    writeFileSync(
      pods,
      multidoc((i) => `10.0.0.${i % 250}`),
    );
    writeFileSync(items, list());
    const now = () => new Date(0); // the stale markers' time
    const pooled = new FileSet([dir], { now, firstLoad: poolFirstLoad(pool, 1, (l) => logs.push(l)) });
    const plain = new FileSet([dir], { now });
    const first = await pooled.scan();
    expect(first).toEqual(await plain.scan());
    expect(first.inputs).toHaveLength(2 * N);
    const jobs = pool.stats.done;
    expect(jobs).toBeGreaterThan(0); // the worker took part

    // One Pod's IP changed: narrowed in-thread (one piece), nothing sent to the pool.
    writeFileSync(
      pods,
      multidoc((i) => (i === 17 ? '10.9.9.9' : `10.0.0.${i % 250}`)),
    );
    const edit = await pooled.scan(true);
    expect(edit.pieces).toBe(1);
    expect(pool.stats.done).toBe(jobs);
    expect(edit).toEqual(await plain.scan(true));

    // A syntax error: the whole file parsed in-thread, its located error, its last good objects kept.
    writeFileSync(pods, multidoc((i) => `10.0.0.${i % 250}`).replace('name: p-5\n', 'name: [p-5\n'));
    const bad = await pooled.scan(true);
    expect(bad).toEqual(await plain.scan(true));
    expect(bad.errors.some((e) => e.file === pods && /YAML syntax error at line \d+/.test(e.message))).toBe(true);
    expect(bad.errors.some((e) => e.staleSince !== undefined)).toBe(true);
    expect(logs).toEqual([]);
  }, 60_000);
});
