import { describe, expect, it } from 'vitest';
import { oneOf, parseArgs, portFlag, UsageError, type FlagSpec } from './args';
import { formatError, formatTable } from './format';

const specs: FlagSpec[] = [
  { name: 'config', short: 'c', kind: 'string', repeat: true },
  { name: 'output', short: 'o', kind: 'string' },
  { name: 'in-cluster', kind: 'boolean' },
  { name: 'header', short: 'H', kind: 'string', repeat: true },
  { name: 'port', kind: 'string' },
];

describe('parseArgs (DESIGN.md §3 flag forms)', () => {
  it('collects repeated --config in order, with both --f v and --f=v forms', () => {
    const a = parseArgs(['--config', 'a.yaml', '--config=dir/', '-c', 'b.yaml'], specs);
    expect(a.lists.config).toEqual(['a.yaml', 'dir/', 'b.yaml']);
  });

  it('accepts - (stdin) as a value, but not another flag', () => {
    expect(parseArgs(['--config', '-'], specs).lists.config).toEqual(['-']);
    expect(() => parseArgs(['--config', '--output', 'json'], specs)).toThrow(UsageError);
    expect(() => parseArgs(['--config'], specs)).toThrow(/needs a value/);
  });

  it('short flags, booleans and headers with spaces', () => {
    const a = parseArgs(['-o', 'json', '--in-cluster', '-H', 'x-user: tester', 'extra'], specs);
    expect(a.flags).toMatchObject({ output: 'json', 'in-cluster': true });
    expect(a.lists.header).toEqual(['x-user: tester']);
    expect(a.positionals).toEqual(['extra']);
  });

  it('rejects unknown flags and bad values', () => {
    expect(() => parseArgs(['--nope'], specs)).toThrow(/unknown flag --nope/);
    expect(() => oneOf(parseArgs(['-o', 'yaml'], specs), 'output', ['json', 'table'] as const, 'table')).toThrow(/json\|table/);
    expect(() => portFlag(parseArgs(['--port', '70000'], specs), 'port', 3000)).toThrow(UsageError);
    expect(portFlag(parseArgs([], specs), 'port', 3000)).toBe(3000);
    expect(portFlag(parseArgs(['--port', '0'], specs), 'port', 3000)).toBe(0);
  });
});

describe('CLI formatting', () => {
  it('prints located errors as file:doc: Kind ns/name: path: message', () => {
    expect(
      formatError({
        severity: 'error',
        file: 'vs.yaml',
        doc: 1,
        object: 'VirtualService default/web',
        path: 'spec.http[0].route[0].weight',
        message: 'must be an integer',
      }),
    ).toBe('vs.yaml:1: VirtualService default/web: spec.http[0].route[0].weight: must be an integer');
    expect(formatError({ severity: 'warning', file: 'x.yaml', message: 'unknown kind Foo (ignored)' })).toBe(
      'x.yaml: warning: unknown kind Foo (ignored)',
    );
  });

  it('aligns table columns', () => {
    expect(
      formatTable(
        ['ID', 'TYPE'],
        [
          ['a.default', 'sidecar'],
          ['gw.istio-system', 'router'],
        ],
      ),
    ).toBe('ID               TYPE\na.default        sidecar\ngw.istio-system  router\n');
  });
});
