// Outlier detection (cluster_traffic_policy.go:applyOutlierDetection).
import type { OutlierDetection } from '../../../../model/istio';
import { normalizeDurationText } from '../../../../lib/duration';
import { reportBadDuration, type MutableCluster, type PolicyContext } from './context';
import type { Located } from './select';

export function applyOutlierDetection(c: MutableCluster, od: Located<OutlierDetection> | undefined, ctx: PolicyContext) {
  if (!od) return;
  const o = od.value;
  const out: NonNullable<MutableCluster['outlierDetection']> = { enforcingSuccessRate: 0 };
  // success-rate ejection is always disabled; consecutive errors enforce at 100% when > 0
  if (o.consecutive5xxErrors !== undefined) {
    out.consecutive5xx = o.consecutive5xxErrors;
    out.enforcingConsecutive5xx = o.consecutive5xxErrors > 0 ? 100 : 0;
  }
  if (o.consecutiveGatewayErrors !== undefined) {
    out.consecutiveGatewayFailure = o.consecutiveGatewayErrors;
    out.enforcingConsecutiveGatewayFailure = o.consecutiveGatewayErrors > 0 ? 100 : 0;
  }
  for (const key of ['interval', 'baseEjectionTime'] as const) {
    const v = o[key];
    if (v === undefined) continue;
    const d = normalizeDurationText(v);
    if (d === undefined) reportBadDuration(ctx, `${od.path}.${key}`, v);
    else out[key] = d;
  }
  if ((o.maxEjectionPercent ?? 0) > 0) out.maxEjectionPercent = o.maxEjectionPercent!;
  if (o.splitExternalLocalOriginErrors) {
    out.splitExternalLocalOriginErrors = true;
    if ((o.consecutiveLocalOriginFailures ?? 0) > 0) {
      out.consecutiveLocalOriginFailure = o.consecutiveLocalOriginFailures!;
      out.enforcingConsecutiveLocalOriginFailure = 100;
    }
    out.enforcingLocalOriginSuccessRate = 0;
  }
  c.outlierDetection = out;
  // the panic threshold is always set (0 unless minHealthPercent), disabling Envoy's default of 50%
  const min = o.minHealthPercent ?? 0;
  if (min >= 0) c.commonLbConfig = { ...(c.commonLbConfig ?? {}), healthyPanicThreshold: { value: min } };
}
