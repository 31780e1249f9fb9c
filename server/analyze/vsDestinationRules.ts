// IST0101 "host+subset in destinationrule" — Istio's virtualservice.DestinationRuleAnalyzer
// (analyzers/virtualservice/destinationrules.go): a destination's subset must be defined by some
// DestinationRule for the same host, hosts compared as namespace/name (util.GetResourceNameFromHost).
import { resourceNameFromHost } from './hosts';
import { mirrorDestinations, routeDestinations } from './destinations';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';

export const destinationRuleAnalyzer: Analyzer = {
  meta: {
    name: 'virtualservice.DestinationRuleAnalyzer',
    description: 'Checks the destination rules associated with each virtual service',
    inputs: ['VirtualService', 'DestinationRule'],
  },
  analyze(s, ctx) {
    const suffix = ctx.options.domainSuffix;
    const defined = new Set<string>();
    for (const dr of s.destinationRules)
      for (const ss of dr.spec.subsets ?? []) defined.add(`${resourceNameFromHost(dr.meta.namespace, dr.spec.host, suffix)}+${ss.name}`);
    const out: Problem[] = [];
    for (const vs of s.virtualServices) {
      const check = (list: ReturnType<typeof routeDestinations>, what: string) => {
        for (const d of list) {
          const subset = d.destination.subset;
          if (!subset) continue;
          if (defined.has(`${resourceNameFromHost(vs.meta.namespace, d.destination.host, suffix)}+${subset}`)) continue;
          out.push(report('ReferencedResourceNotFound', vs, `${d.path}.subset`, what, `${d.destination.host}+${subset}`));
        }
      };
      check(routeDestinations(vs.spec), 'host+subset in destinationrule');
      check(mirrorDestinations(vs.spec), 'mirror+subset in destinationrule');
    }
    return out;
  },
};
