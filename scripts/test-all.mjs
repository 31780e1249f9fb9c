#!/usr/bin/env node
// `npm test`: unit tests (vitest) then e2e (Playwright with Debian's Chromium), one summary line.
// Never skips silently: without Chromium it installs it (root + apt-get) or fails with the command.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.reports');
mkdirSync(reports, { recursive: true });

const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts }).status ?? 1;
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(chromium)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && onPath('apt-get') && !process.env.CHROMIUM_PATH) {
    console.log(`test-all: ${chromium} is missing; installing Debian's chromium: apt-get update && apt-get install -y chromium`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (
      run('apt-get', ['update'], { env }) !== 0 ||
      run('apt-get', ['install', '-y', 'chromium'], { env }) !== 0 ||
      !existsSync(chromium)
    ) {
      console.error('test-all: installing chromium failed');
      process.exit(1);
    }
    return;
  }
  console.error(
    `test-all: Chromium not found at ${chromium}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n` +
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

ensureChromium();

const bin = (name) => join(root, 'node_modules', '.bin', name);
const vitestJson = join(reports, 'vitest.json');
const playwrightJson = join(reports, 'playwright.json');

// Stale reports from an earlier run must never be counted.
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const unitStatus = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile=${vitestJson}`]);
const e2eStatus = run(bin('playwright'), ['test']);

const u = vitestCounts(vitestJson);
const e = playwrightCounts(playwrightJson);
for (const note of [u.note, e.note]) if (note) console.error(`test-all: ${note}`);
// A runner that failed without reporting a failed test (crash, config error) still counts as one failure.
const failed = u.failed + e.failed + (unitStatus !== 0 && u.failed === 0 ? 1 : 0) + (e2eStatus !== 0 && e.failed === 0 ? 1 : 0);
const passed = u.passed + e.passed;
console.log(`unit: ${u.passed} passed, ${u.failed} failed; e2e: ${e.passed} passed, ${e.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
