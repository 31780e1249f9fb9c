// IST0101 "gateway" and IST0132 — Istio's virtualservice.GatewayAnalyzer (analyzers/virtualservice/gateways.go):
// every gateway a VirtualService names (except `mesh`) must exist (`name` = the VS namespace, or `ns/name`),
// and one of its hosts must be served by that Gateway (server hosts `./h`, `*/h`, `ns/h` per
// sanitizeServerHostNamespace + host.NamesForNamespace, compared with host.Name.Matches).
import type { IstioConfig } from '../model/mesh';
import { hostsMatch } from '../model/host';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';

function gatewayHostsFor(gw: IstioConfig<'Gateway'> | undefined, vsNamespace: string): string[] {
  if (!gw) return [];
  const out: string[] = [];
  for (const server of gw.spec.servers ?? []) {
    for (const raw of server?.hosts ?? []) {
      let h = raw;
      const slash = h.indexOf('/');
      if (slash >= 0) {
        const ns = h.slice(0, slash);
        const name = h.slice(slash + 1);
        if (ns === '.') h = `${gw.meta.namespace}/${name}`;
        else if (ns === '*') h = name;
      }
      const cut = h.indexOf('/');
      if (cut >= 0) {
        if (h.slice(0, cut) !== vsNamespace && h.slice(0, cut) !== '*') continue;
        h = h.slice(cut + 1);
      }
      out.push(h);
    }
  }
  return out;
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
