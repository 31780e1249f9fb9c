// istiod's /debug/syncz in a bug-report (`istio/<ns>/<istiod>/debug/syncz`), written from its documented shape
// (pilot/pkg/xds/debug.go SyncStatus / ResourceStatus; bugReport.testing.ts syncStatusEntry): the state per type
// is istiod's debugSyncStatus (pilot/pkg/xds/statusgen.go: lastError → ERROR, no nonce sent → NOT SENT,
// acked == sent → SYNCED, else STALE), as `istioctl proxy-status` shows it. The archive is a real tar.gz.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../sources/store';
import { bugReportEntries, ISTIOD, POD_ID, syncStatusEntry, writeBugReport } from './bugReport.testing';
import { readArchive } from './read';
import { ArchiveSource } from './source';
import { archiveSyncz, typeState } from './syncz';

const dir = mkdtempSync(join(tmpdir(), 'syncz-'));

describe('typeState (statusgen.go debugSyncStatus)', () => {
  it('error first, then not sent, synced, stale', () => {
    expect(typeState('n1', 'n1', 'rejected')).toBe('ERROR');
    expect(typeState('', '', '')).toBe('NOT SENT');
    expect(typeState('n1', 'n1', '')).toBe('SYNCED');
    expect(typeState('n2', 'n1', '')).toBe('STALE');
    expect(typeState('n2', '', '')).toBe('STALE');
  });
});

describe('archiveSyncz', () => {
  it('reads each istiod’s entries with istiod’s states per type, the istiod and source marked', async () => {
    const syncz = [
      syncStatusEntry(POD_ID, { route: 'STALE' }),
      syncStatusEntry('reviews-v1-545db77b95-abcde.default', { listener: 'ERROR', endpoint: 'NOT SENT' }),
    ];
    const a = await readArchive(writeBugReport(join(dir, 'br.tgz'), bugReportEntries(undefined, syncz)));
    const { entries, errors } = archiveSyncz(a);
    expect(errors).toEqual([]);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      proxy: POD_ID,
      proxy_type: 'sidecar',
      cluster_id: 'Kubernetes',
      istio_version: '1.28.0',
      source: 'bug-report',
      istiod: `istio-system/${ISTIOD}`,
      sync: { cluster: 'SYNCED', listener: 'SYNCED', route: 'STALE', endpoint: 'SYNCED' },
    });
    expect(entries[1]!.sync).toEqual({ cluster: 'SYNCED', listener: 'ERROR', route: 'SYNCED', endpoint: 'NOT SENT' });
    expect(entries[1]!.resources?.['type.googleapis.com/envoy.config.listener.v3.Listener']?.lastError).toContain('duplicate filter chain');
  });

  it('an entry without resources (older istiod) is read from its <type>_sent / _acked fields; null is no clients', async () => {
    const old = {
      proxy: POD_ID,
      cluster_sent: 'a',
      cluster_acked: 'a',
      listener_sent: 'b',
      listener_acked: 'a',
      route_sent: 'c',
      route_acked: 'c',
    };
    const a = await readArchive(writeBugReport(join(dir, 'old.tgz'), bugReportEntries(undefined, [old])));
    expect(archiveSyncz(a).entries[0]!.sync).toEqual({ cluster: 'SYNCED', listener: 'STALE', route: 'SYNCED', endpoint: 'NOT SENT' });
    const entries = bugReportEntries().map((e) => (e.name.endsWith('/debug/syncz') ? { ...e, body: 'null' } : e));
    expect(archiveSyncz(await readArchive(writeBugReport(join(dir, 'null.tgz'), entries)))).toEqual({ entries: [], errors: [] });
  });

  it('a syncz that is not JSON, not an array, or holds an entry without a proxy is a located problem; the rest is read', async () => {
    for (const [body, want] of [
      ['{not json', /syncz: not JSON/],
      ['{"proxy":"x"}', /not a JSON array of SyncStatus/],
    ] as const) {
      const entries = bugReportEntries().map((e) => (e.name.endsWith('/debug/syncz') ? { ...e, body } : e));
      const r = archiveSyncz(await readArchive(writeBugReport(join(dir, 'bad.tgz'), entries)));
      expect(r.entries).toEqual([]);
      expect(r.errors).toEqual([
        {
          severity: 'error',
          message: expect.stringMatching(want),
          file: expect.stringMatching(/bad\.tgz:bug-report\/istio\/istio-system\/istiod-[^/]+\/debug\/syncz$/),
        },
      ]);
    }
    const a = await readArchive(writeBugReport(join(dir, 'mixed.tgz'), bugReportEntries(undefined, [42, syncStatusEntry(POD_ID)])));
    const r = archiveSyncz(a);
    expect(r.entries.map((e) => e.proxy)).toEqual([POD_ID]);
    expect(r.errors.map((e) => e.message)).toEqual(['istiod\'s syncz: [0]: not a SyncStatus with a "proxy"']);
  });

  it('serve --bug-report: the source keeps the entries (they join /debug/syncz) and reports a bad syncz as an input error', async () => {
    const store = new Store({ debounceMs: 0 });
    const src = new ArchiveSource(
      writeBugReport(join(dir, 'serve.tgz'), bugReportEntries(undefined, [7, syncStatusEntry(POD_ID, { route: 'STALE' })])),
    );
    expect(src.syncz()).toEqual([]);
    await src.start(store);
    store.flush();
    expect(src.syncz()).toEqual([
      expect.objectContaining({ proxy: POD_ID, source: 'bug-report', sync: expect.objectContaining({ route: 'STALE' }) }),
    ]);
    expect(store.snapshot().errors.map((e) => e.message)).toContain('istiod\'s syncz: [0]: not a SyncStatus with a "proxy"');
  });
});
