import { defineConfig } from 'vitest/config';

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
    ],
    exclude: ['node_modules', '.next', 'e2e'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
