// The plain-YAML fast path (parseFile.plainYamlFastPath, js-yaml's YAML 1.2 core schema) reads exactly what the
// `yaml` parser reads, or declines: over every YAML file of this repo, over generated values in several YAML
// styles (fast-check), and over the scalars where YAML parsers are known to disagree (YAML 1.2 core schema,
// spec 1.2.2 §10.3: ints, floats, bools, nulls; YAML 1.1 forms such as `yes`, `0b1`, `1_000`, timestamps stay
// strings). Whatever it declines (syntax errors, duplicate keys, aliases, tags, directives) the `yaml` parser
// reads, with its located errors: parseText's results for those are the reference path's.
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/paths';
import { parseText, plainYamlFastPath } from './parseFile';
import { yamlFilesUnder, yamlValues } from './yamlFastPath.testing';

const SCALARS = [
  '0755',
  '0o17',
  '0x1F',
  '0b101',
  '1_000',
  '1e3',
  '.5',
  '+1',
  '-0',
  '00',
  '0.',
  '-.inf',
  '.NaN',
  '.inf',
  '1.0',
  '6.8523015e+5',
  '12345678901234567890',
  '190:20:30',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'True',
  'TRUE',
  'tRue',
  'false',
  '~',
  'null',
  'Null',
  'NULL',
  '',
  '2024-01-01',
  '2024-01-01T00:00:00Z',
  '"a\\tb"',
  "'it''s'",
  '"\\u00e9"',
  "''",
  'a #c',
  'a#c',
  '<<',
  '=',
  '1:2',
  '0x',
  '0o',
  '1e',
];
const DOCS = [
  '',
  '\n',
  '# only a comment\n',
  'a: 1\n---\n',
  'a: 1\n---\n# c\n',
  '---\na: 1\n',
  '# c\n---\na: 1\n',
  'a: 1\n---\n---\nb: 2\n',
  'a: 1\n...\n',
  'a: 1\n...\n---\nb: 1\n',
  'k: v\n--- \nk2: v\n',
  '\ufeffa: 1\n',
  'a: 1\r\nb: 2\r\n',
  'x: |\n  a\n  b\n',
  'x: >-\n  a\n  b\n\n',
  'x: |+\n  a\n\n',
  '__proto__: {a: 1}\n',
  '1: a\n',
  'x: [1, 2, {a: b}]\n',
  '<<: {a: 1}\n',
  '- a\n- b\n',
  'x:\n',
];

describe('plain-YAML fast path = the yaml parser', () => {
  it('every YAML file of this repo (testdata, examples, deploy) reads the same, and most take the fast path', () => {
    const files = ['server', 'examples', 'deploy'].flatMap((d) => yamlFilesUnder(`${REPO_ROOT}/${d}`));
    expect(files.length).toBeGreaterThan(50);
    let fast = 0;
    for (const { file, text } of files) {
      const values = plainYamlFastPath(text);
      if (values === undefined) continue;
      fast++;
      expect(values, file).toStrictEqual(yamlValues(text));
    }
    expect(fast).toBeGreaterThan(files.length / 2);
  });

  it('the scalars YAML parsers disagree on, and document boundaries, BOM, CRLF, block scalars', () => {
    for (const text of [...SCALARS.map((s) => `x: ${s}\n`), ...SCALARS.map((s) => `- ${s}\n`), ...DOCS]) {
      const values = plainYamlFastPath(text);
      if (values !== undefined) expect(values, JSON.stringify(text)).toStrictEqual(yamlValues(text));
    }
  });

  it('generated values in block, flow and quoted styles (property)', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    const options = fc.record({
      collectionStyle: fc.constantFrom('any', 'block', 'flow'),
      defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
    }) as fc.Arbitrary<Parameters<typeof stringify>[2] & object>;
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 3 }), options, (docs, opts) => {
        const text = docs.map((d) => stringify(d, opts)).join('---\n');
        const values = plainYamlFastPath(text);
        if (values !== undefined) expect(values).toStrictEqual(yamlValues(text));
      }),
      { numRuns: 300 },
    );
  });

  it('declines what only the yaml parser reads: aliases, tags, directives, block scalars, duplicate keys, syntax errors', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'x: !!float 1\n',
      'x: !custom 1\n',
      '%YAML 1.1\n---\nx: yes\n',
      'a: 1\na: 2\n',
      'a: [1\n',
      'a:\n\t- b\n',
      '- |2-\n   "\n',
      'x: >\n  a\n',
    ])
      expect(plainYamlFastPath(text), JSON.stringify(text)).toBeUndefined();
  });

  it('a declined text gets the yaml parser’s located errors', () => {
    const r = parseText('apiVersion: v1\nkind: Service\nmetadata: {name: a}\nmetadata: {name: b}\n', 'dup.yaml');
    expect(r.inputs).toEqual([]);
    expect(r.errors).toMatchObject([{ severity: 'error', file: 'dup.yaml', doc: 0 }]);
    expect(r.errors[0]!.message).toMatch(/YAML syntax error at line 4/);
  });
});
