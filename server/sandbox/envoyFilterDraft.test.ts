// Issue #22 §2 "The sandbox takes EnvoyFilter drafts": the blast radius, the per-proxy diff of the patched resources
// and request checks through a patched route table, on Istio's Bookinfo (../shared fixtures, as shipped). What the
// draft does follows istiod's EnvoyFilter rules: workloadSelector picks productpage only (push_context.go
// EnvoyFilters / ShouldAttachPolicy); HTTP_ROUTE MERGE on the named route and INSERT_FIRST without a route match
// put a route first in the virtual host (rc_patch.go patchHTTPRoutes); CLUSTER MERGE with a service match changes
// every cluster of that service, subsets included (cluster_patch.go clusterMatch); Duration replaced whole.
import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { bookinfoBase } from './testing';

const DRAFT = `apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: reviews-guard, namespace: default}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: HTTP_ROUTE
    match:
      context: SIDECAR_OUTBOUND
      routeConfiguration: {vhost: {name: "reviews.default.svc.cluster.local:9080", route: {name: default}}}
    patch: {operation: MERGE, value: {route: {timeout: 0.5s}}}
  - applyTo: HTTP_ROUTE
    match:
      context: SIDECAR_OUTBOUND
      routeConfiguration: {vhost: {name: "reviews.default.svc.cluster.local:9080"}}
    patch:
      operation: INSERT_FIRST
      value: {name: blocked, match: {prefix: /blocked}, direct_response: {status: 403}}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {service: ratings.default.svc.cluster.local}}
    patch: {operation: MERGE, value: {connect_timeout: 0.5s}}
`;
const VH = 'reviews.default.svc.cluster.local:9080';

describe('sandbox: an EnvoyFilter draft', () => {
  // Bookinfo without VirtualServices: every route config holds istiod's default routes (route name `default`).
  const base = bookinfoBase([], []);
  const request = { mode: 'outbound' as const, port: 9080, host: 'reviews:9080', path: '/blocked' };
  const { result } = evaluate(base, DRAFT, {
    requests: [
      { proxy: 'productpage-v1', request },
      { proxy: 'productpage-v1', request: { ...request, path: '/reviews/1' } },
      { proxy: 'details-v1', request },
    ],
  });

  it('blast radius: only the selected workload, with the kinds its patches changed', () => {
    expect(result.errors).toEqual([]);
    expect(result.edits).toEqual([{ op: 'add', object: 'EnvoyFilter default/reviews-guard', line: 1 }]);
    expect(result.blastRadius.map((e) => [e.proxy.replace(/-[a-z0-9]+-[a-z0-9]+\.default$/, ''), e.types])).toEqual([
      ['productpage-v1', ['routes', 'clusters']],
    ]);
  });

  it('per-proxy diff: the inserted route first, the merged timeout, every ratings cluster', () => {
    const pp = result.diffs.find((d) => d.proxy.startsWith('productpage'));
    const routes = pp?.routes
      .filter((r) => r.virtualHost === VH)
      .map((r) => ({ change: r.change, route: r.route, to: r.to, detail: r.detail }));
    expect(routes).toEqual([
      { change: 'added', route: 'blocked', to: 0, detail: undefined },
      { change: 'changed', route: 'default', to: 1, detail: 'timeout 0s → 0.500s' },
    ]);
    const clusters = pp?.resources.filter((r) => r.type === 'clusters').map((r) => [r.name, r.change]);
    expect(clusters?.length).toBeGreaterThan(0);
    expect(clusters?.every(([n, c]) => String(n).endsWith('|ratings.default.svc.cluster.local') && c === 'changed')).toBe(true);
    const after = pp?.resources.find((r) => r.type === 'clusters')?.after as { connect_timeout?: string };
    expect(after.connect_timeout).toBe('0.500s');
  });

  it('request checks run through the patched route table: /blocked gets the 403 on productpage only', () => {
    const [blocked, other, details] = result.checks;
    expect(blocked?.live.distribution).toEqual({ 'outbound|9080||reviews.default.svc.cluster.local': 100 });
    expect(blocked?.draft.result.directResponse).toEqual({ status: 403 });
    expect(blocked?.draft.distribution).toBeUndefined();
    expect(blocked?.changed).toBe(true);
    expect(other?.changed).toBe(false);
    expect(details?.changed).toBe(false);
  });
});
