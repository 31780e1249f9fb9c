// Opening `istioctl bug-report` archives and OSSM must-gathers (issue 21 §3). The layout is Istio's
// (tools/bug-report/pkg/archive/archive.go: proxies/<ns>/<pod>, istio/<ns>/<pod>, cluster/;
// content/content.go: k8s-resources, k8s-cluster-resources, crs; common/common.go: the proxy URL
// `config_dump?include_eds` used as the file name). The archives are built here (bugReport.testing.ts).
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeDrift } from '../drift/index';
import { LiveError } from '../live/types';
import { buildSnapshot } from '../model/snapshot';
import { bugReportEntries, POD, POD_ID, translatedDump, writeBugReport, writeMustGather } from './bugReport.testing';
import { ArchiveError, archiveInputs, archiveLiveSource, archiveProxies, DEFAULT_ARCHIVE_LIMITS, readArchive } from './index';
import { classifyEntry } from './layout';

const tmp = () => mkdtempSync(join(tmpdir(), 'archive-'));

describe('archive layout', () => {
  it('classifies the bug-report and must-gather entries meshscope reads, under any root folder', () => {
    expect(classifyEntry('bug-report/cluster/crs')).toEqual({ role: 'cluster', kind: 'bug-report' });
    expect(classifyEntry('cluster/k8s-resources')).toEqual({ role: 'cluster', kind: 'bug-report' });
    expect(classifyEntry('bug-report/proxies/default/productpage-v1-1/config_dump?include_eds')).toEqual({
      role: 'proxyDump',
      kind: 'bug-report',
      namespace: 'default',
      pod: 'productpage-v1-1',
    });
    expect(classifyEntry('bug-report/istio/istio-system/istiod-1/debug/syncz')).toMatchObject({ role: 'syncz', pod: 'istiod-1' });
    expect(classifyEntry('mg/namespaces/bookinfo/pods/p-1/config_dump_proxy.json')).toMatchObject({
      role: 'proxyDump',
      kind: 'must-gather',
      pod: 'p-1',
    });
    expect(classifyEntry('mg/namespaces/bookinfo/pods/p-1/config_dump_istiod.json')).toMatchObject({ role: 'istiodDump' });
    expect(classifyEntry('mg/namespaces/bookinfo/networking.istio.io/virtualservices.yaml')).toEqual({
      role: 'cluster',
      kind: 'must-gather',
    });
    // Not read: logs, secrets listings, other groups, escapes.
    for (const p of [
      'bug-report/cluster/secrets',
      'bug-report/proxies/default/p/istio-proxy.log',
      'mg/namespaces/x/core/pods/p.yaml',
      'mg/namespaces/x/batch/jobs.yaml',
      '../cluster/crs',
      '/cluster/crs',
      'a/../cluster/crs',
    ])
      expect(classifyEntry(p)).toBeUndefined();
  });
});

describe('an istioctl bug-report .tar.gz', async () => {
  const file = writeBugReport(join(tmp(), 'bug-report.tar.gz'));
  const a = await readArchive(file);

  it('keeps the cluster Lists, the pod dump and syncz; nothing else', () => {
    expect(a.kind).toBe('bug-report');
    expect(a.errors).toEqual([]);
    expect(a.files.map((f) => f.path)).toEqual([
      'bug-report/cluster/crs',
      'bug-report/cluster/k8s-cluster-resources',
      'bug-report/cluster/k8s-resources',
      'bug-report/istio/istio-system/istiod-5d8f7c9b6-abcde/debug/syncz',
      `bug-report/proxies/default/${POD}/config_dump?include_eds`,
    ]);
    expect(archiveProxies(a)).toEqual([POD_ID]);
  });

  it('its cluster objects feed translation: the listed pod is a proxy, Istio CRs are read', () => {
    const { inputs, errors } = archiveInputs(a);
    expect(errors.filter((e) => e.severity === 'error')).toEqual([]);
    const kinds = new Set(inputs.map((i) => i.object.kind));
    for (const k of ['Service', 'Pod', 'Deployment', 'DestinationRule', 'VirtualService', 'Namespace']) expect(kinds).toContain(k);
    const snap = buildSnapshot(inputs, { version: 1 });
    expect(snap.proxies.map((p) => p.id)).toContain(POD_ID);
    // Located under the archive: `FILE:entry`.
    expect(inputs.find((i) => i.object.kind === 'VirtualService')?.origin).toMatchObject({ file: `${file}:bug-report/cluster/crs` });
  });

  it("its pod dump is a LiveSource with source bug-report; it is in sync with meshscope's translation", async () => {
    const live = archiveLiveSource(a, '2026-11-27T15:00:00Z');
    const d = await live.fetch(POD_ID);
    expect(d).toMatchObject({ proxy: POD_ID, source: 'bug-report', fetchedAt: '2026-11-27T15:00:00Z' });
    expect(d.bytes).toBe(Buffer.byteLength(JSON.stringify(translatedDump())));
    expect(computeDrift(translatedDump(), d.configDump).inSync).toBe(true);
    await expect(live.fetch('ghost.default')).rejects.toMatchObject({ status: 404, stage: 'proxy' });
    await expect(live.fetch('ghost.default')).rejects.toThrow(/ghost\.default/);
  });

  it('a dump that is not JSON is a 502 with stage archive', async () => {
    const entries = bugReportEntries().map((e) => (e.name.includes('config_dump') ? { ...e, body: '{oops' } : e));
    const bad = await readArchive(writeBugReport(join(tmp(), 'b.tgz'), entries));
    const err = await archiveLiveSource(bad, 'now')
      .fetch(POD_ID)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiveError);
    expect(err).toMatchObject({ status: 502, stage: 'archive' });
  });
});

