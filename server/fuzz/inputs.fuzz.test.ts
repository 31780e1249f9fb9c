// Fuzzing the YAML/JSON input path (issue #25 §3): multi-document YAML, Lists, JSON, anchors/aliases, deep
// nesting, huge scalars, mutated files and garbage, and every kind meshscope reads with random fields, mixed
// into a small real mesh (server/translate/testdata/delegate-sidecar). Properties:
//  - parseText never throws; every error names the file and, when it has a line, a line of the file;
//  - the parsed objects are bounded by the input size (aliases cannot blow the input up: `yaml`'s alias
//    limit), a size bound, not a clock;
//  - building the snapshot, analyzing it and translating every proxy never throws, and no analyzer fails
//    (IST0001 InternalError is a crash the analyzer contract swallows).
// Runs: server/testing/fuzz.ts (MESHSCOPE_FUZZ_RUNS, seeds printed on failure).
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze';
import { buildSnapshot } from '../model/snapshot';
import { configDumpFor } from '../pipeline/configDump';
import { loadPaths } from '../sources/file/loadPaths';
import { parseText } from '../sources/file/parseFile';
import { fuzzParams, fuzzTimeout, inputText, meshObject } from '../testing/fuzz';
import { REPO_ROOT } from '../testing/paths';
import { stringify } from 'yaml';

const FILE = '/fuzz/input.yaml';
const base = loadPaths([join(REPO_ROOT, 'server/translate/testdata/delegate-sidecar/in.yaml')]);

describe('fuzz: the input path', () => {
  it(
    'parseText: no throw, errors located in the file, output bounded by the input size',
    () => {
      fc.assert(
        fc.property(inputText, (text) => {
          const r = parseText(text, FILE);
          const lines = text.split('\n').length;
          for (const e of r.errors) {
            expect(e.message.length).toBeGreaterThan(0);
            expect(e.file).toBe(FILE);
            if (e.line !== undefined) expect(e.line).toBeGreaterThanOrEqual(1), expect(e.line).toBeLessThanOrEqual(lines + 1);
          }
          expect(JSON.stringify(r.inputs).length).toBeLessThanOrEqual(200 * text.length + 10_000);
        }),
        fuzzParams(30),
      );
    },
    fuzzTimeout(30, 200),
  );

  it(
    'random objects of every kind in a real mesh: snapshot, analysis and translation never throw',
    () => {
      fc.assert(
        fc.property(fc.array(meshObject, { minLength: 1, maxLength: 6 }), (objs) => {
          const text = objs.map((o) => stringify(o)).join('---\n');
          const r = parseText(text, FILE);
          const snapshot = buildSnapshot([...base.inputs, ...r.inputs], { version: 1, extraErrors: r.errors });
          for (const e of snapshot.errors) expect(typeof e.message).toBe('string');
          const { findings } = analyze(snapshot);
          expect(findings.filter((f) => f.code === 'IST0001')).toEqual([]);
          for (const p of snapshot.proxies.slice(0, 3)) expect(configDumpFor(snapshot, p.id)).toBeDefined();
        }),
        fuzzParams(10),
      );
    },
    fuzzTimeout(10, 2_000),
  );
});
