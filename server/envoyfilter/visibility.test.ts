// "Did my patch land, and where?": GET /api/proxies/POD.NS `envoyFilters` and `meshscope translate
// --explain-patches` (issue #22 §2), on Istio's Bookinfo files and a testdata EnvoyFilter, loaded as a user would.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proxyDetail } from '../api/proxies';
import type { ApiContext } from '../api/types';
import { optionsOf } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo, REPO_ROOT } from '../testing/paths';

const FILTER = join(REPO_ROOT, 'server', 'envoyfilter', 'testdata', 'reviews-lua.yaml');
const paths = [bookinfo('platform', 'bookinfo.yaml'), FILTER];

describe('EnvoyFilter visibility', () => {
  const r = loadPaths(paths);
  const snapshot = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
  const ctx: ApiContext = { snapshot, options: optionsOf(snapshot) };
  const v1 = snapshot.proxies.find((p) => p.labels.app === 'reviews' && p.labels.version === 'v1');
  const v2 = snapshot.proxies.find((p) => p.labels.app === 'reviews' && p.labels.version === 'v2');

  it('the file source reads the v1alpha3 EnvoyFilter without problems', () => {
    expect(r.errors).toEqual([]);
    expect(snapshot.envoyFilters?.map((e) => `${e.meta.namespace}/${e.meta.name}`)).toEqual(['default/reviews-lua']);
  });

  it("GET /api/proxies/POD.NS gains envoyFilters with the issue's fields; applied where it landed, the reason where not", () => {
    const body = proxyDetail(ctx, v1?.id ?? '').body as unknown as { envoyFilters: Array<Record<string, unknown>> };
    expect(body.envoyFilters).toHaveLength(2);
    const [lua, cluster] = body.envoyFilters;
    expect(Object.keys(lua ?? {}).sort()).toEqual(['applied', 'applyTo', 'context', 'name', 'namespace', 'operation', 'patch', 'targets']);
    expect(lua).toMatchObject({
      namespace: 'default',
      name: 'reviews-lua',
      patch: 0,
      applyTo: 'HTTP_FILTER',
      operation: 'INSERT_BEFORE',
      context: 'SIDECAR_INBOUND',
      applied: true,
    });
    expect(cluster).toMatchObject({
      patch: 1,
      applyTo: 'CLUSTER',
      operation: 'MERGE',
      applied: false,
      targets: [],
      reason: 'no matching element',
    });
    const other = proxyDetail(ctx, v2?.id ?? '').body as unknown as { envoyFilters: Array<Record<string, unknown>> };
    expect(other.envoyFilters.map((e) => e.reason)).toEqual(Array(2).fill('workloadSelector version=v1 does not select this proxy'));
  });

  it('meshscope translate --explain-patches prints the same on stderr, the config dump on stdout', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(REPO_ROOT, 'bin', 'meshscope.mjs'),
        'translate',
        '--explain-patches',
        '--proxy',
        v1?.id ?? '',
        ...paths.flatMap((p) => ['--config', p]),
      ],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.status).toBe(0);
    const api = (proxyDetail(ctx, v1?.id ?? '').body as { envoyFilters: unknown }).envoyFilters;
    expect(JSON.parse(run.stderr)).toEqual(api);
    expect(run.stdout).toContain('type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua');
  });

  it('the sandbox takes an EnvoyFilter draft: blast radius is the one selected proxy, with its IST0151 finding (meshscope diff)', () => {
    const run = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'bin', 'meshscope.mjs'), 'diff', '--config', bookinfo('platform', 'bookinfo.yaml'), '--draft', FILTER, '-o', 'json'],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { blastRadius: Array<{ proxy: string; types: string[] }>; findings: Array<{ code: string }> };
    expect(out.blastRadius.map((b) => [b.proxy, b.types])).toEqual([[v1?.id, ['listeners']]]);
    expect(JSON.stringify(out.findings)).toContain('IST0151');
  });
});
