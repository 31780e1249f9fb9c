// Field paths back to YAML nodes (used to locate problems at a line).
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { nodeAt, pathSegments } from './yamlPath';

describe('pathSegments', () => {
  it('splits names, indexes and quoted keys', () => {
    expect(pathSegments('spec.http[0].route[12].weight')).toEqual(['spec', 'http', 0, 'route', 12, 'weight']);
    expect(pathSegments('metadata.labels["app.kubernetes.io/name"]')).toEqual(['metadata', 'labels', 'app.kubernetes.io/name']);
    expect(pathSegments('spec.x["a\\"b"].y')).toEqual(['spec', 'x', 'a"b', 'y']);
    expect(pathSegments('')).toEqual([]);
  });
});

describe('nodeAt', () => {
  it('finds the node on a path, or its closest existing ancestor', () => {
    const lc = new LineCounter();
    const doc = parseDocument('spec:\n  http:\n  - route:\n    - weight: 5\n', { lineCounter: lc });
    const line = (path: string) => lc.linePos(nodeAt(doc.contents, path)!.range![0]).line;
    expect(line('spec.http[0].route[0].weight')).toBe(4);
    expect(line('spec.http[0].route[3]')).toBe(4); // no item 3: the list
  });
});
