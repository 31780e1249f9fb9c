#!/usr/bin/env node
// `npm test`: unit tests (vitest) then e2e (Playwright with Debian's Chromium), one summary line.
// Never skips silently: the conformance group (tests that read ../shared/fixtures) is reported as not run
// when the fixtures are absent, and MESHSCOPE_REQUIRE_FIXTURES=1 (.ci/run) makes that a failure.
import { spawnSync } from 'node:child_process';
import { aptInstallChromium, installPlaywrightChromium, playwrightChromium, systemChromium } from './browser.mjs';
import { conformanceTestFiles, fixturesPath, fixturesPresent, fixturesRequired, NOT_RUN } from './fixtures.mjs';
import { ensurePrometheus, PROMETHEUS_NOT_RUN, prometheusRequired, prometheusTestFiles } from './prometheus.mjs';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.reports');
mkdirSync(reports, { recursive: true });

const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts }).status ?? 1;

/**
 * The browser for Playwright: CHROMIUM_PATH, a system Chromium, Playwright's own build (installed when
 * missing and the network allows), apt as root; only then fail with the commands to run.
 * Returns the executable path to hand to playwright.config.ts ('' = Playwright's own).
 */
async function ensureChromium() {
  const system = systemChromium();
  if (system) {
    if (existsSync(system)) return system;
    console.error(`test-all: CHROMIUM_PATH=${system} does not exist`);
    process.exit(1);
  }
  if (await playwrightChromium()) return '';
  console.log("test-all: no system Chromium; trying Playwright's own (npx playwright install chromium)");
  if (installPlaywrightChromium(root) && (await playwrightChromium())) return '';
  console.log("test-all: Playwright's download failed; trying Debian's chromium (apt-get install -y chromium, as root)");
  if (aptInstallChromium() && systemChromium()) return systemChromium();
  console.error(
    'test-all: no Chromium found. Either:\n  npx playwright install chromium        (needs access to the Playwright CDN)\n' +
      '  sudo apt-get update && sudo apt-get install -y chromium   (Debian/Ubuntu)\n' +
      'or point CHROMIUM_PATH at a Chromium binary.',
  );
  process.exit(1);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** vitest's JSON reporter (Jest-compatible): numPassedTests / numFailedTests. */
function vitestCounts(file) {
  const r = readJson(file);
  if (!r) return { passed: 0, failed: 1, note: 'no vitest report' };
  return { passed: r.numPassedTests ?? 0, failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0) };
}

/** Playwright's JSON reporter: stats.expected (passed), unexpected + flaky-as-passed. */
function playwrightCounts(file) {
  const r = readJson(file);
  if (!r?.stats) return { passed: 0, failed: 1, note: 'no playwright report' };
  return { passed: (r.stats.expected ?? 0) + (r.stats.flaky ?? 0), failed: r.stats.unexpected ?? 0 };
}

if (!fixturesPresent()) {
  if (fixturesRequired()) {
    console.error(`test-all: MESHSCOPE_REQUIRE_FIXTURES=1 but the shared fixtures are absent at ${fixturesPath()}`);
    process.exit(1);
  }
  console.log(`test-all: conformance group (${conformanceTestFiles().length} unit files, the bookinfo e2e project): ${NOT_RUN}`);
}
// The prometheus group (tests against a real Prometheus): fetched here when missing (Debian's package).
const prometheusBin = ensurePrometheus();
if (!prometheusBin) {
  if (prometheusRequired()) {
    console.error(`test-all: MESHSCOPE_REQUIRE_PROMETHEUS=1 but no Prometheus could be had (PROMETHEUS_BIN, node scripts/prometheus.mjs)`);
    process.exit(1);
  }
  console.log(`test-all: prometheus group (${prometheusTestFiles().length} unit files): ${PROMETHEUS_NOT_RUN}`);
}
const chromium = await ensureChromium();

const bin = (name) => join(root, 'node_modules', '.bin', name);
const vitestJson = join(reports, 'vitest.json');
const playwrightJson = join(reports, 'playwright.json');

// Stale reports from an earlier run must never be counted.
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const unitStatus = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile=${vitestJson}`]);
const e2eStatus = run(bin('playwright'), ['test'], { env: { ...process.env, CHROMIUM_PATH: chromium } });

const u = vitestCounts(vitestJson);
const e = playwrightCounts(playwrightJson);
for (const note of [u.note, e.note]) if (note) console.error(`test-all: ${note}`);
// A runner that failed without reporting a failed test (crash, config error) still counts as one failure.
const failed = u.failed + e.failed + (unitStatus !== 0 && u.failed === 0 ? 1 : 0) + (e2eStatus !== 0 && e.failed === 0 ? 1 : 0);
const passed = u.passed + e.passed;
const conformance = fixturesPresent() ? 'conformance: run' : `conformance: ${NOT_RUN}`;
const prom = prometheusBin ? 'prometheus: run' : `prometheus: ${PROMETHEUS_NOT_RUN}`;
console.log(`unit: ${u.passed} passed, ${u.failed} failed; e2e: ${e.passed} passed, ${e.failed} failed; ${conformance}; ${prom}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
