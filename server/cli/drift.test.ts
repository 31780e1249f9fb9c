// `meshscope drift` through the real bin (issue 21 §2): Istio's comparator pair gives the resource-level
// differences istioctl's comparator reports (istioctl/pkg/writer/compare/comparator_test.go: clusters,
// listeners and routes "Don't Match"; the per-resource list is derived in server/drift/comparator.test.ts),
// a self-compare is in sync (exit 0), meshscope's own translation against `meshscope translate`'s output is in
// sync, and not in sync exits 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bookinfo, configDumpFixture, REPO_ROOT } from '../testing/paths';

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const A = configDumpFixture('sidecar-config_dump.json');
const B = configDumpFixture('sidecar-config_dump_diff.json');

describe('meshscope drift', () => {
  it("--expected/--actual on Istio's comparator pair: the differing resources, exit 1", () => {
    const r = cli(['drift', '--expected', A, '--actual', B, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const d = JSON.parse(r.stdout) as { inSync: boolean; resources: { type: string; name: string; change: string }[] };
    expect(d.inSync).toBe(false);
    expect(d.resources.map((x) => `${x.change} ${x.type} ${x.name}`)).toEqual([
      'changed listeners connect_terminate',
      'changed listeners main_internal',
      'onlyInMeshscope routes inbound-vip|9080|http|reviews-v3.default.svc.cluster.local',
      'onlyInEnvoy routes inbound-vip|9999|http|reviews-v3.default.svc.cluster.local',
      'onlyInMeshscope clusters inbound-vip|9080|http|ratings.default.svc.cluster.local',
      'onlyInEnvoy clusters inbound-vip|9999|http|ratings.default.svc.cluster.local',
    ]);
    const text = cli(['drift', '--expected', A, '--actual', B]);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/^Not in sync: /);
    expect(text.stdout).toMatch(/only in actual\s+clusters\s+inbound-vip\|9999\|http\|ratings/);
    expect(text.stdout).toContain('typed_config.use_remote_address');
  });

  it('a self-compare is in sync, exit 0', () => {
    const r = cli(['drift', '--expected', A, '--actual', A, '-o', 'json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ inSync: true, resources: [], nacked: [] });
  });

  it("--config --proxy --dump: meshscope's translation as expected; its own translate output is in sync", () => {
    const config = [bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'destination-rule-all.yaml')];
    const flags = config.flatMap((c) => ['--config', c]);
    const proxies = JSON.parse(cli(['proxies', ...flags, '-o', 'json']).stdout) as { id: string }[];
    const id = proxies.find((p) => p.id.startsWith('reviews-v1'))!.id;
    const t = cli(['translate', ...flags, '--proxy', id]);
    expect(t.status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'drift-cli-'));
    const dump = join(dir, 'dump.json');
    writeFileSync(dump, t.stdout);
    const same = cli(['drift', ...flags, '--proxy', id, '--dump', dump, '-o', 'json']);
    expect(same.status).toBe(0);
    expect(JSON.parse(same.stdout).inSync).toBe(true);
    // Against another pod's dump: not in sync.
    const other = cli(['drift', ...flags, '--proxy', proxies.find((p) => p.id.startsWith('ratings'))!.id, '--dump', dump]);
    expect(other.status).toBe(1);
  });

  it('usage errors exit 2; an unreadable dump exits 1 naming the file', () => {
    expect(cli(['drift', '--actual', A]).status).toBe(2);
    expect(cli(['drift', '--expected', A]).status).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'drift-cli-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"configs": 1}');
    const r = cli(['drift', '--expected', A, '--actual', bad]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`error: ${bad}: config dump has no "configs" array\n`);
  });
});
