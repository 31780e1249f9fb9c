// E2E against `meshscope serve` on the embedded demo mesh, with Debian's Chromium.
// Ports: E2E_PORT / E2E_XDS_PORT, else free ones picked once here (workers inherit them via env).
import { spawnSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

function freePort(): string {
  const r = spawnSync(
    process.execPath,
    ['-e', "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"],
    { encoding: 'utf8' },
  );
  if (r.status !== 0 || !/^\d+$/.test(r.stdout)) throw new Error(`could not pick a free port: ${r.stderr}`);
  return r.stdout;
}

process.env.E2E_PORT ??= freePort();
process.env.E2E_XDS_PORT ??= freePort();
const PORT = process.env.E2E_PORT;
const XDS_PORT = process.env.E2E_XDS_PORT;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  workers: 1,
  timeout: 30_000,
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: '.reports/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node bin/meshscope.mjs serve --port ${PORT} --xds-port ${XDS_PORT}`,
    url: `http://127.0.0.1:${PORT}/api/healthz`,
    reuseExistingServer: false,
    // Includes `next build` when .next is missing or stale (about a minute on 2 cores).
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
