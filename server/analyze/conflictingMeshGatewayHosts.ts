// IST0109 — Istio's virtualservice.ConflictingMeshGatewayHostsAnalyzer
// (analyzers/virtualservice/conflictingmeshgatewayhosts.go): VirtualServices bound to the mesh gateway
// (no gateways, or `mesh` among them) are keyed by `scope/fqdn` per host, scope `*` when exported to all
// namespaces (no exportTo, or `*`) else each exportTo namespace (`.` = own); a namespace-scoped key also
// collects the `*`-scoped VirtualServices whose host matches it. More than one → each is reported once.
import type { IstioConfig } from '../model/mesh';
import { hostsMatch } from '../model/host';
import { toFqdn } from './hosts';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';

type VS = IstioConfig<'VirtualService'>;

export const conflictingMeshGatewayHostsAnalyzer: Analyzer = {
  meta: {
    name: 'virtualservice.ConflictingMeshGatewayHostsAnalyzer',
    description: 'Checks if multiple virtual services associated with the mesh gateway have conflicting hosts',
    inputs: ['VirtualService'],
  },
  analyze(s, ctx) {
    const byKey = new Map<string, VS[]>();
    for (const vs of s.virtualServices) {
      const gws = vs.spec.gateways ?? [];
      if (gws.length > 0 && !gws.includes('mesh')) continue;
      const exportTo = vs.spec.exportTo ?? [];
      const scopes =
        exportTo.length === 0 || exportTo.includes('*') ? ['*'] : [...new Set(exportTo.map((e) => (e === '.' ? vs.meta.namespace : e)))];
      for (const scope of scopes)
        for (const h of vs.spec.hosts ?? []) {
          const key = `${scope}/${toFqdn(vs.meta.namespace, h, ctx.options.domainSuffix)}`;
          const list = byKey.get(key) ?? [];
          if (!list.includes(vs)) list.push(vs);
          byKey.set(key, list);
        }
    }
    const split = (key: string) => [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)] as const;
    const reported = new Set<VS>();
    const out: Problem[] = [];
    for (const [key, own] of byKey) {
      const [scope, host] = split(key);
      const list = [...own];
      if (scope !== '*')
        for (const [k2, vss] of byKey) {
          const [s2, h2] = split(k2);
          if (s2 === '*' && hostsMatch(host, h2)) for (const v of vss) if (!list.includes(v)) list.push(v);
        }
      if (list.length < 2) continue;
      const names = list.map((v) => `${v.meta.namespace}/${v.meta.name}`).sort();
      for (const vs of list) {
        if (reported.has(vs)) continue;
        reported.add(vs);
        out.push(report('ConflictingMeshGatewayVirtualServiceHosts', vs, 'metadata.name', names.join(','), key));
      }
    }
    return out;
  },
};
