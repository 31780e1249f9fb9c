// `--bug-report FILE|DIR` on the one-shot commands (issue 21 §3), through the real bin: the archive's cluster
// objects feed translation (its listed pod is a proxy), analyze reads them too, and `drift --bug-report
// --proxy` compares meshscope's translation with the pod's dump in the archive. The archive is built from
// Bookinfo and meshscope's translation (server/archive/bugReport.testing.ts) in Istio's layout.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bugReportEntries,
  ISTIOD,
  POD_ID,
  syncStatusEntry,
  translatedDump,
  withReviewsWeights,
  writeBugReport,
} from '../archive/bugReport.testing';
import { REPO_ROOT } from '../testing/paths';

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('--bug-report on the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bugreport-cli-'));
  const archive = writeBugReport(join(dir, 'bug-report.tar.gz'));

  it('proxies and translate read the archive alone (no --config)', () => {
    const p = cli(['proxies', '--bug-report', archive, '-o', 'json']);
    expect(p.status).toBe(0);
    expect((JSON.parse(p.stdout) as { id: string }[]).map((x) => x.id)).toContain(POD_ID);
    const t = cli(['translate', '--bug-report', archive, '--proxy', POD_ID, '--type', 'clusters']);
    expect(t.status).toBe(0);
    expect(t.stdout).toContain('outbound|9080|v1|reviews.default.svc.cluster.local');
  });

  it('drift --bug-report --proxy: the pod dump against the translation is in sync (exit 0); drift in it is found (exit 1)', () => {
    const ok = cli(['drift', '--bug-report', archive, '--proxy', POD_ID, '-o', 'json']);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).inSync).toBe(true);
    // The same archive whose dump lacks the reviews v1 cluster.
    const dump = translatedDump() as { configs: { dynamic_active_clusters?: { cluster: { name: string } }[] }[] };
    const cds = dump.configs.find((c) => c.dynamic_active_clusters)!;
    cds.dynamic_active_clusters = cds.dynamic_active_clusters!.filter(
      (c) => c.cluster.name !== 'outbound|9080|v1|reviews.default.svc.cluster.local',
    );
    const drifted = writeBugReport(join(dir, 'drifted.tgz'), bugReportEntries(dump));
    const bad = cli(['drift', '--bug-report', drifted, '--proxy', POD_ID, '-o', 'json']);
    expect(bad.status).toBe(1);
    const body = JSON.parse(bad.stdout) as { resources: { type: string; name: string; change: string }[] };
    expect(body.resources.filter((r) => r.type === 'clusters')).toEqual([
      {
        type: 'clusters',
        name: 'outbound|9080|v1|reviews.default.svc.cluster.local',
        change: 'onlyInMeshscope',
        meshscope: expect.anything(),
      },
    ]);
    const ghost = cli(['drift', '--bug-report', archive, '--proxy', 'ghost.default']);
    expect(ghost.status).toBe(1);
    expect(ghost.stderr).toContain('proxy "ghost.default" not found');
  });

  // Simulate on either side offline: the archive's Envoy holds reviews 50/50 (a stale push) where the archive's
  // VirtualService (Bookinfo's virtual-service-reviews-80-20.yaml) says 80/20; Envoy picks among
  // weighted_clusters by weight (config_impl.cc WeightedClusterEntry), so the two answers differ only there.
  it('simulate --bug-report --proxy --on dump: the pod’s own dump; --on meshscope (the default): the translation', () => {
    const stale = writeBugReport(join(dir, 'stale.tgz'), bugReportEntries(withReviewsWeights(translatedDump(), 50, 50)));
    const req = ['--proxy', POD_ID, '--mode', 'outbound', '--port', '9080', '--host', 'reviews:9080', '--path', '/reviews/1'];
    const v = (n: number) => `outbound|9080|v${n}|reviews.default.svc.cluster.local`;
    const envoy = cli(['simulate', '--bug-report', stale, ...req, '--on', 'dump']);
    expect(envoy.stderr).toBe('');
    expect(envoy.status).toBe(0);
    const onDump = JSON.parse(envoy.stdout);
    expect(onDump).toMatchObject({ listener: '0.0.0.0_9080', routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080' });
    expect(onDump.weightedClusters).toEqual({ [v(1)]: 50, [v(2)]: 50 });
    for (const on of [[], ['--on', 'meshscope']]) {
      const mine = cli(['simulate', '--bug-report', stale, ...req, ...on]);
      expect(mine.status).toBe(0);
      const onMeshscope = JSON.parse(mine.stdout);
      expect(onMeshscope.weightedClusters).toEqual({ [v(1)]: 80, [v(2)]: 20 });
      // The same hops (the rule index in `source` is meshscope's own knowledge; a dump carries only the object).
      for (const k of ['listener', 'filterChain', 'routeConfig', 'virtualHost', 'routeIndex', 'endpoints', 'error'])
        expect(onMeshscope[k]).toEqual(onDump[k]);
    }
    const ghost = cli(['simulate', '--bug-report', stale, ...req.slice(2), '--proxy', 'ghost.default', '--on', 'dump']);
    expect(ghost.status).toBe(1);
    expect(ghost.stderr).toMatch(/^error: --bug-report pod "ghost\.default" has no config dump in .*stale\.tgz/);
    const usage = cli(['simulate', ...req, '--on', 'dump']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--on dump needs --bug-report');
    expect(cli(['simulate', '--bug-report', stale, ...req, '--on', 'envoy']).status).toBe(2);
  });

  // `istioctl proxy-status` on an archive: istiod's syncz in it (pilot/pkg/xds/debug.go shape; the state per type
  // is statusgen.go debugSyncStatus) as CDS LDS RDS EDS columns beside each proxy, with the istiod; -o json unchanged.
  it('proxies --bug-report shows istiod’s sync state per proxy from the archive’s debug/syncz', () => {
    const withSync = writeBugReport(join(dir, 'syncz.tgz'), bugReportEntries(undefined, [syncStatusEntry(POD_ID, { route: 'STALE' })]));
    const t = cli(['proxies', '--bug-report', withSync]);
    expect(t.status).toBe(0);
    const [head, ...lines] = t.stdout.trim().split('\n');
    expect(head!.split(/\s{2,}/)).toEqual(['ID', 'TYPE', 'NAMESPACE', 'IPS', 'LABELS', 'CDS', 'LDS', 'RDS', 'EDS', 'ISTIOD']);
    const row = lines.find((l) => l.startsWith(POD_ID))!;
    expect(row.split(/\s{2,}/).slice(-5)).toEqual(['SYNCED', 'SYNCED', 'STALE', 'SYNCED', `istio-system/${ISTIOD}`]);
    const j = cli(['proxies', '--bug-report', withSync, '-o', 'json']);
    expect(Object.keys((JSON.parse(j.stdout) as object[])[0]!)).not.toContain('sync');
    // Without a syncz entry (the default archive's syncz is []), no sync columns.
    expect(cli(['proxies', '--bug-report', archive]).stdout.split('\n')[0]).not.toContain('CDS');
  });

  it('an archive that cannot be used exits 1 with the reason; analyze reads archives too', () => {
    const junk = join(dir, 'junk.tgz');
    writeFileSync(junk, 'nope');
    const r = cli(['proxies', '--bug-report', junk]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: --bug-report .*junk\.tgz: not a readable tar archive/);
    const a = cli(['analyze', '--bug-report', archive, '-o', 'json']);
    expect([0, 1]).toContain(a.status);
    expect(Array.isArray(JSON.parse(a.stdout))).toBe(true);
  });
});
