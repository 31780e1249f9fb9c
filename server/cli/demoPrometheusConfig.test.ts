// `meshscope demo prometheus-config` through the real bin: a config the real `promtool check config`
// accepts, scraping every loopback demo pod each second on /stats/prometheus (issue #23 §2).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { promtoolCheckConfig } from '../testing/prometheus';
import { REPO_ROOT } from '../testing/paths';

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const tmp = mkdtempSync(join(tmpdir(), 'meshscope-promcfg-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('meshscope demo prometheus-config', () => {
  it('prints a config promtool accepts: 1 s scrape, /stats/prometheus, one target per demo pod on --demo-base', () => {
    const r = cli(['demo', 'prometheus-config', '--demo-base', '127.0.77']);
    expect(r.status, r.stderr).toBe(0);
    const file = join(tmp, 'prometheus.yml');
    writeFileSync(file, r.stdout);
    const check = promtoolCheckConfig(file);
    expect(check.status, check.output).toBe(0);
    const cfg = parse(r.stdout) as {
      global: { scrape_interval: string };
      scrape_configs: {
        metrics_path: string;
        scrape_interval: string;
        static_configs: { targets: string[]; labels: Record<string, string> }[];
      }[];
    };
    expect(cfg.global.scrape_interval).toBe('1s');
    const job = cfg.scrape_configs[0]!;
    expect([job.metrics_path, job.scrape_interval]).toEqual(['/stats/prometheus', '1s']);
    // examples/demo: storefront ×2, cart, products v1–v3, ratings v1–v2 (the gateway is not a loopback pod).
    expect(job.static_configs.map((s) => s.targets[0])).toEqual([10, 11, 20, 30, 31, 32, 40, 41].map((x) => `127.0.77.${x}:15020`));
    expect(Object.keys(job.static_configs[0]!.labels).sort()).toEqual(['namespace', 'pod']);
  });

  it('takes --config DIR and refuses a bad --demo-base', () => {
    const r = cli(['demo', 'prometheus-config', '--config', join(REPO_ROOT, 'examples', 'demo')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('"127.0.1.30:15020"');
    const bad = cli(['demo', 'prometheus-config', '--demo-base', '10.0.0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--demo-base takes a loopback base 127.A.B');
  });
});
