// `meshscope serve` planning (what the Next child gets in MESHSCOPE_CONFIG) and the build check.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRuntimeConfig, sourceMode } from '../api/runtimeConfig';
import { buildStatus, preservingFile } from './build';
import { planServe, readyLine } from './commands/serve';

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
    const plan = await planServe([], '/work', undefined, {});
    expect(plan).toEqual({ port: 3000, runtime: { xdsPort: 15010, demoTraffic: true } });
    expect(sourceMode(plan.runtime)).toBe('demo');
  });

  it('--prometheus URL (else MESHSCOPE_PROMETHEUS_URL) names the Prometheus to read; only http(s) URLs', async () => {
    expect((await planServe(['--prometheus', 'http://127.0.0.1:9090'], '/w', undefined, {})).runtime.prometheus).toBe(
      'http://127.0.0.1:9090',
    );
    expect((await planServe([], '/w', undefined, { MESHSCOPE_PROMETHEUS_URL: 'http://p:9090' })).runtime.prometheus).toBe('http://p:9090');
    expect(
      (await planServe(['--prometheus', 'http://a:1'], '/w', undefined, { MESHSCOPE_PROMETHEUS_URL: 'http://b:2' })).runtime.prometheus,
    ).toBe('http://a:1');
    await expect(planServe(['--prometheus', 'file:///etc/passwd'], '/w', undefined, {})).rejects.toThrow(/http:\/\/ or https:\/\//);
    await expect(planServe(['--prometheus', 'not a url'], '/w', undefined, {})).rejects.toThrow(/--prometheus/);
    const plan = await planServe(['--prometheus', 'http://127.0.0.1:9090'], '/w', undefined, {});
    expect(parseRuntimeConfig(JSON.stringify(plan.runtime))).toEqual({ config: plan.runtime });
  });

  it('the demo data plane: on for the demo mesh (off with --no-demo-traffic), opt-in for files, refused for a cluster', async () => {
    expect((await planServe(['--no-demo-traffic'], '/w')).runtime.demoTraffic).toBeUndefined();
    expect((await planServe(['--config', 'd'], '/w')).runtime.demoTraffic).toBeUndefined();
    const files = await planServe(['--config', 'd', '--demo-traffic', '--demo-rate', '10'], '/w');
    expect(files.runtime).toMatchObject({ config: ['/w/d'], demoTraffic: true, demoRate: 10 });
    expect(parseRuntimeConfig(JSON.stringify(files.runtime))).toEqual({ config: files.runtime });
    await expect(planServe(['--in-cluster', '--demo-traffic'], '/w')).rejects.toThrow(/loopback IPs/);
    await expect(planServe(['--demo-rate', '500'], '/w')).rejects.toThrow(/0 to 200/);
    expect((await planServe(['--demo-base', '127.0.9'], '/w')).runtime.demoBase).toBe('127.0.9');
    await expect(planServe(['--demo-base', '10.0.9'], '/w')).rejects.toThrow(/127\.A\.B/);
    await expect(planServe(['--demo-base', '127.0.300'], '/w')).rejects.toThrow(/127\.A\.B/);
    await expect(planServe(['--config', 'd', '--demo-base', '127.0.9'], '/w')).rejects.toThrow(/embedded demo/);
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
    // The token file is read at once (a missing or empty one is a usage error, tested below).
    const w = tmp();
    writeFileSync(join(w, 'tok'), 's3cret\n');
    const plan = await planServe(['--in-cluster', '--allow-apply', '--auth-token-file', 'tok', '--contracts', 'c.yaml'], w, undefined, {});
    expect(plan.runtime).toMatchObject({
      inCluster: true,
      allowApply: true,
      authTokenFile: join(w, 'tok'),
      authToken: 's3cret',
      contracts: join(w, 'c.yaml'),
    });
    expect(parseRuntimeConfig(JSON.stringify(plan.runtime))).toEqual({ config: plan.runtime });
    expect((await planServe([], '/w')).runtime.allowApply).toBeUndefined();
  });

  it('--live-config [--proxy-admin-port N] reaches the runtime config, on a cluster only (issue 21 §1)', async () => {
    const plan = await planServe(['--in-cluster', '--live-config', '--proxy-admin-port', '15001'], '/w', undefined, {});
    expect(plan.runtime).toMatchObject({ liveConfig: true, proxyAdminPort: 15001 });
    expect(parseRuntimeConfig(JSON.stringify(plan.runtime))).toEqual({ config: plan.runtime });
    expect((await planServe(['--in-cluster', '--live-config'], '/w', undefined, {})).runtime.proxyAdminPort).toBeUndefined();
    expect((await planServe(['--in-cluster'], '/w', undefined, {})).runtime.liveConfig).toBeUndefined();
    await expect(planServe(['--live-config'], '/w', undefined, {})).rejects.toThrow(/--live-config.*cluster/);
    await expect(planServe(['--in-cluster', '--proxy-admin-port', '15001'], '/w', undefined, {})).rejects.toThrow(/with --live-config/);
    await expect(planServe(['--in-cluster', '--live-config', '--proxy-admin-port', '0'], '/w', undefined, {})).rejects.toThrow(/1-65535/);
  });

  it('rejects --kubeconfig together with --in-cluster', async () => {
    await expect(planServe(['--kubeconfig', 'k', '--in-cluster'], '/w')).rejects.toThrow(/either/);
    expect(sourceMode((await planServe(['--in-cluster'], '/w')).runtime)).toBe('kube');
  });
});

