// IST0173 DestinationRuleSubsetNotSelectPods and IST0174 UnknownDestinationRuleHost — Istio's
// destinationrule.SubsetSelectPodAnalyzer (analyzers/destinationrule/subset.go): a DestinationRule whose
// host resolves to no service (util.GetDestinationHost) gets IST0174; otherwise each subset's selector
// (the ServiceEntry workloadSelector merged with the subset labels; Kubernetes Services add none) must
// match at least one pod's labels, augmented with its node's topology labels and kubernetes.io/hostname.
import type { PodModel } from '../model/mesh';
import { buildHostMap, lookupHost, selects } from './hosts';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';

/** Pod labels plus what Istio's registry adds from the node (subset.go augmentPodLabelsWithNodeTopology). */
function podLabels(p: PodModel): Record<string, string> {
  const out: Record<string, string> = { ...p.labels };
  if (!p.nodeName) return out;
  if (p.locality.region) out['topology.kubernetes.io/region'] = p.locality.region;
  if (p.locality.zone) out['topology.kubernetes.io/zone'] = p.locality.zone;
  if (p.locality.subzone) out['topology.istio.io/subzone'] = p.locality.subzone;
  out['kubernetes.io/hostname'] = p.nodeName;
  return out;
}

export const subsetSelectPodAnalyzer: Analyzer = {
  meta: {
    name: 'destinationrule.SubsetSelectPodAnalyzer',
    description: 'Checks if pods are selected by subsets in destination rules.',
    inputs: ['DestinationRule', 'Pod', 'Service', 'ServiceEntry', 'Node'],
  },
  analyze(s, ctx) {
    const suffix = ctx.options.domainSuffix;
    const hosts = buildHostMap(s, suffix);
    const labels = s.pods.map(podLabels);
    const out: Problem[] = [];
    for (const dr of s.destinationRules) {
      const svc = lookupHost(hosts, dr.meta.namespace, dr.spec.exportTo ?? [], dr.spec.host, suffix);
      if (!svc) {
        out.push(report('UnknownDestinationRuleHost', dr, 'spec.host', dr.spec.host));
        continue;
      }
      (dr.spec.subsets ?? []).forEach((ss, i) => {
        const selector = { ...svc.selector, ...(ss.labels ?? {}) };
        if (!labels.some((l) => selects(selector, l)))
          out.push(report('DestinationRuleSubsetNotSelectPods', dr, `spec.subsets[${i}].name`, ss.name));
      });
    }
    return out;
  },
};
