// E2E against two `meshscope serve` instances with Debian's Chromium:
// - project "demo": the embedded demo mesh (e2e/demo/**);
// - project "bookinfo": Istio's Bookinfo manifests from ../shared/fixtures, copied into a temp dir the
//   specs may edit (live updates), plus our own ingress gateway (e2e/bookinfo/**).
// Ports: E2E_PORT / E2E_XDS_PORT / E2E_BOOKINFO_PORT / E2E_BOOKINFO_XDS_PORT, else free ones picked once
// here (workers inherit them via env, as they inherit E2E_BOOKINFO_DIR).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { systemChromium } from './scripts/browser.mjs';
import { fixturesPath, fixturesPresent, NOT_RUN } from './scripts/fixtures.mjs';

function freePort(): string {
  const r = spawnSync(
    process.execPath,
    ['-e', "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"],
    { encoding: 'utf8' },
  );
  if (r.status !== 0 || !/^\d+$/.test(r.stdout)) throw new Error(`could not pick a free port: ${r.stderr}`);
  return r.stdout;
}

/** The Bookinfo inputs the "bookinfo" project serves, copied so that specs can change them. */
export const BOOKINFO_FILES = [
  'platform/bookinfo.yaml',
  'networking/destination-rule-all.yaml',
  'networking/virtual-service-reviews-jason-v2-v3.yaml',
  'networking/bookinfo-gateway.yaml',
];

const HERE = dirname(fileURLToPath(import.meta.url));

function prepareBookinfo(): string {
  const src = join(fixturesPath(), 'istio-bookinfo');
  if (!existsSync(src)) throw new Error(`Bookinfo fixtures not found at ${src} (clone beside ../shared or set MESHSCOPE_FIXTURES)`);
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-e2e-bookinfo-'));
  for (const f of BOOKINFO_FILES) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    copyFileSync(join(src, f), join(dir, f));
  }
  copyFileSync(resolve(HERE, 'e2e/fixtures/ingressgateway.yaml'), join(dir, 'ingressgateway.yaml'));
  return dir;
}

process.env.E2E_PORT ??= freePort();
process.env.E2E_XDS_PORT ??= freePort();
process.env.E2E_BOOKINFO_PORT ??= freePort();
process.env.E2E_BOOKINFO_XDS_PORT ??= freePort();
// The bookinfo project is the e2e part of the conformance group: it needs ../shared/fixtures.
const withBookinfo = fixturesPresent() || process.env.MESHSCOPE_REQUIRE_FIXTURES === '1';
if (!withBookinfo) console.log(`playwright: the bookinfo project is ${NOT_RUN}`);
if (withBookinfo) process.env.E2E_BOOKINFO_DIR ??= prepareBookinfo();
const { E2E_PORT, E2E_XDS_PORT, E2E_BOOKINFO_PORT, E2E_BOOKINFO_XDS_PORT, E2E_BOOKINFO_DIR } = process.env;

const server = (port: string, args: string) => ({
  command: `node bin/meshscope.mjs serve --port ${port} ${args}`,
  url: `http://127.0.0.1:${port}/api/healthz`,
  reuseExistingServer: false,
  // Includes `next build` when the build is missing or stale (about a minute on 2 cores); the
  // second server waits for the first one's build (server/cli/buildLock.ts).
  timeout: 420_000,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
});

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  workers: 1,
  timeout: 45_000,
  forbidOnly: true,
  reporter: [['list'], ['json', { outputFile: '.reports/playwright.json' }]],
  use: {
    browserName: 'chromium',
    trace: 'retain-on-failure',
    launchOptions: {
      // CHROMIUM_PATH, else a system Chromium, else Playwright's own build (scripts/browser.mjs).
      executablePath: systemChromium(),
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
  projects: [
    { name: 'demo', testMatch: /(^|\/)(demo\/.*|smoke)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_PORT}` } },
    ...(withBookinfo
      ? [{ name: 'bookinfo', testMatch: /(^|\/)bookinfo\/.*\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_BOOKINFO_PORT}` } }]
      : []),
  ],
  webServer: [
    server(E2E_PORT!, `--xds-port ${E2E_XDS_PORT}`),
    ...(withBookinfo ? [server(E2E_BOOKINFO_PORT!, `--xds-port ${E2E_BOOKINFO_XDS_PORT} --config ${E2E_BOOKINFO_DIR}`)] : []),
  ],
});
