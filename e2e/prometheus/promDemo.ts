// The "prometheus" project's server (TEST-ONLY, run by playwright.config.ts as a webServer with `node --import
// tsx`): a real Prometheus (server/testing/prometheus.ts: Debian's package or PROMETHEUS_BIN, loopback, temp
// TSDB, 1 s scrapes) discovering the demo pods' sidecar metrics through meshscope's own http_sd endpoint
// (GET /api/demo/scrape-targets), and `meshscope serve --prometheus URL` on the embedded demo (its pods on
// their own loopback base) as a child. Stops both, by PID, when stopped.
//   node --import tsx e2e/prometheus/promDemo.ts --port P --xds-port X --demo-base 127.A.B
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPrometheus } from '../../server/testing/prometheus';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (!v) throw new Error(`promDemo: --${name} is required`);
  return v;
};
const port = arg('port');
const xdsPort = arg('xds-port');
const demoBase = arg('demo-base');

const prometheus = await startPrometheus(
  [
    '  - job_name: meshscope-demo',
    '    metrics_path: /stats/prometheus',
    '    http_sd_configs:',
    `      - url: http://127.0.0.1:${port}/api/demo/scrape-targets`,
    '        refresh_interval: 2s',
  ].join('\n'),
);
console.log(`promDemo: Prometheus at ${prometheus.url} (pid ${prometheus.pid})`);

const child = spawn(
  process.execPath,
  [
    join(ROOT, 'bin', 'meshscope.mjs'),
    'serve',
    '--port',
    port,
    '--xds-port',
    xdsPort,
    '--demo-base',
    demoBase,
    '--demo-rate',
    '20',
    '--prometheus',
    prometheus.url,
  ],
  { stdio: 'inherit', cwd: ROOT },
);
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  child.kill('SIGTERM');
  await prometheus.close();
  process.exit(code);
};
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
child.on('exit', (code) => void stop(code ?? 1));
