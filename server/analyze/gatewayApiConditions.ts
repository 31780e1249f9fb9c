// IST0171 NegativeConditionStatus — Istio's conditions.ConditionAnalyzer (analyzers/conditions/conditions.go)
// for the Gateway API: a Gateway condition Accepted / Programmed / ResolvedRefs that is False (listener
// conditions are not looked at, as in Istio), and the same conditions of each parent of an HTTPRoute or
// GRPCRoute. istioctl reads the status istiod wrote; meshscope reports the status it computes as istiod
// would (server/model/gatewayapi).
import type { Condition, RouteStatusModel } from '../model/gatewayapi/status';
import type { Origin } from '../model/mesh';
import type { Problem } from '../model/problem';
import { report } from './messages';
import type { Analyzer } from './types';

const REPORTED = new Set(['Accepted', 'Programmed', 'ResolvedRefs']);
const ROUTE_KINDS = new Set<RouteStatusModel['kind']>(['HTTPRoute', 'GRPCRoute']);

const asConfig = (kind: string, namespace: string, name: string, origin: Origin) => ({
  kind: kind as 'Gateway',
  meta: { namespace, name, labels: {}, annotations: {}, creationTimestamp: '' },
  origin,
});

export const gatewayApiConditionAnalyzer: Analyzer = {
  meta: {
    name: 'conditions.ConditionAnalyzer',
    description: 'Checks for negative status conditions on resources',
    inputs: ['Gateway.gateway.networking.k8s.io', 'HTTPRoute', 'GRPCRoute'],
  },
  analyze(s) {
    const out: Problem[] = [];
    const negative = (c: Condition) => REPORTED.has(c.type) && c.status === 'False';
    for (const g of s.gatewayApi?.gateways ?? [])
      for (const c of g.conditions.filter(negative))
        out.push(
          report(
            'NegativeConditionStatus',
            asConfig('Gateway', g.namespace, g.name, g.origin),
            'status.conditions',
            c.type,
            c.reason,
            c.message,
          ),
        );
    for (const r of s.gatewayApi?.routes ?? []) {
      if (!ROUTE_KINDS.has(r.kind)) continue;
      r.parents.forEach((p, i) => {
        for (const c of p.conditions.filter(negative))
          out.push(
            report(
              'NegativeConditionStatus',
              asConfig(r.kind, r.namespace, r.name, r.origin),
              `status.parents[${i}].conditions`,
              c.type,
              c.reason,
              c.message,
            ),
          );
      });
    }
    return out;
  },
};
