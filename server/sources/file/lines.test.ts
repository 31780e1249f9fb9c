// Problems located at the line of their field in the file (parsed again on demand).
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../model/problem';
import { addLines } from './lines';

type At = Pick<Problem, 'file' | 'doc' | 'object' | 'path' | 'line'>;

const text = [
  'apiVersion: v1', // 1
  'kind: Service',
  'metadata: {name: a}',
  '---',
  'apiVersion: networking.istio.io/v1', // 5
  'kind: VirtualService',
  'metadata:',
  '  name: vs',
  'spec:',
  '  hosts: [a]', // 10
  '  http:',
  '  - route:',
  '    - destination:',
  '        host: a',
  '      weight: 150', // 15
  '---',
  'apiVersion: v1',
  'kind: List',
  'items:',
  '- apiVersion: v1', // 20
  '  kind: Pod',
  '  metadata: {name: p1}',
  '- apiVersion: v1',
  '  kind: Pod',
  '  metadata: {name: p2}', // 25
  '  spec:',
  '    containers:',
  '    - name: c',
  '      args: [1]',
].join('\n');
const read = (f: string) => (f === 'mesh.yaml' ? text : undefined);

describe('addLines', () => {
  it('gives the line of the field key, of the closest ancestor when it is absent, of the object without a path', () => {
    const got = addLines<At>(
      [
        { file: 'mesh.yaml', doc: 1, object: 'VirtualService default/vs', path: 'spec.http[0].route[0].weight' },
        { file: 'mesh.yaml', doc: 1, object: 'VirtualService default/vs', path: 'spec.http[0].route[0].destination.port' },
        { file: 'mesh.yaml', doc: 1, object: 'VirtualService default/vs' },
        { file: 'mesh.yaml', doc: 0, object: 'Service default/a', path: 'spec' },
      ],
      read,
    );
    expect(got.map((p) => p.line)).toEqual([15, 13, 5, 1]);
  });

  it('finds the item of a List by its name', () => {
    const got = addLines<At>([{ file: 'mesh.yaml', doc: 2, object: 'Pod default/p2', path: 'spec.containers[0].args[0]' }], read);
    expect(got[0]!.line).toBe(29);
  });

  it('leaves problems it cannot locate as they are', () => {
    const p: At[] = [{ file: 'gone.yaml', doc: 0, path: 'spec' }, { file: 'mesh.yaml' }, { file: 'mesh.yaml', doc: 9 }];
    expect(addLines(p, read)).toEqual(p);
  });
});
