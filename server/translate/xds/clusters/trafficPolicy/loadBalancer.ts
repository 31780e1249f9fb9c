// Load balancer settings (cluster_traffic_policy.go:applyLoadBalancer, applyLocalityLoadBalancer,
// applyRoundRobinLoadBalancer, applyLeastRequestLoadBalancer, setWarmup, ApplyRingHashLoadBalancer).
// Locality failover priorities/weights on the load assignment are not applied (see endpoints/).
import { effectiveLocalitySetting } from '../../endpoints/localityFailover';
import type { LoadBalancerSettings } from '../../../../model/istio';
import { normalizeDurationText } from '../../../../lib/duration';
import { reportBadDuration, type MutableCluster, type PolicyContext } from './context';
import type { Located } from './select';

type SlowStart = NonNullable<NonNullable<MutableCluster['roundRobinLbConfig']>['slowStartConfig']>;

function slowStart(lb: LoadBalancerSettings, path: string, ctx: PolicyContext): SlowStart | undefined {
  if (lb.warmup) {
    const out: SlowStart = {
      aggression: { defaultValue: lb.warmup.aggression ?? 1, runtimeKey: '(' },
      minWeightPercent: { value: lb.warmup.minimumPercent ?? 10 },
    };
    if (lb.warmup.duration !== undefined) {
      const d = normalizeDurationText(lb.warmup.duration);
      if (d === undefined) reportBadDuration(ctx, `${path}.warmup.duration`, lb.warmup.duration);
      else out.slowStartWindow = d;
    }
    return out;
  }
  if (lb.warmupDurationSecs !== undefined) {
    const d = normalizeDurationText(lb.warmupDurationSecs);
    if (d === undefined) {
      reportBadDuration(ctx, `${path}.warmupDurationSecs`, lb.warmupDurationSecs);
      return undefined;
    }
    return { slowStartWindow: d };
  }
  return undefined;
}

function leastRequest(c: MutableCluster, lb: LoadBalancerSettings | undefined, path: string, ctx: PolicyContext) {
  c.lbPolicy = 'LEAST_REQUEST';
  const ss = lb ? slowStart(lb, path, ctx) : undefined;
  if (ss) c.leastRequestLbConfig = { slowStartConfig: ss };
}

function roundRobin(c: MutableCluster, lb: LoadBalancerSettings, path: string, ctx: PolicyContext) {
  c.lbPolicy = 'ROUND_ROBIN';
  const ss = slowStart(lb, path, ctx);
  if (ss) c.roundRobinLbConfig = { slowStartConfig: ss };
}

export function applyLoadBalancer(c: MutableCluster, located: Located<LoadBalancerSettings> | undefined, ctx: PolicyContext) {
  const lb = located?.value;
  const path = located?.path ?? '';
  // GetLocalityLbSetting: the rule's setting, else the mesh's (MeshConfig.localityLbSetting).
  const locality = effectiveLocalitySetting(ctx.meshLocality, lb?.localityLbSetting);
  if (locality) {
    // failover only works with outlier detection; distribute always needs locality-weighted LB
    const failover =
      c.outlierDetection !== undefined && ((locality.failover?.length ?? 0) > 0 || (locality.failoverPriority?.length ?? 0) > 0);
    if (failover || (locality.distribute?.length ?? 0) > 0)
      c.commonLbConfig = { ...(c.commonLbConfig ?? {}), localityWeightedLbConfig: {} };
  }
  if (c.type === 'ORIGINAL_DST') {
    c.lbPolicy = 'CLUSTER_PROVIDED';
    return;
  }
  switch (lb?.simple) {
    case 'LEAST_CONN':
    case 'LEAST_REQUEST':
      leastRequest(c, lb, path, ctx);
      break;
    case 'RANDOM':
      c.lbPolicy = 'RANDOM';
      break;
    case 'ROUND_ROBIN':
      roundRobin(c, lb, path, ctx);
      break;
    case 'PASSTHROUGH':
      c.lbPolicy = 'CLUSTER_PROVIDED';
      c.type = 'ORIGINAL_DST';
      delete c.loadAssignment;
      break;
    default:
      leastRequest(c, lb, path, ctx); // Istio's default algorithm
  }
  const ch = lb?.consistentHash;
  if (!ch) return;
  // lb_config is a oneof: setting a hash config replaces a slow-start config
  const setConfig = (cfg: Pick<MutableCluster, 'maglevLbConfig' | 'ringHashLbConfig'>) => {
    delete c.leastRequestLbConfig;
    delete c.roundRobinLbConfig;
    Object.assign(c, cfg);
  };
  if (ch.maglev) {
    c.lbPolicy = 'MAGLEV';
    if (ch.maglev.tableSize) setConfig({ maglevLbConfig: { tableSize: String(ch.maglev.tableSize) } });
  } else if (ch.ringHash) {
    c.lbPolicy = 'RING_HASH';
    if (ch.ringHash.minimumRingSize) setConfig({ ringHashLbConfig: { minimumRingSize: String(ch.ringHash.minimumRingSize) } });
  } else {
    c.lbPolicy = 'RING_HASH';
    setConfig({ ringHashLbConfig: { minimumRingSize: String(ch.minimumRingSize || 1024) } });
  }
}
