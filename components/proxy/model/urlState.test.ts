import { describe, expect, it } from 'vitest';
import { formatUrlState, parseUrlState } from './urlState';

describe('proxy page URL state', () => {
  it('round-trips tab, search, filters, sort and the selected row', () => {
    const s = parseUrlState(
      new URLSearchParams(
        'tab=clusters&q=reviews&port=9080&subset=v2&sort=fqdn:desc&cluster=outbound|9080|v2|reviews.default.svc.cluster.local',
      ),
    );
    expect(s).toEqual({
      tab: 'clusters',
      query: { search: 'reviews', filters: { port: '9080', subset: 'v2' }, sort: { key: 'fqdn', dir: 'desc' } },
      selected: 'outbound|9080|v2|reviews.default.svc.cluster.local',
    });
    expect(parseUrlState(new URLSearchParams(formatUrlState(s)))).toEqual(s);
  });

  it('ignores filters of other tabs and unknown tabs fall back', () => {
    const s = parseUrlState(new URLSearchParams('tab=routes&subset=v2&vhost=reviews.default.svc.cluster.local:9080&route=9080/x/0'));
    expect(s.query.filters).toEqual({ vhost: 'reviews.default.svc.cluster.local:9080' });
    expect(s.selected).toBe('9080/x/0');
    expect(parseUrlState(new URLSearchParams('tab=nope')).tab).toBe('listeners');
    expect(formatUrlState({ tab: 'raw', query: { search: '', filters: {} } })).toBe('tab=raw');
  });
});
