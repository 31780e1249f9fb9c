// IST0101 "selector" and IST0162 GatewayPortNotDefinedOnService — Istio's gateway.IngressGatewayPortAnalyzer
// (analyzers/gateway/gateway.go): a Gateway's selector must match some pod (any namespace); each server
// port must be a TCP port of a Service (in that pod's namespace, selecting it) — its numeric targetPort,
// or the port itself when the targetPort is absent or named; a service port number whose targetPort
// differs also counts (portMapping).
import { selectorString, selects } from './hosts';
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';

export const ingressGatewayPortAnalyzer: Analyzer = {
  meta: {
    name: 'gateway.IngressGatewayPortAnalyzer',
    description: "Checks a gateway's ports against the gateway's Kubernetes service ports",
    inputs: ['Gateway', 'Pod', 'Service'],
  },
  analyze(s) {
    const out: Problem[] = [];
    for (const gw of s.gateways) {
      const selector = gw.spec.selector ?? {};
      const pods = s.pods.filter((p) => selects(selector, p.labels));
      const sel = selectorString(selector);
      if (pods.length === 0) {
        out.push(report('ReferencedResourceNotFound', gw, 'spec.selector', 'selector', sel));
        continue;
      }
      const ports = new Set<number>();
      for (const pod of pods)
        for (const svc of s.services) {
          if (svc.registry !== 'Kubernetes' || svc.namespace !== pod.namespace) continue;
          if (!selects(svc.selector ?? {}, pod.labels)) continue;
          for (const p of svc.ports) {
            if (p.protocol === 'UDP') continue;
            ports.add(p.port);
            if (typeof p.targetPort === 'number' && p.targetPort !== 0) ports.add(p.targetPort);
          }
        }
      (gw.spec.servers ?? []).forEach((server, i) => {
        const n = server?.port?.number;
        if (n === undefined || ports.has(n)) return;
        out.push(report('GatewayPortNotDefinedOnService', gw, `spec.servers[${i}].port.number`, n, sel));
      });
    }
    return out;
  },
};
