// E2E against two `meshscope serve` instances with Debian's Chromium:
// - project "demo": the embedded demo mesh (e2e/demo/**);
// - project "bookinfo": Istio's Bookinfo manifests from ../shared/fixtures, copied into a temp dir the
//   specs may edit (live updates), plus our own ingress gateway (e2e/bookinfo/**).
// - project "gatewayapi": Bookinfo with its Gateway API manifests (gateway-api/) and the gateway deployment
//   istiod would create for bookinfo-gateway (e2e/fixtures/bookinfo-gateway-istio.yaml) (e2e/gatewayapi/**).
// - project "live": kube mode with --live-config against the in-repo fake API server (e2e/live/liveCluster.ts runs
//   both; e2e/live/**).
// Ports: E2E_PORT / E2E_XDS_PORT / E2E_BOOKINFO_PORT / E2E_BOOKINFO_XDS_PORT, else free ones picked once
// here (workers inherit them via env, as they inherit E2E_BOOKINFO_DIR).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { parseAllDocuments, stringify } from 'yaml';
import { systemChromium } from './scripts/browser.mjs';
import { fixturesPath, fixturesPresent, NOT_RUN } from './scripts/fixtures.mjs';
import { findPrometheus, PROMETHEUS_NOT_RUN, prometheusRequired } from './scripts/prometheus.mjs';

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

/** The Gateway API Bookinfo the "gatewayapi" project serves: Bookinfo's gateway-api manifests and the gateway deployment. */
export const GATEWAY_API_FILES = [
  'platform/bookinfo.yaml',
  'platform/bookinfo-versions.yaml',
  'gateway-api/bookinfo-gateway.yaml',
  'gateway-api/route-reviews-90-10.yaml',
];

function prepareGatewayApi(): string {
  const src = join(fixturesPath(), 'istio-bookinfo');
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-e2e-gwapi-'));
  for (const f of GATEWAY_API_FILES) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    copyFileSync(join(src, f), join(dir, f));
  }
  copyFileSync(resolve(HERE, 'e2e/fixtures/bookinfo-gateway-istio.yaml'), join(dir, 'bookinfo-gateway-istio.yaml'));
  return dir;
}

/**
 * Bookinfo enrolled in ambient for the "waypoint" project: its namespace `bookinfo` on every object, istio-cni's
 * annotation on the Deployments' pod templates, `istio.io/use-waypoint: waypoint` on the reviews Service, the
 * bookinfo versions, route-reviews-90-10 (a GAMMA HTTPRoute) and the waypoint (server/translate/xds/waypoint/testdata).
 */
function prepareWaypoint(): string {
  const src = join(fixturesPath(), 'istio-bookinfo');
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-e2e-waypoint-'));
  const files = ['platform/bookinfo.yaml', 'platform/bookinfo-versions.yaml', 'gateway-api/route-reviews-90-10.yaml'];
  const docs: unknown[] = [];
  for (const f of files)
    for (const d of parseAllDocuments(readFileSync(join(src, f), 'utf8'))) {
      type Obj = Record<string, unknown> & {
        metadata?: Record<string, unknown>;
        spec?: { template?: { metadata?: Record<string, unknown> } };
      };
      const o = d.toJS() as Obj | null;
      if (!o) continue;
      o.metadata = { ...o.metadata, namespace: 'bookinfo' };
      const tpl = o.spec?.template;
      if (o.kind === 'Deployment' && tpl)
        tpl.metadata = {
          ...tpl.metadata,
          annotations: { ...((tpl.metadata?.annotations as object) ?? {}), 'ambient.istio.io/redirection': 'enabled' },
        };
      if (o.kind === 'Service' && o.metadata.name === 'reviews')
        o.metadata.labels = { ...((o.metadata.labels as object) ?? {}), 'istio.io/use-waypoint': 'waypoint' };
      docs.push(o);
    }
  writeFileSync(join(dir, 'bookinfo-ambient.yaml'), docs.map((d) => stringify(d)).join('---\n'));
  copyFileSync(resolve(HERE, 'server/translate/xds/waypoint/testdata/bookinfo-waypoint.yaml'), join(dir, 'waypoint.yaml'));
  return dir;
}

