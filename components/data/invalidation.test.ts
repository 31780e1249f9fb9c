import { describe, expect, it } from 'vitest';
import { keysToInvalidate } from './invalidation';
import { queryKeys } from './queryKeys';

describe('keysToInvalidate', () => {
  it('a mesh event refreshes the lists and each proxy it names, nothing else', () => {
    const keys = keysToInvalidate({ version: 4, proxies: ['a.shop', 'b.catalog'], endpointsOnly: false, errors: 0 });
    expect(keys).toEqual([queryKeys.proxies(), queryKeys.errors(), queryKeys.proxy('a.shop'), queryKeys.proxy('b.catalog')]);
    expect(keys).not.toContainEqual(queryKeys.proxy('c.shop'));
  });

  it('query keys share the meshscope prefix, so one invalidation can clear everything', () => {
    for (const k of [queryKeys.proxies(), queryKeys.errors(), queryKeys.proxy('x')]) expect(k.slice(0, 1)).toEqual([...queryKeys.all]);
  });
});

describe('keysToInvalidate for an event reaching every proxy', () => {
  it('"all" (said compactly, no ids) invalidates every proxy detail by their common prefix', () => {
    const keys = keysToInvalidate({ version: 9, proxies: [], all: true, endpointsOnly: false, errors: 0 });
    // …and the mesh config: a MeshConfig change is such an event (impact/affected.ts).
    expect(keys).toEqual([queryKeys.proxies(), queryKeys.errors(), queryKeys.everyProxy(), queryKeys.mesh()]);
    // A prefix of each proxy's key: react-query's invalidateQueries({queryKey}) matches them all.
    expect(queryKeys.proxy('x.ns').slice(0, queryKeys.everyProxy().length)).toEqual([...queryKeys.everyProxy()]);
  });
});