/** A non-loopback bind must say how users sign in (issue #26): these tests mean an open server. */
const OPEN = ['--auth', 'none', '--i-understand-this-is-open'];

describe('planServe: --address, --allowed-host, the token (issue 14 items 9, 10, 12)', () => {
  it('takes an IP --address and host names without port; refuses anything else', async () => {
    const plan = await planServe(
      ['--address', '0.0.0.0', '--allowed-host', 'meshscope.meshscope.svc', '--allowed-host', '[fd00::1]', ...OPEN],
      '/w',
      undefined,
      {},
    );
    expect(plan.runtime).toMatchObject({ address: '0.0.0.0', allowedHosts: ['meshscope.meshscope.svc', '[fd00::1]'] });
    await expect(planServe(['--address', 'example.com'], '/w', undefined, {})).rejects.toThrow(/--address must be an IP address/);
    // The image sets MESHSCOPE_ADDRESS=0.0.0.0 so that `docker run … serve --kubeconfig …` is reachable; the flag wins.
    expect((await planServe(OPEN, '/w', undefined, { MESHSCOPE_ADDRESS: '0.0.0.0' })).runtime.address).toBe('0.0.0.0');
    expect((await planServe(['--address', '::1'], '/w', undefined, { MESHSCOPE_ADDRESS: '0.0.0.0' })).runtime.address).toBe('::1');
    expect((await planServe([], '/w', undefined, {})).runtime.address).toBeUndefined();
    await expect(planServe(['--allowed-host', 'http://x:3000'], '/w', undefined, {})).rejects.toThrow(/without port or scheme/);
  });

  it('reads the token from --auth-token-file (trimmed), else MESHSCOPE_AUTH_TOKEN; an empty or missing file is an error', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 't'), 'abc123\n');
    writeFileSync(join(dir, 'empty'), '\n');
    expect((await planServe(['--auth-token-file', 't'], dir, undefined, {})).runtime.authToken).toBe('abc123');
    expect((await planServe([], dir, undefined, { MESHSCOPE_AUTH_TOKEN: ' envtok ' })).runtime.authToken).toBe('envtok');
    expect((await planServe(['--auth-token-file', 't'], dir, undefined, { MESHSCOPE_AUTH_TOKEN: 'envtok' })).runtime.authToken).toBe(
      'abc123',
    );
    expect((await planServe([], dir, undefined, {})).runtime.authToken).toBeUndefined();
    await expect(planServe(['--auth-token-file', 'empty'], dir, undefined, {})).rejects.toThrow(/is empty/);
    await expect(planServe(['--auth-token-file', 'missing'], dir, undefined, {})).rejects.toThrow(/--auth-token-file missing: ENOENT/);
    expect((await planServe([], dir, undefined, { MESHSCOPE_MAX_BODY_BYTES: '1024' })).runtime.maxBodyBytes).toBe(1024);
    await expect(planServe([], dir, undefined, { MESHSCOPE_MAX_BODY_BYTES: '8MB' })).rejects.toThrow(/positive number of bytes/);
  });

  it('the start-up line shows the bound addresses, or says plainly that ADS could not bind', () => {
    const ready = { type: 'meshscope-ready' as const, http: 'http://127.0.0.1:41234' };
    expect(
      readyLine(
        'k',
        { ...ready, xds: '127.0.0.1:1', xdsState: { state: 'listening', port: 1 } },
        { gate: ', cluster apply off', after: '; t' },
      ),
    ).toBe('meshscope: serving k on http://127.0.0.1:41234 (xDS 127.0.0.1:1, cluster apply off); t\n');
    expect(readyLine('the demo mesh', { ...ready, xds: '127.0.0.1:41235', xdsState: { state: 'listening', port: 41235 } })).toBe(
      'meshscope: serving the demo mesh on http://127.0.0.1:41234 (xDS 127.0.0.1:41235)\n',
    );
    expect(
      readyLine('x', { ...ready, xdsState: { state: 'failing', error: 'ADS server could not listen on 127.0.0.1:15010: EADDRINUSE' } }),
    ).toMatch(/NOT READY: ADS server could not listen on 127\.0\.0\.1:15010: EADDRINUSE \(\/api\/healthz answers 503\)/);
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

  it('needs a build when proxy.ts (compiled into the build, run before every request) changed', () => {
    const root = tmp();
    mkdirSync(join(root, '.next'));
    writeFileSync(join(root, '.next', 'BUILD_ID'), 'id');
    writeFileSync(join(root, 'proxy.ts'), 'x');
    const old = new Date(Date.UTC(2020, 0, 1));
    utimesSync(join(root, 'proxy.ts'), old, old);
    expect(buildStatus(root).needed).toBe(false);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'proxy.ts'), later, later);
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
