// The mesh config through the store, as istiod keeps it (pilot/pkg/bootstrap/mesh.go; meshwatcher): a
// ConfigMap istio-system/istio whose YAML no longer parses keeps the last good mesh config (with a located
// error), and `--mesh-config FILE` (read and watched from the real file system) replaces the ConfigMap.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { optionsOf } from '../model/mesh';
import { MeshConfigFile } from './file/meshConfigFile';
import { Store } from './store';
import type { RawInput } from './types';

const meshMap = (mesh: string): RawInput => ({
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'istio', namespace: 'istio-system' }, data: { mesh } },
  origin: { source: 'kube', file: '/api/v1/namespaces/istio-system/configmaps/istio' },
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('mesh config in the store', () => {
  it('a ConfigMap whose mesh YAML breaks keeps the last good mesh config, with a located error', () => {
    const store = new Store({ debounceMs: 1 });
    cleanups.push(() => store.close());
    store.replace('kube', [meshMap('outboundTrafficPolicy: {mode: REGISTRY_ONLY}\n')]);
    store.flush();
    expect(optionsOf(store.snapshot()).outboundTrafficPolicy).toBe('REGISTRY_ONLY');

    store.replace('kube', [meshMap('outboundTrafficPolicy: [mode\n')]);
    store.flush();
    const snap = store.snapshot();
    expect(optionsOf(snap).outboundTrafficPolicy).toBe('REGISTRY_ONLY');
    const e = snap.errors.find((x) => x.object === 'ConfigMap istio-system/istio');
    expect(e).toMatchObject({ severity: 'error', path: 'data.mesh' });
    expect(e?.message).toMatch(/not valid YAML/);
  });

  it('a field-level error keeps only that field default; a mesh change bumps the version', () => {
    const store = new Store({ debounceMs: 1 });
    cleanups.push(() => store.close());
    store.replace('kube', [meshMap('rootNamespace: root-a\n')]);
    store.flush();
    const v1 = store.snapshot().version;
    store.replace('kube', [meshMap('rootNamespace: root-b\nconnectTimeout: never\n')]);
    store.flush();
    const snap = store.snapshot();
    expect(snap.version).toBeGreaterThan(v1);
    expect(optionsOf(snap).rootNamespace).toBe('root-b');
    expect(optionsOf(snap).connectTimeout).toBe('10s');
    expect(snap.errors.some((x) => x.path === 'data.mesh.connectTimeout' && x.severity === 'error')).toBe(true);
  });

  it('--mesh-config FILE replaces the ConfigMap, follows edits, and keeps the last good text on bad YAML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-meshcfg-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'mesh.yaml');
    writeFileSync(file, 'inboundTrafficPolicy: {mode: LOCALHOST}\n');
    const store = new Store({ debounceMs: 1 });
    cleanups.push(() => store.close());
    store.replace('kube', [meshMap('outboundTrafficPolicy: {mode: REGISTRY_ONLY}\n')]);
    const mf = new MeshConfigFile(file, store, { watch: true, intervalMs: 50 });
    cleanups.push(() => mf.stop());
    await mf.start();
    store.flush();
    let snap = store.snapshot();
    expect(snap.mesh.origin).toEqual({ source: 'file', file });
    expect(optionsOf(snap).inboundTrafficPolicy).toBe('LOCALHOST');
    expect(optionsOf(snap).outboundTrafficPolicy).toBe('ALLOW_ANY');

    writeFileSync(file, 'inboundTrafficPolicy: {mode: PASSTHROUGH}\nprotocolDetectionTimeout: 1s\n');
    await waitFor(() => (store.flush(), optionsOf(store.snapshot()).protocolDetectionTimeout === '1s'));
    expect(optionsOf(store.snapshot()).inboundTrafficPolicy).toBe('PASSTHROUGH');

    writeFileSync(file, 'inboundTrafficPolicy: [oops\n');
    await waitFor(() => (store.flush(), store.snapshot().errors.some((e) => e.file === file)));
    snap = store.snapshot();
    expect(optionsOf(snap).protocolDetectionTimeout).toBe('1s');
    expect(snap.errors.find((e) => e.file === file)?.message).toMatch(/not valid YAML/);
  });

  it('--mesh-config FILE polls against its own last read: an edit at once after start, a file that appears, no re-read when unchanged', async () => {
    // Regression: fs.watchFile took its baseline stat after start() returned, so an edit made at once was
    // sometimes its baseline and never seen. Polls now compare with the stat of the last read.
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-meshcfg-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'mesh.yaml');
    const calls: string[] = [];
    const sink = {
      setMeshConfig: (o: { text: string } | undefined, errors?: readonly { message: string }[]) =>
        calls.push(errors?.length ? `error` : (o?.text ?? '')),
    };
    const mf = new MeshConfigFile(file, sink, { watch: true, intervalMs: 20 });
    cleanups.push(() => mf.stop());
    await mf.start();
    expect(calls).toEqual(['error']); // missing: a located error, once
    await new Promise((r) => setTimeout(r, 120));
    expect(calls).toEqual(['error']); // still missing: not reported again at every poll
    writeFileSync(file, 'rootNamespace: a\n');
    await waitFor(() => calls.at(-1) === 'rootNamespace: a\n');
    writeFileSync(file, 'rootNamespace: bb\n'); // at once after the read
    await waitFor(() => calls.at(-1) === 'rootNamespace: bb\n');
    const n = calls.length;
    await new Promise((r) => setTimeout(r, 120));
    expect(calls.length).toBe(n); // unchanged file: no re-read, no new snapshot
  });

  it('--mesh-config FILE that cannot be read is a located error (defaults serve until it can)', async () => {
    const store = new Store({ debounceMs: 1 });
    cleanups.push(() => store.close());
    const missing = join(tmpdir(), 'meshscope-no-such-mesh.yaml');
    const mf = new MeshConfigFile(missing, store);
    await mf.start();
    store.flush();
    const snap = store.snapshot();
    expect(snap.mesh.origin.source).toBe('defaults');
    expect(snap.errors).toEqual([expect.objectContaining({ severity: 'error', file: missing })]);
    expect(snap.errors[0]!.message).toMatch(/--mesh-config: cannot read mesh config file/);
  });
});
