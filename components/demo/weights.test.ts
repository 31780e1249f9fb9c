import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { draftYaml, editFromSpec } from './draft';
import { canaryStep, rebalance } from './weights';

describe('rebalance: sliders keep the sum at 100', () => {
  it('takes the difference from the others in proportion, integers adding up to 100', () => {
    expect(rebalance({ v1: 80, v2: 20, v3: 0 }, 'v2', 50)).toEqual({ v1: 50, v2: 50, v3: 0 });
    expect(rebalance({ v1: 50, v2: 25, v3: 25 }, 'v1', 0)).toEqual({ v1: 0, v2: 50, v3: 50 });
    const r = rebalance({ v1: 34, v2: 33, v3: 33 }, 'v1', 1);
    expect(Object.values(r).reduce((a, b) => a + b, 0)).toBe(100);
    expect(rebalance({ v1: 100, v2: 0, v3: 0 }, 'v1', 40)).toEqual({ v1: 40, v2: 30, v3: 30 });
  });
  it('canary steps move the first two subsets', () => {
    expect(canaryStep(['v1', 'v2', 'v3'], 90)).toEqual({ v1: 90, v2: 10, v3: 0 });
    expect(canaryStep(['v1'], 0)).toEqual({ v1: 100 });
  });
});

describe('draftYaml: the live VirtualService with the page edits', () => {
  const host = 'products.catalog.svc.cluster.local';
  const spec = {
    hosts: [host],
    http: [
      {
        name: 'shift',
        route: [
          { destination: { host, subset: 'v1' }, weight: 80 },
          { destination: { host, subset: 'v2' }, weight: 20 },
        ],
        timeout: '3s',
      },
    ],
  };
  it('reads the live weights and writes new ones, keeping the rest of the route (timeout, name)', () => {
    const edit = editFromSpec(spec, ['v1', 'v2', 'v3']);
    expect(edit.weights).toEqual({ v1: 80, v2: 20, v3: 0 });
    expect(edit.tester).toBe(false);
    const out = parse(draftYaml({ namespace: 'catalog', name: 'products', spec }, host, { ...edit, weights: { v1: 0, v2: 100, v3: 0 } }));
    expect(out.metadata).toEqual({ name: 'products', namespace: 'catalog' });
    expect(out.spec.http).toEqual([{ name: 'shift', route: [{ destination: { host, subset: 'v2' } }], timeout: '3s' }]);
  });
  it('adds the tester header route first and a fault on the catch-all; removing them restores the shape', () => {
    const edit = { ...editFromSpec(spec, ['v1', 'v2']), tester: true, fault: { delayPercent: 0, delayMs: 100, abortPercent: 50 } };
    const out = parse(draftYaml({ namespace: 'catalog', name: 'products', spec }, host, edit));
    expect(out.spec.http[0]).toEqual({
      name: 'testers',
      match: [{ headers: { 'x-user': { exact: 'tester' } } }],
      route: [{ destination: { host, subset: 'v2' } }],
    });
    expect(out.spec.http[1].fault).toEqual({ abort: { httpStatus: 503, percentage: { value: 50 } } });
    const back = parse(
      draftYaml({ namespace: 'catalog', name: 'products', spec: out.spec }, host, {
        ...edit,
        tester: false,
        fault: { delayPercent: 0, delayMs: 100, abortPercent: 0 },
      }),
    );
    expect(back.spec).toEqual(spec);
  });
});
