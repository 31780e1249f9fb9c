// MSC0001 / MSC0002: regexes whose RE2 program Envoy refuses (source/common/common/regex.cc: program size >
// runtime re2.max_program_size.error_level → EnvoyException, the xDS update NACKed). Levels: Envoy's default
// 100 (test/common/common/regex_test.cc "Verify that the error level max program size defaults to 100":
// thirteen "/asdf/.*" exceed it) and istio-agent's bootstrap value 32768 (pkg/bootstrap/config.go
// extractRuntimeFlags; every testdata/*_golden.json static_layer).
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { parseText } from '../sources/file/parseFile';
import { analyze } from './index';

const vs = (re: string, where = 'uri') =>
  [
    'apiVersion: networking.istio.io/v1',
    'kind: VirtualService',
    'metadata: {name: r, namespace: default}',
    'spec:',
    '  hosts: [r]',
    '  http:',
    '  - match:',
    where === 'uri' ? `    - uri: {regex: ${JSON.stringify(re)}}` : `    - headers: {x-id: {regex: ${JSON.stringify(re)}}}`,
    '    route:',
    '    - destination: {host: r}',
  ].join('\n');

const findings = (yaml: string) => {
  const { inputs, errors } = parseText(yaml, 'r.yaml');
  return analyze(buildSnapshot(inputs, { version: 1, extraErrors: errors })).findings.filter((f) => f.code.startsWith('MSC'));
};

describe('RegexProgramSize analyzer', () => {
  it('/asdf/.* (Envoy accepts it at the default level) → nothing', () => {
    expect(findings(vs('/asdf/.*'))).toEqual([]);
  });
  it('thirteen /asdf/.* → MSC0002 Warning at the field: over Envoy’s default 100, under istio-proxy’s 32768', () => {
    const f = findings(vs('/asdf/.*'.repeat(13)));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      code: 'MSC0002',
      level: 'Warning',
      object: 'VirtualService default/r',
      path: 'spec.http[0].match[0].uri.regex',
    });
    expect(f[0]?.message).toMatch(/RE2 program size of \d+ > 100, Envoy's default re2\.max_program_size\.error_level/);
  });
  it('a header regex over 32768 (\\pL{30}: 30 copies of the Unicode letter class) → MSC0001 Error', () => {
    const f = findings(vs('\\pL{30}', 'header'));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ code: 'MSC0001', level: 'Error', path: 'spec.http[0].match[0].headers.x-id.regex' });
    expect(f[0]?.message).toMatch(/> 32768, the re2\.max_program_size\.error_level istio-proxy runs with/);
  }, 30_000); // a 37,000-instruction program: seconds on a loaded 2-core machine, not a time assertion
  it('a regex that does not parse is left to IST0106', () => {
    expect(findings(vs('a(?=b)'))).toEqual([]);
  });
});
