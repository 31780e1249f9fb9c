// The analyze JSON contract (DESIGN.md §3, `meshscope analyze -o json`): a Problem maps to Istio's level
// names (diag/level.go: Error, Warning, Info) with its location under `origin`, and back without loss.
import { describe, expect, it } from 'vitest';
import { fromFinding, levelOf, severityOf, toFinding, type Problem } from './problem';

describe('Problem ↔ Finding', () => {
  it('maps severity to Istio level names and back', () => {
    expect((['error', 'warning', 'info'] as const).map(levelOf)).toEqual(['Error', 'Warning', 'Info']);
    expect((['Error', 'Warning', 'Info'] as const).map(severityOf)).toEqual(['error', 'warning', 'info']);
  });

  it('puts file/doc under origin (source file unless told) and keeps the contract key order', () => {
    const p: Problem = { severity: 'warning', code: 'IST0133', message: 'm', object: 'Gateway a/b', path: 'spec', file: 'f.yaml', doc: 0 };
    const f = toFinding(p);
    expect(JSON.stringify(f)).toBe(
      '{"code":"IST0133","level":"Warning","message":"m","object":"Gateway a/b","path":"spec","origin":{"source":"file","file":"f.yaml","doc":0}}',
    );
    expect(fromFinding(f)).toEqual({ ...p, source: 'file' });
  });

  it('an unlocated problem has no origin; missing code/object read as empty strings', () => {
    expect(toFinding({ severity: 'error', message: 'boom' })).toEqual({ code: '', level: 'Error', message: 'boom', object: '' });
    const kube = toFinding({ severity: 'error', code: 'IST0101', message: 'x', object: 'o', file: '/apis/x', source: 'kube' });
    expect(kube.origin).toEqual({ source: 'kube', file: '/apis/x' });
  });
});
