import { describe, expect, it } from 'vitest';
import { graphStateFromParams, graphStateToParams } from './urlState';

describe('route graph URL state', () => {
  it('round-trips filter and selected node, keeping other parameters (tab)', () => {
    const s = {
      filter: { routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080', port: 9080, text: 'v2' },
      node: 'route:vh:rc:9080/3/1',
    };
    const p = graphStateToParams(s, new URLSearchParams('tab=graph&vh=old'));
    expect(p.get('tab')).toBe('graph');
    expect(graphStateFromParams(p)).toEqual(s);
  });

  it('no graph parameters: no filter (the view chooses); an explicit "show all" survives a reload', () => {
    expect(graphStateFromParams(new URLSearchParams('tab=graph'))).toEqual({});
    const all = graphStateToParams({ filter: {} }, new URLSearchParams('tab=graph'));
    expect(graphStateFromParams(all)).toEqual({ filter: {} });
  });

  it('ignores a port that is not a number', () => {
    expect(graphStateFromParams(new URLSearchParams('port=abc'))).toEqual({ filter: {} });
  });
});
