// Translator goldens, both stages, for the cases that read Istio's Bookinfo from ../shared/fixtures (the
// conformance group: run wherever the fixtures are, reported as not run otherwise; see golden.test.ts).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../testing/paths';
import { goldenCaseNames } from './testing/goldenCases';
import { translationGolden, viewGolden } from './testing/goldenSuites';

const cases = goldenCaseNames({ fixtures: true });

describe('view goldens (shared fixtures)', () => {
  it('has cases and the fixtures', () => {
    expect(cases.length).toBeGreaterThan(0);
    expect(existsSync(fixturesDir())).toBe(true);
  });
  for (const name of cases) it(name, () => viewGolden(name));
});

describe('translator goldens (shared fixtures)', () => {
  for (const name of cases) it(name, () => translationGolden(name));
});
