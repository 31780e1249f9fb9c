#!/usr/bin/env node
// A real Prometheus for the tests (issue #23 §4): PROMETHEUS_BIN (promtool beside it, or PROMTOOL_BIN),
// else Debian's `prometheus` package unpacked into a cache directory (`apt-get download prometheus` +
// `dpkg-deb -x`: static binaries, no service, no root-owned install). Idempotent: a cached copy is reused.
// Tests that start one form the "prometheus" group: when no binary can be had they are reported as
// `not run: no Prometheus` (vitest.config.ts, scripts/test-all.mjs), and MESHSCOPE_REQUIRE_PROMETHEUS=1
// (.ci/run) turns that into a failure, like the fixtures group (scripts/fixtures.mjs).
// `node scripts/prometheus.mjs` fetches it and prints the two paths.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { meshscopeCacheDir, unpackDebianPackage } from './debianPackage.mjs';
import { REPO_ROOT } from './fixtures.mjs';

export const PROMETHEUS_NOT_RUN = 'not run: no Prometheus';
export const prometheusRequired = () => process.env.MESHSCOPE_REQUIRE_PROMETHEUS === '1';

/** Where the unpacked package lives: MESHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/meshscope, else ~/.cache/meshscope. */
export function prometheusCacheDir() {
  return meshscopeCacheDir('prometheus');
}

/** The binaries to use, or undefined when none is at hand (nothing is fetched here). */
export function findPrometheus() {
  const env = process.env.PROMETHEUS_BIN;
  if (env) {
    const prometheus = resolve(env);
    if (!existsSync(prometheus)) return undefined;
    const promtool = process.env.PROMTOOL_BIN ? resolve(process.env.PROMTOOL_BIN) : join(prometheus, '..', 'promtool');
    return { prometheus, promtool: existsSync(promtool) ? promtool : undefined, origin: 'PROMETHEUS_BIN' };
  }
  const bin = join(prometheusCacheDir(), 'usr', 'bin');
  if (!existsSync(join(bin, 'prometheus'))) return undefined;
  const promtool = join(bin, 'promtool');
  return { prometheus: join(bin, 'prometheus'), promtool: existsSync(promtool) ? promtool : undefined, origin: prometheusCacheDir() };
}

/** Finds, else fetches Debian's package into the cache; returns the binaries or undefined (with why on stderr). */
export function ensurePrometheus({ log = (line) => console.error(line) } = {}) {
  const found = findPrometheus();
  if (found || process.env.PROMETHEUS_BIN) {
    if (!found) log(`prometheus: PROMETHEUS_BIN=${process.env.PROMETHEUS_BIN} does not exist`);
    return found;
  }
  return unpackDebianPackage('prometheus', prometheusCacheDir(), join('usr', 'bin', 'prometheus'), log) ? findPrometheus() : undefined;
}

/** `prometheus --version`'s first line, or undefined. */
export function prometheusVersion(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? r.stdout.split('\n')[0] : undefined;
}

/** A test file belongs to the prometheus group when it starts one (server/testing/prometheus.ts) or runs promtool. */
const CALL = /(?<!function\s)\b(startPrometheus|promtoolCheckMetrics|promtoolCheckConfig)\s*\(/;

function walk(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Repo-relative paths of the unit test files of the prometheus group. */
export function prometheusTestFiles(dirs = ['server', 'scripts']) {
  const files = [];
  for (const d of dirs) if (existsSync(join(REPO_ROOT, d))) walk(join(REPO_ROOT, d), files);
  return files
    .filter((f) => {
      try {
        return CALL.test(readFileSync(f, 'utf8'));
      } catch {
        return false;
      }
    })
    .map((f) => relative(REPO_ROOT, f).split(sep).join('/'))
    .sort();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(REPO_ROOT, 'scripts', 'prometheus.mjs')) {
  const p = ensurePrometheus();
  if (!p) {
    console.error(
      `prometheus: none found (PROMETHEUS_BIN, ${prometheusCacheDir()}, apt-get download prometheus): the prometheus tests are ${PROMETHEUS_NOT_RUN}`,
    );
    process.exit(prometheusRequired() ? 1 : 0);
  }
  console.log(`prometheus: ${p.prometheus} (${prometheusVersion(p.prometheus) ?? 'version unknown'}); promtool: ${p.promtool ?? 'absent'}`);
}
