// IST0101 (host / mirror host / host:port), IST0112 and IST0140 — Istio's virtualservice.DestinationHostAnalyzer
// (analyzers/virtualservice/destinationhosts.go: analyzeVirtualService, checkServiceEntryPorts, analyzeSubset).
import { buildHostMap, lookupHost, type HostEntry } from './hosts';
import { mirrorDestinations, routeDestinations, type LocatedDestination } from './destinations';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';
import type { IstioConfig } from '../model/mesh';

function checkPorts(vs: IstioConfig<'VirtualService'>, d: LocatedDestination, svc: HostEntry, out: Problem[]): void {
  const host = d.destination.host;
  const port = d.destination.port?.number;
  if (port === undefined) {
    // Without a port it is only a problem when the service exposes several.
    if (svc.ports.length > 1) out.push(report('VirtualServiceDestinationPortSelectorRequired', vs, `${d.path}.host`, host, svc.ports));
    return;
  }
  if (!svc.ports.includes(port))
    out.push(report('ReferencedResourceNotFound', vs, `${d.path}.port.number`, 'host:port', `${host}:${port}`));
}

/**
 * destinationhosts.go analyzeSubset / initVirtualServiceDestinations, IST0140: a VirtualService bound to gateways
 * routes to a host without a subset, while another VirtualService for that very host (a host it lists, written the
 * same) splits it by subset — that subset rule never applies to the gateway's requests (the gateway routes
 * straight to the host's cluster). Hosts compare as written, as Istio's analyzer does.
 */
function ingressSubsetIgnored(vss: readonly IstioConfig<'VirtualService'>[], out: Problem[]): void {
  const withSubsets: [name: string, hosts: Set<string>][] = [];
  for (const vs of vss) {
    const hosts = new Set<string>();
    for (const r of vs.spec.http ?? [])
      for (const d of r.route ?? [])
        if (d.destination?.subset && (vs.spec.hosts ?? []).includes(d.destination.host)) hosts.add(d.destination.host);
    if (hosts.size > 0) withSubsets.push([`${vs.meta.namespace}/${vs.meta.name}`, hosts]);
  }
  for (const vs of vss) {
    if ((vs.spec.gateways ?? []).length === 0) continue;
    (vs.spec.http ?? []).forEach((r, i) =>
      (r.route ?? []).forEach((d, j) => {
        if (d.destination?.subset) return;
        for (const [name, hosts] of withSubsets)
          if (hosts.has(d.destination?.host ?? ''))
            out.push(
              report(
                'IngressRouteRulesNotAffected',
                vs,
                `spec.http[${i}].route[${j}].destination.host`,
                name,
                `${vs.meta.namespace}/${vs.meta.name}`,
              ),
            );
      }),
    );
  }
}

export const destinationHostAnalyzer: Analyzer = {
  meta: {
    name: 'virtualservice.DestinationHostAnalyzer',
    description: 'Checks the destination hosts associated with each virtual service',
    inputs: ['ServiceEntry', 'VirtualService', 'Service'],
  },
  analyze(s, ctx) {
    const suffix = ctx.options.domainSuffix;
    const hosts = buildHostMap(s, suffix);
    const out: Problem[] = [];
    for (const vs of s.virtualServices) {
      const ns = vs.meta.namespace;
      const exportTo = vs.spec.exportTo ?? [];
      for (const [list, what] of [
        [routeDestinations(vs.spec), 'host'],
        [mirrorDestinations(vs.spec), 'mirror host'],
      ] as const) {
        for (const d of list) {
          const svc = lookupHost(hosts, ns, exportTo, d.destination.host, suffix);
          if (!svc) out.push(report('ReferencedResourceNotFound', vs, `${d.path}.host`, what, d.destination.host));
          else checkPorts(vs, d, svc, out);
        }
      }
    }
    ingressSubsetIgnored(s.virtualServices, out);
    return out;
  },
};