process.env.E2E_PORT ??= freePort();
process.env.E2E_XDS_PORT ??= freePort();
process.env.E2E_BOOKINFO_PORT ??= freePort();
process.env.E2E_BOOKINFO_XDS_PORT ??= freePort();
process.env.E2E_GWAPI_PORT ??= freePort();
process.env.E2E_GWAPI_XDS_PORT ??= freePort();
process.env.E2E_LIVE_PORT ??= freePort();
process.env.E2E_BUGREPORT_PORT ??= freePort();
process.env.E2E_BUGREPORT_XDS_PORT ??= freePort();
process.env.E2E_LIVE_XDS_PORT ??= freePort();
process.env.E2E_WAYPOINT_PORT ??= freePort();
process.env.E2E_WAYPOINT_XDS_PORT ??= freePort();
process.env.E2E_AUTH_PORT ??= freePort();
process.env.E2E_AUTH_XDS_PORT ??= freePort();
process.env.E2E_AUTH_AUDIT ??= join(mkdtempSync(join(tmpdir(), 'meshscope-e2e-audit-')), 'audit.jsonl');
// The demo data plane's loopback base (its pods are BASE.x): one per run, so parallel runs never collide.
process.env.E2E_DEMO_BASE ??= `127.0.${2 + Math.floor(Math.random() * 250)}`;
// The bookinfo project is the e2e part of the conformance group: it needs ../shared/fixtures.
const withBookinfo = fixturesPresent() || process.env.MESHSCOPE_REQUIRE_FIXTURES === '1';
if (!withBookinfo) console.log(`playwright: the bookinfo project is ${NOT_RUN}`);
if (withBookinfo) process.env.E2E_BOOKINFO_DIR ??= prepareBookinfo();
if (withBookinfo) process.env.E2E_GWAPI_DIR ??= prepareGatewayApi();
if (withBookinfo) process.env.E2E_WAYPOINT_DIR ??= prepareWaypoint();
const { E2E_PORT, E2E_XDS_PORT, E2E_BOOKINFO_PORT, E2E_BOOKINFO_XDS_PORT, E2E_BOOKINFO_DIR, E2E_DEMO_BASE } = process.env;
const { E2E_GWAPI_PORT, E2E_GWAPI_XDS_PORT, E2E_GWAPI_DIR } = process.env;
const { E2E_LIVE_PORT, E2E_LIVE_XDS_PORT, E2E_BUGREPORT_PORT, E2E_BUGREPORT_XDS_PORT } = process.env;
const { E2E_WAYPOINT_PORT, E2E_WAYPOINT_XDS_PORT, E2E_WAYPOINT_DIR } = process.env;
const { E2E_AUTH_PORT, E2E_AUTH_XDS_PORT, E2E_AUTH_AUDIT } = process.env;
// The "prometheus" project (#23): a real Prometheus scraping a demo of its own; needs the binary
// (scripts/prometheus.mjs), loudly not run without it unless CI requires it. Its server starts only when the
// run includes the project (no --project, or --project prometheus): it is a second demo data plane.
process.env.E2E_PROM_PORT ??= freePort();
process.env.E2E_PROM_XDS_PORT ??= freePort();
process.env.E2E_PROM_DEMO_BASE ??= `127.${2 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
const withPrometheus = findPrometheus() !== undefined || prometheusRequired();
if (!withPrometheus) console.log(`playwright: the prometheus project is ${PROMETHEUS_NOT_RUN}`);
const argv = process.argv.join(' ');
const runsPrometheus = withPrometheus && (!/--project\b/.test(argv) || /--project[= ]prometheus\b/.test(argv));
const { E2E_PROM_PORT, E2E_PROM_XDS_PORT, E2E_PROM_DEMO_BASE } = process.env;

const server = (port: string, args: string) => ({
  command: `node bin/meshscope.mjs serve --port ${port} ${args}`,
  url: `http://127.0.0.1:${port}/api/healthz`,
  reuseExistingServer: false,
  // Includes `next build` when the build is missing or stale (about a minute on an idle 2-core machine,
  // ten or more on a busy one); the other servers wait for the first one's build (server/cli/buildLock.ts).
  timeout: 1_200_000,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
});

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  workers: 1,
  // CI (a busy shared machine) retries a failed browser test once; scripts/test-all.mjs prints how many
  // passed only on the retry ("flaky"), so a flake is reported, never hidden.
  retries: process.env.CI ? 1 : 0,
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
    // testMatch sees absolute paths: anchored at e2e/, so a checkout in a folder named `demo` stays right.
    { name: 'demo', testMatch: /(^|\/)e2e\/(demo\/.*|smoke)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_PORT}` } },
    // Sign-in (issue #26): meshscope serve --auth token against a fake cluster with two users (e2e/auth/signedInCluster.ts).
    { name: 'auth', testMatch: /(^|\/)e2e\/auth\/.*\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_AUTH_PORT}` } },
    // A real Prometheus scraping the demo's sidecar metrics (e2e/prometheus/promDemo.ts, issue #23).
    ...(withPrometheus
      ? [{ name: 'prometheus', testMatch: /(^|\/)e2e\/prometheus\/.*\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_PROM_PORT}` } }]
      : []),
    ...(withBookinfo
      ? [
          { name: 'bookinfo', testMatch: /(^|\/)e2e\/bookinfo\/.*\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_BOOKINFO_PORT}` } },
          { name: 'gatewayapi', testMatch: /(^|\/)e2e\/gatewayapi\/.*\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_GWAPI_PORT}` } },
          { name: 'live', testMatch: /(^|\/)e2e\/live\/.*\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_LIVE_PORT}` } },
          // `serve --bug-report` on an archive built from Bookinfo (e2e/bugreport/bugReportArchive.ts).
          {
            name: 'bugreport',
            testMatch: /(^|\/)e2e\/bugreport\/.*\.spec\.ts$/,
            use: { baseURL: `http://127.0.0.1:${E2E_BUGREPORT_PORT}` },
          },
          { name: 'waypoint', testMatch: /(^|\/)e2e\/waypoint\/.*\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${E2E_WAYPOINT_PORT}` } },
        ]
      : []),
  ],
  webServer: [
    // The demo data plane at 30 calls/s per client (4 clients), not 50: the machine is shared.
    server(E2E_PORT!, `--xds-port ${E2E_XDS_PORT} --demo-rate 30 --demo-base ${E2E_DEMO_BASE}`),
    {
      ...server(E2E_AUTH_PORT!, ''),
      command: `node --import tsx e2e/auth/signedInCluster.ts ${E2E_AUTH_PORT} ${E2E_AUTH_XDS_PORT} ${E2E_AUTH_AUDIT}`,
    },
    ...(withBookinfo ? [server(E2E_BOOKINFO_PORT!, `--xds-port ${E2E_BOOKINFO_XDS_PORT} --config ${E2E_BOOKINFO_DIR}`)] : []),
    ...(withBookinfo ? [server(E2E_GWAPI_PORT!, `--xds-port ${E2E_GWAPI_XDS_PORT} --config ${E2E_GWAPI_DIR}`)] : []),
    // The fake cluster and `serve --kubeconfig … --live-config` against it (one process tree).
    ...(withBookinfo
      ? [
          {
            ...server(E2E_LIVE_PORT!, ''),
            command: `node --import tsx e2e/live/liveCluster.ts --port ${E2E_LIVE_PORT} --xds-port ${E2E_LIVE_XDS_PORT}`,
          },
          {
            ...server(E2E_BUGREPORT_PORT!, ''),
            command: `node --import tsx e2e/bugreport/bugReportArchive.ts ${E2E_BUGREPORT_PORT} ${E2E_BUGREPORT_XDS_PORT}`,
          },
        ]
      : []),
    ...(runsPrometheus
      ? [
          {
            ...server(E2E_PROM_PORT!, ''),
            command: `node --import tsx e2e/prometheus/promDemo.ts --port ${E2E_PROM_PORT} --xds-port ${E2E_PROM_XDS_PORT} --demo-base ${E2E_PROM_DEMO_BASE}`,
          },
        ]
      : []),
    ...(withBookinfo ? [server(E2E_WAYPOINT_PORT!, `--xds-port ${E2E_WAYPOINT_XDS_PORT} --ambient --config ${E2E_WAYPOINT_DIR}`)] : []),
  ],
});
