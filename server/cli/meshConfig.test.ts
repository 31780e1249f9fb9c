// `--mesh-config FILE` and the mesh ConfigMap through the real CLI entry (in process, real files): the
// ConfigMap istio-system/istio in the --config inputs is the mesh config; --mesh-config replaces it (istiod:
// the mesh file when given, pilot/pkg/bootstrap/mesh.go). Expectations follow Istio's rules:
// sidecar_simulation_test.go:TestPassthroughTraffic (REGISTRY_ONLY → BlackHoleCluster, ALLOW_ANY →
// PassthroughCluster for an address no service owns) and TestInboundClusters (LOCALHOST → 127.0.0.1).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/paths';
import { planServe } from './commands/serve';
import { main } from './main';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (f: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, cb) {
        f(String(chunk));
        cb();
      },
    });
  const code = await main(args, { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) });
  return { code, stdout, stderr };
}

// The golden input: ConfigMap istio-system/istio with outboundTrafficPolicy REGISTRY_ONLY, shop/web, open/client.
const IN = join(REPO_ROOT, 'server', 'translate', 'testdata', 'mesh-registry-only', 'in.yaml');
const dir = mkdtempSync(join(tmpdir(), 'meshscope-cli-mesh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

async function webProxy(extra: string[] = []): Promise<string> {
  const r = await run(['proxies', '--config', IN, ...extra, '-o', 'json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { id: string; namespace: string }[]).find((p) => p.namespace === 'shop')!.id;
}

/** Where a TCP connection from shop/web to an address no service owns goes (simulate --mode outbound). */
async function unknownDestination(extra: string[]): Promise<{ cluster?: string; error?: string }> {
  const proxy = await webProxy();
  const r = await run([
    'simulate',
    '--config',
    IN,
    ...extra,
    '--proxy',
    proxy,
    '--mode',
    'outbound',
    '--address',
    '203.0.113.9',
    '--port',
    '5000',
    '--protocol',
    'tcp',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { cluster?: string };
}

describe('--mesh-config and the mesh ConfigMap in the CLI', () => {
  it('the ConfigMap in --config drives the translation (REGISTRY_ONLY: BlackHoleCluster)', async () => {
    expect((await unknownDestination([])).cluster).toBe('BlackHoleCluster');
  });

  it('--mesh-config replaces the ConfigMap (ALLOW_ANY: PassthroughCluster) for simulate', async () => {
    const mesh = file('allow.yaml', 'outboundTrafficPolicy:\n  mode: ALLOW_ANY\n');
    expect((await unknownDestination(['--mesh-config', mesh])).cluster).toBe('PassthroughCluster');
  });

  it('translate --mesh-config inboundTrafficPolicy LOCALHOST: inbound clusters are STATIC 127.0.0.1', async () => {
    const mesh = file('localhost.yaml', 'inboundTrafficPolicy: {mode: LOCALHOST}\n');
    const proxy = await webProxy();
    const r = await run(['translate', '--config', IN, '--mesh-config', mesh, '--proxy', proxy, '--type', 'clusters']);
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout;
    const dump = JSON.parse(text) as { configs: { dynamic_active_clusters?: { cluster: Record<string, unknown> }[] }[] };
    const clusters = dump.configs.flatMap((c) => c.dynamic_active_clusters ?? []).map((c) => c.cluster);
    const inbound = clusters.find((c) => c.name === 'inbound|8080||') as { type: string; load_assignment: unknown };
    expect(inbound.type).toBe('STATIC');
    expect(JSON.stringify(inbound.load_assignment)).toContain('"address":"127.0.0.1","port_value":8080');
  });

  it('a bad value in --mesh-config is a located error on stderr; the rest applies', async () => {
    const mesh = file('bad.yaml', 'outboundTrafficPolicy:\n  mode: ALLOW_ANY\nconnectTimeout: soon\n');
    const proxy = await webProxy();
    const r = await run(['translate', '--config', IN, '--mesh-config', mesh, '--proxy', proxy, '--type', 'clusters']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(mesh);
    expect(r.stderr).toMatch(/connectTimeout.*invalid duration "soon"/);
    expect(r.stdout).toContain('"connect_timeout": "10s"');
  });

  it('analyze and diff take --mesh-config too; an unreadable file is a usage error (exit 2)', async () => {
    const mesh = file('ok.yaml', 'rootNamespace: istio-system\n');
    expect((await run(['analyze', '--config', IN, '--mesh-config', mesh])).code).toBe(0);
    const draft = file('draft.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: later}\n');
    expect((await run(['diff', '--config', IN, '--mesh-config', mesh, '--draft', draft])).code).toBe(0);
    const missing = join(dir, 'nope.yaml');
    for (const cmd of ['analyze', 'proxies', 'translate']) {
      const r = await run([cmd, '--config', IN, '--mesh-config', missing, ...(cmd === 'translate' ? ['--proxy', 'x.y'] : [])]);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr).toContain(`--mesh-config ${missing}`);
    }
  });

  it('serve --mesh-config resolves the path into the runtime config', async () => {
    const plan = await planServe(['--config', 'd', '--mesh-config', 'mesh/m.yaml'], '/w', undefined, {});
    expect(plan.runtime.meshConfig).toBe(join('/w', 'mesh', 'm.yaml'));
  });
});
