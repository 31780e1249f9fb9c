// GET /api/ztunnel and `meshscope ztunnel-config` (issue #20 §3): the same JSON, IP bytes as text, and the
// istioctl-like tables (istioctl/pkg/writer/ztunnel/configdump workload.go, services.go, policies.go headers).
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { optionsOf } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { ztunnelDebugDump, ztunnelView } from './ztunnel';

const MESH = fileURLToPath(new URL('../translate/ztunnel/testdata/ambient.yaml', import.meta.url));
const snapshot = buildSnapshot(loadPaths([MESH]).inputs, { version: 3, ambient: true });
const ctx = { snapshot, options: optionsOf(snapshot) };

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (f: (s: string) => void) => new Writable({ write: (c, _e, cb) => (f(String(c)), cb()) });
  const code = await main(args, { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) });
  return { code, stdout, stderr };
}

type Body = {
  workloads: Array<Record<string, unknown>>;
  services: Array<Record<string, unknown>>;
  policies: Array<Record<string, unknown>>;
};

describe('GET /api/ztunnel', () => {
  const body = ztunnelView(ctx).body as Body;
  it('answers workloads, services and policies with IPs as text', () => {
    expect(Object.keys(body)).toEqual(['workloads', 'services', 'policies']);
    const w = body.workloads.find((x) => x['name'] === 'productpage-v1-7d4f8-abcde')!;
    expect(w['addresses']).toEqual(['10.244.1.10']);
    const s = body.services.find((x) => x['name'] === 'reviews')!;
    // A NetworkAddress is `<network>/<ip>`: `/ip` with no network.
    expect(s['addresses']).toEqual(['/10.96.1.11']);
    expect(s['waypoint']).toEqual({ hostname: { namespace: 'shop', hostname: 'waypoint.shop.svc.cluster.local' }, hboneMtlsPort: 15008 });
    const deny = body.policies.find((p) => p['name'] === 'deny-paths')!;
    expect(JSON.stringify(deny)).toContain('{"address":"10.0.0.0","length":8}');
  });
  it('?section= selects one list; a bad one is a 400', () => {
    expect(Object.keys(ztunnelView(ctx, new URLSearchParams('section=policies')).body as object)).toEqual(['policies']);
    expect(ztunnelView(ctx, new URLSearchParams('section=nope')).status).toBe(400);
  });
  it('/debug/config_dump?types=workload answers Workloads and Services (istio.workload.Address)', () => {
    expect(Object.keys(ztunnelDebugDump(ctx, 'workload').body as object)).toEqual(['workloads', 'services']);
    expect(ztunnelDebugDump(ctx, 'cluster').status).toBe(400);
  });
  it('without the ambient profile the lists are empty (istiod has no ambient index)', () => {
    const plain = buildSnapshot(loadPaths([MESH]).inputs, { version: 1 });
    expect(ztunnelView({ snapshot: plain, options: optionsOf(plain) }).body).toEqual({ workloads: [], services: [], policies: [] });
  });

  it('meshscope ztunnel-config -o json prints the same JSON', async () => {
    const r = await run(['ztunnel-config', '--config', MESH, '--ambient', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(body);
  });
});

describe('meshscope ztunnel-config tables', () => {
  it('workloads: istioctl zc workloads columns, sorted by namespace.name', async () => {
    const r = await run(['ztunnel-config', '--config', MESH, '--ambient', 'workloads']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+POD NAME\s+ADDRESS\s+NODE\s+WAYPOINT\s+PROTOCOL$/);
    expect(lines[1]).toMatch(/^legacy\s+legacy-app\s+10\.244\.3\.5\s+None\s+TCP$/);
    expect(lines[2]).toMatch(/^shop\s+productpage-v1-7d4f8-abcde\s+10\.244\.1\.10\s+node-a\s+None\s+HBONE$/);
  });
  it('services: VIPs without the network, the waypoint by its Service name, healthy/all endpoints', async () => {
    const r = await run(['ztunnel-config', '--config', MESH, '--ambient', 'services']);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+SERVICE NAME\s+SERVICE VIP\s+WAYPOINT\s+ENDPOINTS$/);
    expect(lines.find((l) => /^shop\s+reviews\s/.test(l))).toMatch(/^shop\s+reviews\s+10\.96\.1\.11\s+waypoint\s+1\/2$/);
  });
  it('policies: ACTION and SCOPE with the enum defaults written out', async () => {
    const r = await run(['ztunnel-config', '--config', MESH, '--ambient', 'policies']);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+POLICY NAME\s+ACTION\s+SCOPE$/);
    expect(lines).toContainEqual(expect.stringMatching(/^istio-system\s+allow-nothing-global\s+ALLOW\s+GLOBAL$/));
  });
  it('an unknown section is a usage error (exit 2)', async () => {
    expect((await run(['ztunnel-config', '--config', MESH, 'pods'])).code).toBe(2);
  });
});
