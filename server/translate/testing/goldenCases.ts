// The translator golden cases (server/translate/testdata/<case>/case.json) as the golden tests read them:
// inputs loaded through the product's file source, the proxies picked, and one compare-or-write step
// (UPDATE_GOLDEN=1 rewrites; otherwise a missing or different file fails). Used by translate/golden.test.ts
// (Envoy output, provenance, errors) and view/golden.test.ts (the view stage on its own).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { expect } from 'vitest';
import { optionsOf, type LoadError, type MeshSnapshot, type ProxyModel, type TranslateOptions } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { loadPaths } from '../../sources/file/loadPaths';
import { fixturesDir, REPO_ROOT } from '../../testing/paths';

export interface GoldenCase {
  /** Input files/dirs; `fixtures:` prefix = ../shared/fixtures, else relative to the case dir. */
  inputs: string[];
  /** Proxies to translate: an id `POD.NS`, or `{namespace, labels}` picking the first matching proxy. */
  proxies: (string | { namespace: string; labels: Record<string, string> })[];
  options?: Partial<TranslateOptions>;
  /** Negative cases: the inputs or the translation are expected to report errors (pinned in `*.errors.json`). */
  expectErrors?: boolean;
  /** Which Istio rules / tests the expectation was checked against, and what was verified. */
  checked: string;
}

export const GOLDEN_ROOT = resolve(REPO_ROOT, 'server/translate/testdata');
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

const readCase = (name: string): GoldenCase => JSON.parse(readFileSync(join(GOLDEN_ROOT, name, 'case.json'), 'utf8')) as GoldenCase;

/**
 * The case names, sorted: those whose inputs are all in this repo, or (`fixtures: true`) those reading
 * ../shared/fixtures — the conformance group, run only where the fixtures are (vitest.config.ts).
 */
export const goldenCaseNames = (opts: { fixtures: boolean }): string[] =>
  readdirSync(GOLDEN_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(GOLDEN_ROOT, d.name, 'case.json')))
    .map((d) => d.name)
    .filter((n) => readCase(n).inputs.some((p) => p.startsWith('fixtures:')) === opts.fixtures)
    .sort();

export interface LoadedCase {
  dir: string;
  outDir: string;
  spec: GoldenCase;
  snapshot: MeshSnapshot;
  options: TranslateOptions;
  proxies: { label: string; proxy: ProxyModel | undefined; selector: GoldenCase['proxies'][number] }[];
}

export function loadGoldenCase(name: string): LoadedCase {
  const dir = join(GOLDEN_ROOT, name);
  const spec = readCase(name);
  const paths = spec.inputs.map((p) => (p.startsWith('fixtures:') ? join(fixturesDir(), p.slice(9)) : join(dir, p)));
  const { inputs, errors } = loadPaths(paths);
  const snapshot = buildSnapshot(inputs, { version: 1, extraErrors: errors });
  const proxies = spec.proxies.map((sel) => {
    const proxy =
      typeof sel === 'string'
        ? snapshot.proxiesById.get(sel)
        : snapshot.proxies.find((p) => p.namespace === sel.namespace && Object.entries(sel.labels).every(([k, v]) => p.labels[k] === v));
    const label = typeof sel === 'string' ? sel : `${sel.namespace}.${Object.values(sel.labels).join('-')}`;
    return { label, proxy, selector: sel };
  });
  return { dir, outDir: join(dir, 'out'), spec, snapshot, options: { ...optionsOf(snapshot), ...spec.options }, proxies };
}

/** Errors with their file made machine-independent: `fixtures:<path>` or relative to the case directory. */
export function portableErrors(errors: readonly LoadError[], caseDir: string): LoadError[] {
  let fixtures: string | undefined;
  try {
    fixtures = fixturesDir();
  } catch {
    fixtures = undefined;
  }
  return errors.map((e) => {
    if (e.file === undefined) return e;
    const f = fixtures && e.file.startsWith(fixtures + sep) ? `fixtures:${relative(fixtures, e.file)}` : relative(caseDir, e.file);
    return { ...e, file: f.split(sep).join('/') };
  });
}

/** Writes (UPDATE_GOLDEN=1) or compares `value` as pretty JSON; records the file in `written`. */
export function checkGoldenJson(file: string, value: unknown, written: Set<string>): void {
  written.add(file);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (UPDATE_GOLDEN) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(existsSync(file), `${file} missing: run UPDATE_GOLDEN=1 and check it`).toBe(true);
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

/** UPDATE_GOLDEN=1: deletes files of this test's kinds (by suffix) that were not written. */
export function removeStale(outDir: string, written: Set<string>, owns: (file: string) => boolean): void {
  if (!UPDATE_GOLDEN || !existsSync(outDir)) return;
  for (const f of readdirSync(outDir)) if (owns(f) && !written.has(join(outDir, f))) rmSync(join(outDir, f));
}
