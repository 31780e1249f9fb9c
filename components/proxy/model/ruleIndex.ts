// Which http rule of a VirtualService produced a given Envoy route.
// Istio (pilot/pkg/networking/core/route/route.go BuildHTTPRoutesForVirtualService / translateRoute)
// emits, per http rule in order, one route per match condition — or one route when the rule has no
// match — and names it `rule.name` (plus `.match.name` when the match is named). So the k-th route a
// VirtualService contributes to a virtual host comes from the rule whose cumulative route count passes k.
// translateRoute drops a match whose `port` differs from the listener port (`listenPort`, the sidecar
// route config's name); other matches Istio drops for a proxy (sourceLabels / gateways) are not known
// here and would shift the count. A route name that equals a rule name wins over counting.

interface HttpRuleLike {
  name?: string | undefined;
  match?: ReadonlyArray<{ name?: string | undefined; port?: number | undefined } | null> | null | undefined;
}

export interface RuleRef {
  index: number;
  /** Index of the match condition within the rule, when the rule has matches. */
  match?: number;
  /** How the rule was found. */
  by: 'name' | 'order';
}

export function ruleForRoute(
  http: readonly HttpRuleLike[] | undefined,
  routeName: string,
  ordinal: number,
  listenPort?: number,
): RuleRef | undefined {
  const rules = http ?? [];
  if (routeName) {
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i]!;
      if (!r.name) continue;
      if (routeName === r.name) return { index: i, by: 'name' };
      const matches = r.match ?? [];
      for (let j = 0; j < matches.length; j++) {
        const mn = matches[j]?.name;
        if (mn && routeName === `${r.name}.${mn}`) return { index: i, match: j, by: 'name' };
      }
    }
  }
  let seen = 0;
  for (let i = 0; i < rules.length; i++) {
    const matches = rules[i]!.match ?? [];
    if (matches.length === 0) {
      if (ordinal === seen) return { index: i, by: 'order' };
      seen++;
      continue;
    }
    for (let j = 0; j < matches.length; j++) {
      const port = matches[j]?.port;
      if (listenPort !== undefined && port && port !== listenPort) continue;
      if (ordinal === seen) return { index: i, match: j, by: 'order' };
      seen++;
    }
  }
  return undefined;
}