describe('archive limits and hostile entries', () => {
  it('an entry whose path escapes the root is not read and is a located error', async () => {
    const f = writeBugReport(join(tmp(), 'x.tgz'), [...bugReportEntries(), { name: '../../etc/cluster/crs', body: 'kind: List' }]);
    const a = await readArchive(f);
    expect(a.files.some((x) => x.path.includes('..'))).toBe(false);
    expect(a.errors).toEqual([{ severity: 'error', file: f, message: '../../etc/cluster/crs: path escapes the archive root; not read' }]);
  });

  it('a link where a read file would be is not followed', async () => {
    const f = writeBugReport(join(tmp(), 'l.tgz'), [
      ...bugReportEntries().filter((e) => !e.name.endsWith('/crs')),
      { name: 'bug-report/cluster/crs', type: '2', linkname: '/etc/passwd' },
    ]);
    const a = await readArchive(f);
    expect(a.files.some((x) => x.path.endsWith('/crs'))).toBe(false);
    expect(a.errors[0]?.message).toBe('bug-report/cluster/crs: is a SymbolicLink, not a file; not followed');
  });

  it('too many entries, an oversize file, a file that is not a tar: limits hold, errors are located', async () => {
    const f = writeBugReport(join(tmp(), 'n.tgz'));
    await expect(readArchive(f, { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 3 })).rejects.toThrow(`${f}: more than 3 entries`);
    const small = await readArchive(f, { ...DEFAULT_ARCHIVE_LIMITS, maxEntryBytes: 4096 });
    expect(small.errors.map((e) => e.message).find((m) => m.includes('config_dump'))).toMatch(
      /config_dump\?include_eds: \d+ bytes, over the limit of 4096 per file; not read/,
    );
    const junk = join(tmp(), 'junk.tar.gz');
    writeFileSync(junk, 'not a tar at all');
    await expect(readArchive(junk)).rejects.toBeInstanceOf(ArchiveError);
    await expect(readArchive(join(tmp(), 'missing.tgz'))).rejects.toThrow(/cannot read: ENOENT/);
  });

  it('a directory that is neither layout is refused', async () => {
    const d = tmp();
    writeFileSync(join(d, 'README'), 'hi');
    await expect(readArchive(d)).rejects.toThrow(/neither an istioctl bug-report/);
  });
});

describe('an OSSM must-gather directory', async () => {
  const root = tmp();
  const istiod = { ...translatedDump(), marker: 'istiod' };
  writeMustGather(root, translatedDump(), istiod);
  // A symlink inside the tree is never followed.
  mkdirSync(join(root, 'namespaces', 'evil', 'core'), { recursive: true });
  symlinkSync('/etc/passwd', join(root, 'namespaces', 'evil', 'core', 'services.yaml'));
  const a = await readArchive(root);

  it('reads the inspect Lists and the three-way dumps (source must-gather)', async () => {
    expect(a.kind).toBe('must-gather');
    expect(a.errors.map((e) => e.message)).toEqual(['namespaces/evil/core/services.yaml: is a symbolic link; not followed']);
    const snap = buildSnapshot(archiveInputs(a).inputs, { version: 1 });
    expect(snap.proxies.map((p) => p.id)).toContain(POD_ID);
    const live = archiveLiveSource(a, 't');
    const d = await live.fetch(POD_ID, { withIstiod: true });
    expect(d.source).toBe('must-gather');
    expect((d.istiodDump as { marker?: string }).marker).toBe('istiod');
    expect((await live.fetch(POD_ID)).istiodDump).toBeUndefined();
  });
});
