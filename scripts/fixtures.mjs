// The shared fixtures (real third-party inputs: Istio's Bookinfo, real Envoy config dumps) live in
// `../shared/fixtures` beside the clone; MESHSCOPE_FIXTURES overrides. Tests that read them form the
// "conformance" group: it runs whenever the fixtures are present, is reported as not run otherwise, and
// MESHSCOPE_REQUIRE_FIXTURES=1 (set by .ci/run) turns their absence into a failure.
// Used by vitest.config.ts, playwright.config.ts, scripts/test-all.mjs and server/testing/paths.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the fixtures are expected (whether or not they exist). */
export function fixturesPath() {
  return process.env.MESHSCOPE_FIXTURES ? resolve(process.env.MESHSCOPE_FIXTURES) : resolve(REPO_ROOT, '..', 'shared', 'fixtures');
}

export const fixturesPresent = () => existsSync(join(fixturesPath(), 'istio-bookinfo'));
export const fixturesRequired = () => process.env.MESHSCOPE_REQUIRE_FIXTURES === '1';

/** The sentence every runner prints when the group is skipped. */
export const NOT_RUN = 'not run: ../shared/fixtures absent';

/**
 * A test file belongs to the conformance group when it calls one of the functions that read the shared
 * fixtures: `fixturesDir()`, `configDumpFixture()`, or a test helper named `bookinfo…()` or `…Bookinfo…()`
 * (`readBookinfo()`: server/testing/paths.ts and the helpers built on it follow that naming, so the group is
 * found from the test file alone).
 */
const CALL = /(?<!function\s)\b(fixturesDir|configDumpFixture|bookinfo[A-Z]?\w*|[a-z]\w*Bookinfo\w*)\s*\(/;

function walk(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

function readsFixtures(file) {
  try {
    return CALL.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/** Repo-relative paths (forward slashes) of the unit test files that read the shared fixtures. */
export function conformanceTestFiles(dirs = ['server', 'components', 'deploy', 'bench', 'scripts', 'proto']) {
  const files = [];
  for (const d of dirs) if (existsSync(join(REPO_ROOT, d))) walk(join(REPO_ROOT, d), files);
  return files
    .filter((f) => readsFixtures(f))
    .map((f) => relative(REPO_ROOT, f).split(sep).join('/'))
    .sort();
}
