import { defineConfig } from 'vitest/config';
import { conformanceTestFiles, fixturesPresent, fixturesRequired, NOT_RUN } from './scripts/fixtures.mjs';

// Tests that read ../shared/fixtures (the conformance group) run only when the fixtures are there;
// otherwise they are left out and reported (scripts/test-all.mjs prints the same sentence).
const withFixtures = fixturesPresent() || fixturesRequired();
const conformance: string[] = withFixtures ? [] : conformanceTestFiles();
if (!withFixtures) console.log(`vitest: ${conformance.length} conformance test files ${NOT_RUN}`);

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
    exclude: ['node_modules', '.next', 'e2e', ...conformance],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
