// IST0101 "gateway" and IST0132 — Istio's virtualservice.GatewayAnalyzer (analyzers/virtualservice/gateways.go):
// every gateway a VirtualService names (except `mesh`) must exist (`name` = the VS namespace, or `ns/name`),
// and one of its hosts must be served by that Gateway (server hosts `./h`, `*/h`, `ns/h` per
// sanitizeServerHostNamespace + host.NamesForNamespace, compared with host.Name.Matches).
import type { IstioConfig } from '../model/mesh';
import { hostsMatch, namesForNamespace, sanitizeServerHosts } from '../model/host';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';

function gatewayHostsFor(gw: IstioConfig<'Gateway'> | undefined, vsNamespace: string): string[] {
  if (!gw) return [];
  return (gw.spec.servers ?? []).flatMap((server) =>
    namesForNamespace(sanitizeServerHosts(server?.hosts ?? [], gw.meta.namespace), vsNamespace),
  );
}

export const gatewayAnalyzer: Analyzer = {
  meta: {
    name: 'virtualservice.GatewayAnalyzer',
    description: 'Checks the gateways associated with each virtual service',
    inputs: ['Gateway', 'VirtualService'],
  },
  analyze(s) {
    const byName = new Map(s.gateways.map((g) => [`${g.meta.namespace}/${g.meta.name}`, g]));
    const out: Problem[] = [];
    for (const vs of s.virtualServices) {
      const ns = vs.meta.namespace;
      const vsHosts = vs.spec.hosts ?? [];
      (vs.spec.gateways ?? []).forEach((gwName, i) => {
        if (gwName === 'mesh') return;
        const full = gwName.includes('/') ? gwName : `${ns}/${gwName}`;
        const gw = byName.get(full);
        const path = `spec.gateways[${i}]`;
        if (!gw) out.push(report('ReferencedResourceNotFound', vs, path, 'gateway', gwName));
        const served = gatewayHostsFor(gw, ns).some((gh) => vsHosts.some((vh) => hostsMatch(gh, vh)));
        if (!served) out.push(report('VirtualServiceHostNotFoundInGateway', vs, path, vsHosts, `${ns}/${vs.meta.name}`, full));
      });
    }
    return out;
  },
};
