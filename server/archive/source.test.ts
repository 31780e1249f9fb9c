// `serve --bug-report`: the plan (flags → runtime config), and the archive as a mesh Source feeding the real
// Store and as the LiveSource of its pods' dumps (issue 21 §3: "a bug-report archive … opens with
// `serve --bug-report`"; the /live and /drift endpoints and the Playwright spec are engineer live's).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceMode } from '../api/runtimeConfig';
import { planServe } from '../cli/commands/serve';
import { Store } from '../sources/store';
import { POD_ID, writeBugReport } from './bugReport.testing';
import { ArchiveSource } from './source';

describe('serve --bug-report', () => {
  it('plans a files-mode runtime on the archive (no demo traffic; refused with a cluster or --demo-base)', async () => {
    const plan = await planServe(['--bug-report', 'br.tgz'], '/w');
    expect(plan.runtime).toMatchObject({ bugReport: '/w/br.tgz' });
    expect(plan.runtime.demoTraffic).toBeUndefined();
    expect(sourceMode(plan.runtime)).toBe('files');
    await expect(planServe(['--bug-report', 'x', '--in-cluster'], '/w')).rejects.toThrow(/not both/);
    await expect(planServe(['--bug-report', 'x', '--demo-base', '127.0.9'], '/w')).rejects.toThrow(/embedded demo/);
  });

  it('the archive feeds the store (its pod is a proxy) and serves the pod dump as source bug-report', async () => {
    const file = writeBugReport(join(mkdtempSync(join(tmpdir(), 'archive-src-')), 'br.tar.gz'));
    const store = new Store({ debounceMs: 0 });
    const src = new ArchiveSource(file, { now: () => '2026-11-27T15:00:00Z' });
    await src.start(store);
    store.flush();
    expect(store.snapshot().proxies.map((p) => p.id)).toContain(POD_ID);
    expect(store.statuses().find((s) => s.id === 'bug-report')).toMatchObject({
      state: 'connected',
      detail: expect.stringMatching(/1 pod config dump$/),
    });
    const d = await src.liveSource().fetch(POD_ID);
    expect(d).toMatchObject({ source: 'bug-report', fetchedAt: '2026-11-27T15:00:00Z', proxy: POD_ID });
    await expect(src.liveSource().fetch('nope.default')).rejects.toMatchObject({ status: 404, stage: 'proxy' });
  });

  it('an unusable archive is a failing source with its reason, and a 502 archive on /live; nothing crashes', async () => {
    const junk = join(mkdtempSync(join(tmpdir(), 'archive-src-')), 'junk.tgz');
    writeFileSync(junk, 'not a tar');
    const store = new Store({ debounceMs: 0 });
    const src = new ArchiveSource(junk);
    await src.start(store);
    store.flush();
    expect(store.statuses().find((s) => s.id === 'bug-report')).toMatchObject({
      state: 'failing',
      lastError: expect.stringContaining('not a readable tar archive'),
    });
    await expect(src.liveSource().fetch(POD_ID)).rejects.toMatchObject({ status: 502, stage: 'archive' });
  });
});
