// /api/errors and /api/analyze locate each problem at the line of its field in the served file (the UI's
// problems list shows it); the reader only opens files the inputs were read from.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { inputFileReader } from '../sources/file/lines';
import { loadPaths } from '../sources/file/loadPaths';
import { analyzeMesh } from './analyze';
import { inputErrors } from './debug';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'mesh.yaml');
writeFileSync(
  file,
  [
    'apiVersion: networking.istio.io/v1',
    'kind: VirtualService',
    'metadata: {name: cart, namespace: shop}',
    'spec:',
    '  hosts: [cart]',
    '  http:',
    '  - route:',
    '    - destination: {host: cart}',
    '      weight: 150',
    '      wieght: 1',
  ].join('\n'),
);
const r = loadPaths([file]);
const snapshot = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
const ctx = { snapshot, options: DEFAULT_OPTIONS, readText: inputFileReader(() => r.inputs) };

describe('problems located at their line', () => {
  it('GET /api/errors: validation errors, warnings and the not-translated note carry the line', () => {
    const errors = inputErrors(ctx).body.errors.map((e) => [e.path ?? '', e.line, e.notTranslated === true]);
    expect(errors).toEqual([
      ['spec.http[0].route[0].wieght', 10, false],
      ['spec.http[0].route[0].weight', 9, false],
      ['', 1, true],
    ]);
  });

  it('GET /api/analyze: findings carry origin.line (the invalid VirtualService is still analyzed)', () => {
    const findings = analyzeMesh(ctx).body.findings.map((f) => [f.code, f.path, f.origin?.line]);
    expect(findings).toContainEqual(['IST0106', 'spec.http[0].route[0].weight', 9]);
    expect(findings).toContainEqual(['IST0101', 'spec.http[0].route[0].destination.host', 8]);
  });

  it('the reader opens only the files the inputs came from', () => {
    const read = inputFileReader(() => r.inputs);
    expect(read(file)).toContain('kind: VirtualService');
    expect(read(join(dir, 'other.yaml'))).toBeUndefined();
    expect(read('/etc/hostname')).toBeUndefined();
  });
});
