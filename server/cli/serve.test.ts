// `meshscope serve` planning (what the Next child gets in MESHSCOPE_CONFIG) and the build check.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRuntimeConfig, sourceMode } from '../api/runtimeConfig';
import { buildStatus, preservingFile } from './build';
import { planServe } from './commands/serve';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'meshscope-serve-test-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('planServe', () => {
  it('defaults to the demo mesh on :3000 with xDS on :15010 (DESIGN.md §3)', async () => {
    const plan = await planServe([], '/work');
    expect(plan).toEqual({ port: 3000, runtime: { xdsPort: 15010 } });
    expect(sourceMode(plan.runtime)).toBe('demo');
  });

  it('resolves --config paths against the cwd and keeps their order; the env round-trips', async () => {
    const plan = await planServe(
      ['--config', 'a.yaml', '--config', '/abs/dir', '--port', '0', '--xds-port', '0', '-n', 'team'],
      '/project/x',
    );
    expect(plan.runtime).toEqual({ config: ['/project/x/a.yaml', '/abs/dir'], namespace: 'team', xdsPort: 0 });
    expect(plan.port).toBe(0);
    expect(parseRuntimeConfig(JSON.stringify(plan.runtime))).toEqual({ config: plan.runtime });
  });

  it('keeps piped stdin (--config -) as a file the server can reload', async () => {
    const plan = await planServe(['--config', '-'], '/work', async () => 'kind: Namespace\n');
    const file = plan.runtime.config?.[0] ?? '';
    expect(readFileSync(file, 'utf8')).toBe('kind: Namespace\n');
    rmSync(join(file, '..'), { recursive: true, force: true });
  });

  it('--allow-apply, --auth-token-file and --contracts reach the runtime config (paths resolved against the cwd)', async () => {
    const plan = await planServe(['--in-cluster', '--allow-apply', '--auth-token-file', 'tok', '--contracts', 'c.yaml'], '/w');
    expect(plan.runtime).toMatchObject({ inCluster: true, allowApply: true, authTokenFile: '/w/tok', contracts: '/w/c.yaml' });
    expect(parseRuntimeConfig(JSON.stringify(plan.runtime))).toEqual({ config: plan.runtime });
    expect((await planServe([], '/w')).runtime.allowApply).toBeUndefined();
  });

  it('rejects --kubeconfig together with --in-cluster', async () => {
    await expect(planServe(['--kubeconfig', 'k', '--in-cluster'], '/w')).rejects.toThrow(/either/);
    expect(sourceMode((await planServe(['--in-cluster'], '/w')).runtime)).toBe('kube');
  });
});

describe('parseRuntimeConfig', () => {
  it('reports bad JSON and unknown fields instead of throwing', () => {
    expect(parseRuntimeConfig('{').error).toMatch(/not JSON/);
    expect(parseRuntimeConfig('{"confg":["x"]}').error).toMatch(/invalid/);
    expect(parseRuntimeConfig(undefined)).toEqual({ config: {} });
  });
});

describe('buildStatus', () => {
  it('needs a build when BUILD_ID is missing or older than a source file', () => {
    const root = tmp();
    mkdirSync(join(root, 'app'));
    writeFileSync(join(root, 'app', 'page.tsx'), 'x');
    expect(buildStatus(root)).toEqual({ needed: true, reason: '.next/BUILD_ID is missing' });
    mkdirSync(join(root, '.next'));
    writeFileSync(join(root, '.next', 'BUILD_ID'), 'id');
    const old = new Date(Date.UTC(2020, 0, 1));
    utimesSync(join(root, 'app', 'page.tsx'), old, old);
    expect(buildStatus(root).needed).toBe(false);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'app', 'page.tsx'), later, later);
    expect(buildStatus(root).needed).toBe(true);
  });
});

describe('preservingFile', () => {
  it('puts a file rewritten during the build back, bytes and mtime', async () => {
    const root = tmp();
    const f = join(root, 'tsconfig.json');
    writeFileSync(f, '{"a": 1}\n');
    const old = new Date(Date.UTC(2021, 5, 1));
    utimesSync(f, old, old);
    const out = await preservingFile(f, async () => {
      writeFileSync(f, '{\n  "a": 1,\n  "b": 2\n}\n');
      return 7;
    });
    expect(out).toBe(7);
    expect(readFileSync(f, 'utf8')).toBe('{"a": 1}\n');
    expect(statSync(f).mtimeMs).toBe(old.getTime());
  });
});
