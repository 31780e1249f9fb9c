// Bad input: each problem is reported with its location (file, document, object, field path) while
// everything else still loads and translates; non-zero exit only when nothing usable loaded.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/paths';
import { runCli } from './cliRun';

const dir = join(REPO_ROOT, 'server/acceptance/testdata/bad');
const f = (n: string) => join(dir, n);

describe('bad input through the CLI', () => {
  it('reports a YAML syntax error with file and document, and still loads the other document', () => {
    const r = runCli(['proxies', '--config', f('good.yaml'), '--config', f('syntax-error.yaml'), '-o', 'json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('syntax-error.yaml');
    expect(r.stderr).toMatch(/syntax-error\.yaml:1\b/); // document index 1 (the second document)
    expect(JSON.parse(r.stdout).map((p: { labels: Record<string, string> }) => p.labels.app)).toEqual(['web']);
  });

  it('reports a VirtualService field of the wrong type with its path, and translates the rest', () => {
    const proxies = JSON.parse(runCli(['proxies', '--config', f('good.yaml'), '-o', 'json']).stdout);
    const r = runCli([
      'translate',
      '--config',
      f('good.yaml'),
      '--config',
      f('wrong-type.yaml'),
      '--proxy',
      proxies[0].id,
      '--type',
      'routes',
    ]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('wrong-type.yaml');
    expect(r.stderr).toContain('VirtualService default/web-split');
    expect(r.stderr).toContain('spec.http[0].route[0].weight');
    const dump = JSON.parse(r.stdout);
    const routes = dump.configs[0].dynamic_route_configs.map((x: { route_config: { name: string } }) => x.route_config.name);
    expect(routes).toContain('8080'); // the Service still produces its route config
  });

  it('lists an unknown kind as ignored, without failing', () => {
    const r = runCli(['proxies', '--config', f('good.yaml'), '--config', f('unknown-kind.yaml'), '-o', 'json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/FrobnicatorPolicy/);
    expect(r.stderr).toContain('unknown-kind.yaml');
  });

  it('exits non-zero when nothing usable loaded', () => {
    const r = runCli(['proxies', '--config', f('unknown-kind.yaml'), '--config', join(dir, 'does-not-exist.yaml'), '-o', 'json']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('does-not-exist.yaml');
  });
});
