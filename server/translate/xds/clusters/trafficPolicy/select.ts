// Which traffic-policy components apply to a cluster (networking/util: GetPortLevelTrafficPolicy,
// MergeSubsetTrafficPolicy). Each component keeps the YAML path it came from, for located errors.
import type { TrafficPolicy } from '../../../../model/istio';

type Component = 'connectionPool' | 'outlierDetection' | 'loadBalancer' | 'tls';
const COMPONENTS: readonly Component[] = ['connectionPool', 'outlierDetection', 'loadBalancer', 'tls'];

export interface Located<T> {
  value: T;
  /** e.g. `spec.subsets[1].trafficPolicy.portLevelSettings[0].loadBalancer` */
  path: string;
}

export type SelectedPolicy = { [C in Component]?: Located<NonNullable<TrafficPolicy[C]>> };

/**
 * GetPortLevelTrafficPolicy: a portLevelSettings entry for the port overrides the destination-level
 * components it sets (component by component).
 */
export function portLevelPolicy(policy: TrafficPolicy | undefined, path: string, port: number): SelectedPolicy {
  const out: SelectedPolicy = {};
  if (!policy) return out;
  for (const c of COMPONENTS) if (policy[c] !== undefined) set(out, c, policy[c], `${path}.${c}`);
  const idx = (policy.portLevelSettings ?? []).findIndex((p) => p.port?.number === port);
  const pl = idx >= 0 ? policy.portLevelSettings?.[idx] : undefined;
  if (pl) for (const c of COMPONENTS) if (pl[c] !== undefined) set(out, c, pl[c], `${path}.portLevelSettings[${idx}].${c}`);
  return out;
}

function set(out: SelectedPolicy, c: Component, value: unknown, path: string) {
  (out as Record<Component, Located<unknown>>)[c] = { value, path };
}

/** MergeSubsetTrafficPolicy: the subset's (port-level resolved) components override the rule's. */
export function mergeSubsetPolicy(base: SelectedPolicy, subset: SelectedPolicy): SelectedPolicy {
  return { ...base, ...Object.fromEntries(Object.entries(subset).filter(([, v]) => v !== undefined)) };
}
