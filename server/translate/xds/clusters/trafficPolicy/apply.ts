// applyTrafficPolicy (cluster_traffic_policy.go): connection pool for every cluster; outlier detection and
// load balancing for outbound ones; ORIGINAL_DST clusters always use CLUSTER_PROVIDED.
// Client TLS (DestinationRule tls / auto mTLS) is applied after this by ../clientTls.ts.
import { applyConnectionPool } from './connectionPool';
import type { MutableCluster, PolicyContext } from './context';
import { applyLoadBalancer } from './loadBalancer';
import { applyOutlierDetection } from './outlier';
import type { SelectedPolicy } from './select';

export function applyTrafficPolicy(
  c: MutableCluster,
  policy: SelectedPolicy,
  direction: 'outbound' | 'inbound',
  meshConnectTimeout: string,
  ctx: PolicyContext,
) {
  applyConnectionPool(c, policy.connectionPool, meshConnectTimeout, ctx);
  if (direction === 'outbound') {
    applyOutlierDetection(c, policy.outlierDetection, ctx);
    applyLoadBalancer(c, policy.loadBalancer, ctx);
  }
  if (c.type === 'ORIGINAL_DST') c.lbPolicy = 'CLUSTER_PROVIDED';
}
