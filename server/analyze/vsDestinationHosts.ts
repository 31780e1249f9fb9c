// IST0101 (host / mirror host / host:port) and IST0112 — Istio's virtualservice.DestinationHostAnalyzer
// (analyzers/virtualservice/destinationhosts.go: analyzeVirtualService, checkServiceEntryPorts).
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
    return out;
  },
};
