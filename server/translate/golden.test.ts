// Translator goldens, both stages, for the cases whose inputs are all in this repo (testdata/<case>/case.json
// names the inputs and the proxies; testing/goldenSuites.ts says what each stage pins). UPDATE_GOLDEN=1
// rewrites the outputs and deletes stale ones. Every case's expectation was checked by hand against Istio's
// rules: case.json's "checked" field says which rules/tests and what was verified. Cases reading
// ../shared/fixtures run in golden.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { goldenCaseNames } from './testing/goldenCases';
import { translationGolden, viewGolden } from './testing/goldenSuites';

const cases = goldenCaseNames({ fixtures: false });

describe('view goldens', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const name of cases) it(name, () => viewGolden(name));
});

describe('translator goldens', () => {
  for (const name of cases) it(name, () => translationGolden(name));
});
