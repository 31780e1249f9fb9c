// Paths tests use: the repo root and the shared fixtures that sit beside the clone (../shared).
// The one place test code resolves them (scripts/fixtures.mjs decides which tests form the conformance group).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `../shared/fixtures` next to the clone; MESHSCOPE_FIXTURES overrides. Throws with a clear message when absent. */
export function fixturesDir(): string {
  const dir = process.env.MESHSCOPE_FIXTURES ? resolve(process.env.MESHSCOPE_FIXTURES) : resolve(REPO_ROOT, '..', 'shared', 'fixtures');
  if (!existsSync(dir)) throw new Error(`shared fixtures not found at ${dir}: clone beside ../shared or set MESHSCOPE_FIXTURES`);
  return dir;
}

export const bookinfo = (...p: string[]): string => join(fixturesDir(), 'istio-bookinfo', ...p);
export const configDumpFixture = (name: string): string => join(fixturesDir(), 'envoy-config-dumps', name);
