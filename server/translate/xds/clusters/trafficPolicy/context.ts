// What traffic-policy appliers need besides the cluster: where errors go and how to locate them.
import type { LoadBalancerSettings } from '../../../../model/istio';
import type { LoadError } from '../../../../model/mesh';
import type { ClusterJson } from '../../../types';

export interface PolicyContext {
  errors: LoadError[];
  /** `DestinationRule ns/name` of the rule the policy came from. */
  object?: string;
  file?: string;
  doc?: number;
  /** MeshConfig.localityLbSetting: the locality setting of clusters whose rule sets none. */
  meshLocality?: NonNullable<LoadBalancerSettings['localityLbSetting']>;
}

export type MutableCluster = ClusterJson;

export function reportBadDuration(ctx: PolicyContext, path: string, value: unknown) {
  ctx.errors.push({
    severity: 'error',
    message: `invalid duration ${JSON.stringify(value) ?? String(value)}`,
    path,
    ...(ctx.object !== undefined ? { object: ctx.object } : {}),
    ...(ctx.file !== undefined ? { file: ctx.file } : {}),
    ...(ctx.doc !== undefined ? { doc: ctx.doc } : {}),
  });
}
