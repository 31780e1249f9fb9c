import { defineConfig } from 'vitest/config';
import { conformanceTestFiles, fixturesPresent, fixturesRequired, NOT_RUN } from './scripts/fixtures.mjs';
import { findPrometheus, PROMETHEUS_NOT_RUN, prometheusRequired, prometheusTestFiles } from './scripts/prometheus.mjs';

// Tests that read ../shared/fixtures (the conformance group) run only when the fixtures are there;
// otherwise they are left out and reported (scripts/test-all.mjs prints the same sentence).
const withFixtures = fixturesPresent() || fixturesRequired();
const conformance: string[] = withFixtures ? [] : conformanceTestFiles();
if (!withFixtures) console.log(`vitest: ${conformance.length} conformance test files ${NOT_RUN}`);
// Tests that start a real Prometheus (scripts/prometheus.mjs): left out and reported when there is none,
// unless MESHSCOPE_REQUIRE_PROMETHEUS=1 (CI), where they run and fail.
const withPrometheus = findPrometheus() !== undefined || prometheusRequired();
const prometheus: string[] = withPrometheus ? [] : prometheusTestFiles();
if (!withPrometheus)
  console.log(`vitest: ${prometheus.length} prometheus test files ${PROMETHEUS_NOT_RUN} (node scripts/prometheus.mjs fetches it)`);

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      'server/**/*.test.ts',
      'components/**/*.test.{ts,tsx}',
      'proto/**/*.test.ts',
      'scripts/**/*.test.ts',
      'deploy/**/*.test.ts',
      'bench/**/*.test.ts',
      '*.test.ts',
    ],
    exclude: ['node_modules', '.next', 'e2e', ...conformance, ...prometheus],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
