// Istio route.go translateRoute: one Envoy route per match of each http rule (one when the rule has no
// match), named `rule.name` or `rule.name.match.name`; a match whose port differs from the listener
// port yields no route.
import { describe, expect, it } from 'vitest';
import { ruleForRoute } from './ruleIndex';

const jason = [{ match: [{}] }, {}]; // virtual-service-reviews-jason-v2-v3.yaml: http[0] one (header) match, http[1] none

describe('ruleForRoute', () => {
  it('Bookinfo jason VS: route 0 is http[0].match[0], route 1 is http[1]', () => {
    expect(ruleForRoute(jason, '', 0)).toEqual({ index: 0, match: 0, by: 'order' });
    expect(ruleForRoute(jason, '', 1)).toEqual({ index: 1, by: 'order' });
    expect(ruleForRoute(jason, '', 2)).toBeUndefined();
  });

  it('a rule with several matches yields one route per match', () => {
    const http = [{ match: [{}, {}, {}] }, { match: [{}] }];
    expect(ruleForRoute(http, '', 2)).toEqual({ index: 0, match: 2, by: 'order' });
    expect(ruleForRoute(http, '', 3)).toEqual({ index: 1, match: 0, by: 'order' });
  });

  it('matches for another port produce no route on this listener port', () => {
    const http = [{ match: [{ port: 8080 }, { port: 9080 }] }, {}];
    expect(ruleForRoute(http, '', 0, 9080)).toEqual({ index: 0, match: 1, by: 'order' });
    expect(ruleForRoute(http, '', 1, 9080)).toEqual({ index: 1, by: 'order' });
  });

  it('route names win: rule name, or rule.match name', () => {
    const http = [
      { name: 'a', match: [{}] },
      { name: 'canary', match: [{ name: 'beta' }, { name: 'alpha' }] },
    ];
    expect(ruleForRoute(http, 'canary.alpha', 0)).toEqual({ index: 1, match: 1, by: 'name' });
    expect(ruleForRoute(http, 'a', 5)).toEqual({ index: 0, by: 'name' });
  });
});
