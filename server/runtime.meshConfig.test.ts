// The runtime with `serve --mesh-config FILE` on real files: the file replaces the ConfigMap in the --config
// inputs; editing it re-translates every proxy (istiod pushes everything on a mesh config change) and the
// effective options follow; a broken edit keeps the last good mesh config with a located error.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeshEvent } from './api/events';
import { meshConfigView } from './api/meshConfig';
import { translateProxy } from './translate';
import { createRuntimeForTest, type MeshscopeRuntime } from './runtime';
import { REPO_ROOT } from './testing/paths';

const running: MeshscopeRuntime[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const rt of running.splice(0)) await rt.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const waitFor = async (cond: () => boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('runtime with --mesh-config', () => {
  it('replaces the ConfigMap, follows edits with an every-proxy event, keeps the last good config on bad YAML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-rt-mesh-'));
    dirs.push(dir);
    // ConfigMap istio-system/istio says REGISTRY_ONLY; the --mesh-config file says ALLOW_ANY.
    copyFileSync(join(REPO_ROOT, 'server', 'translate', 'testdata', 'mesh-registry-only', 'in.yaml'), join(dir, 'in.yaml'));
    const meshFile = join(dir, '..', `${dir.split('/').pop()}-mesh.yaml`);
    dirs.push(meshFile);
    writeFileSync(meshFile, 'outboundTrafficPolicy: {mode: ALLOW_ANY}\n');
    const rt = createRuntimeForTest({ config: [join(dir, 'in.yaml')], meshConfig: meshFile });
    running.push(rt);
    await rt.ready;
    expect(rt.options.outboundTrafficPolicy).toBe('ALLOW_ANY');
    const view = meshConfigView(rt.context()).body;
    expect(view.origin).toEqual({ source: 'file', file: meshFile });
    const web = rt.snapshot().proxies.find((p) => p.namespace === 'shop')!.id;
    // virtualOutbound's last filter chain: where traffic to an unknown destination goes.
    const catchAll = () => {
      const snap = rt.snapshot();
      const vo = translateProxy(snap, snap.proxiesById.get(web)!).listeners.find((l) => l.name === 'virtualOutbound');
      return JSON.stringify(vo?.filterChains?.at(-1));
    };
    expect(catchAll()).toContain('PassthroughCluster');

    const got = new Promise<MeshEvent>((resolve) => {
      const off = rt.subscribe((e) => {
        off();
        resolve(e);
      });
    });
    writeFileSync(meshFile, 'outboundTrafficPolicy: {mode: REGISTRY_ONLY}\n');
    const event = await got;
    expect(event.proxies.length === rt.snapshot().proxies.length || event.all === true).toBe(true);
    expect(event.proxies).toContain(web);
    await waitFor(() => rt.options.outboundTrafficPolicy === 'REGISTRY_ONLY');
    expect(catchAll()).toContain('BlackHoleCluster');

    writeFileSync(meshFile, 'outboundTrafficPolicy: [broken\n');
    await waitFor(() => rt.snapshot().errors.some((e) => e.file === meshFile));
    expect(rt.options.outboundTrafficPolicy).toBe('REGISTRY_ONLY');
    expect(meshConfigView(rt.context()).body.problems[0]?.message).toMatch(/not valid YAML/);
  }, 30_000);
});
