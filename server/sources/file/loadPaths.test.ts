// loadPaths on real files in a temp directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPaths } from './loadPaths';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const svc = (name: string, ns?: string) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n${ns ? `  namespace: ${ns}\n` : ''}spec:\n  ports: [{port: 80}]\n`;

mkdirSync(join(dir, 'b', 'nested'), { recursive: true });
mkdirSync(join(dir, '.git'));
writeFileSync(join(dir, 'b', 'nested', 'z.yml'), svc('z'));
writeFileSync(join(dir, 'a.yaml'), `---\n# only a comment\n---\n${svc('a1')}---\n${svc('a2', 'other')}\n---\n`);
writeFileSync(
  join(dir, 'b', 'list.json'),
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'j1' } })),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nsx' } },
    ],
  }),
);
writeFileSync(
  join(dir, 'b', 'svclist.yaml'),
  `apiVersion: v1\nkind: ServiceList\nitems:\n- ${svc('l1').replace(/\n/g, '\n  ').trimEnd()}\n`,
);
writeFileSync(join(dir, 'notes.txt'), 'not yaml: [');
writeFileSync(join(dir, '.git', 'x.yaml'), svc('hidden'));
writeFileSync(join(dir, 'broken.yaml'), `${svc('before')}---\nkind: Service\nmetadata: {name: [oops\n---\n${svc('after')}`);

const names = (r: ReturnType<typeof loadPaths>) => r.inputs.map((i) => (i.object.metadata as { name: string }).name);

describe('loadPaths', () => {
  it('walks directories recursively in sorted path order, skipping non-YAML/JSON files and dot-directories', () => {
    const r = loadPaths([dir]);
    expect(names(r)).toEqual(['a1', 'a2', 'j1', 'nsx', 'z', 'l1', 'before', 'after']);
  });

  it('expands kind: List / *List items; origins carry the file and the document index (empty docs count, are skipped)', () => {
    const r = loadPaths([join(dir, 'a.yaml'), join(dir, 'b')]);
    expect(r.inputs.map((i) => [i.origin.file?.slice(dir.length + 1), i.origin.doc])).toEqual([
      ['a.yaml', 1],
      ['a.yaml', 2],
      ['b/list.json', 0],
      ['b/list.json', 0],
      ['b/nested/z.yml', 0],
      ['b/svclist.yaml', 0],
    ]);
    expect(r.inputs.every((i) => i.origin.source === 'file')).toBe(true);
  });

  it('objects without metadata.namespace get opts.namespace (default "default"); cluster-scoped kinds do not', () => {
    const ns = (r: ReturnType<typeof loadPaths>) => r.inputs.map((i) => (i.object.metadata as { namespace?: string }).namespace);
    expect(ns(loadPaths([join(dir, 'a.yaml'), join(dir, 'b', 'list.json')]))).toEqual(['default', 'other', 'default', undefined]);
    expect(ns(loadPaths([join(dir, 'a.yaml')], { namespace: 'team' }))).toEqual(['team', 'other']);
  });

  it('a YAML syntax error is located (file, doc, line) and the other documents still load', () => {
    const r = loadPaths([join(dir, 'broken.yaml')]);
    expect(names(r)).toEqual(['before', 'after']);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0]).toMatchObject({ severity: 'error', file: join(dir, 'broken.yaml'), doc: 1 });
    expect(r.errors[0]?.message).toMatch(/^YAML syntax error at line (9|10)/);
  });

  it('"-" reads opts.stdin; a missing path is a located error', () => {
    const r = loadPaths(['-', join(dir, 'nope.yaml')], { stdin: svc('from-stdin') });
    expect(names(r)).toEqual(['from-stdin']);
    expect(r.inputs[0]?.origin.file).toBe('<stdin>');
    expect(r.errors).toEqual([{ severity: 'error', message: expect.stringContaining('ENOENT'), file: join(dir, 'nope.yaml') }]);
  });

  it('a document that is not a mapping is an error, not a crash', () => {
    writeFileSync(join(dir, 'scalar.yaml'), 'just a string\n');
    const r = loadPaths([join(dir, 'scalar.yaml')]);
    expect(r.inputs).toEqual([]);
    expect(r.errors[0]).toMatchObject({ severity: 'error', doc: 0 });
  });
});
