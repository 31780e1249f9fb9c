// Locality failover priorities on an EDS assignment (networking/core/loadbalancer: ApplyLocalityLoadBalancer,
// applyLocalityFailover; networking/util: LbPriority). Applied when locality LB is enabled (MeshConfig default
// `localityLbSetting.enabled: true`, a DestinationRule may disable it) and the cluster has outlier detection.
// Not done: `distribute` weights and `failoverPriority` (label-based) priorities.
import type { LoadBalancerSettings } from '../../../model/istio';
import type { Locality } from '../../../model/mesh';
import type { LocalityLbEndpointsJson } from './localityEndpoints';

type LocalitySetting = NonNullable<LoadBalancerSettings['localityLbSetting']>;

/** LbPriority: 0 same region/zone/subzone, 1 same region/zone, 2 same region, 3 otherwise. */
export function lbPriority(proxy: Locality, ep: LocalityLbEndpointsJson['locality']): number {
  if (proxy.region !== (ep?.region ?? '')) return 3;
  if (proxy.zone !== (ep?.zone ?? '')) return 2;
  if (proxy.subzone !== (ep?.subZone ?? '')) return 1;
  return 0;
}

/**
 * applyLocalityFailover: priority by locality match; a different region that is not the failover target of
 * the proxy's region drops to 4; then priorities are renumbered 0..N in order without gaps.
 */
export function applyLocalityFailover(groups: LocalityLbEndpointsJson[], proxy: Locality, failover: LocalitySetting['failover']) {
  const raw = groups.map((g) => {
    let p = lbPriority(proxy, g.locality);
    if (p === 3) {
      const rule = (failover ?? []).find((f) => f.from === proxy.region);
      if (rule && (g.locality?.region ?? '') !== rule.to) p = 4;
    }
    return p;
  });
  const order = [...new Set(raw)].sort((a, b) => a - b);
  groups.forEach((g, i) => {
    const p = order.indexOf(raw[i]!);
    if (p > 0) g.priority = p;
    else delete g.priority;
  });
}

/**
 * GetLocalityLbSetting: a DestinationRule's setting wins (none when it says `enabled: false`); without one,
 * MeshConfig.localityLbSetting unless it is disabled (istiod's default `{enabled: true}`).
 */
export function effectiveLocalitySetting(
  mesh: LocalitySetting | undefined,
  rule: LocalitySetting | undefined,
): LocalitySetting | undefined {
  if (rule) return rule.enabled === false ? undefined : rule;
  return mesh && mesh.enabled !== false ? mesh : undefined;
}

/**
 * Whether to apply failover (ApplyLocalityLoadBalancer) with the effective setting (effectiveLocalitySetting:
 * undefined = locality LB off): only with outlier detection; `distribute` excludes failover.
 */
export function shouldApplyFailover(setting: LocalitySetting | undefined, hasOutlierDetection: boolean): boolean {
  if (!hasOutlierDetection) return false;
  if (!setting || setting.enabled === false) return false;
  if ((setting?.distribute?.length ?? 0) > 0) return false;
  if ((setting?.failoverPriority?.length ?? 0) > 0) return false; // not implemented: leave priorities alone
  return true;
}
