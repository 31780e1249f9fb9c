// The ambient findings through the API handlers (GET /api/analyze, POST /api/sandbox/evaluate) on Istio's Bookinfo
// (../shared/fixtures) enrolled in ambient with the waypoint bookinfo/waypoint and route-reviews-90-10 as a GAMMA
// HTTPRoute, reviews without `istio.io/use-waypoint`: the HTTPRoute is flagged (kube/gateway/conditions.go
// WaypointErrorMsgMissingLabel) with its object, YAML path and origin; without the ambient profile it is not.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import type { EvaluateResult } from '../sandbox/types';
import { ambientBookinfoInputs, ROUTE_90_10 } from '../translate/xds/waypoint/testing';
import { analyzeMesh } from './analyze';
import { evaluateSandbox } from './sandbox';

const inputs = ambientBookinfoInputs({ useWaypoint: false });

describe('ambient findings in the API', () => {
  it('GET /api/analyze: MSC0203 on the HTTPRoute under the ambient profile, none without it', () => {
    const on = analyzeMesh({ snapshot: buildSnapshot(inputs, { version: 2, ambient: true }), options: DEFAULT_OPTIONS });
    expect(on.body.findings.filter((f) => f.code === 'MSC0203')).toEqual([
      expect.objectContaining({
        object: 'HTTPRoute bookinfo/reviews',
        path: 'spec.parentRefs[0]',
        origin: { source: 'file', file: ROUTE_90_10(), doc: 0 },
      }),
    ]);
    expect(on.body.counts.Warning).toBeGreaterThanOrEqual(1);
    const off = analyzeMesh({ snapshot: buildSnapshot(inputs, { version: 2 }), options: DEFAULT_OPTIONS });
    expect(off.body.findings.filter((f) => f.code.startsWith('MSC02'))).toEqual([]);
  });

  it('POST /api/sandbox/evaluate: labelling reviews resolves the finding and adds the ztunnel entry', () => {
    const snapshot = buildSnapshot(inputs, { version: 2, ambient: true });
    const draft =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: reviews\n  namespace: bookinfo\n  labels: {app: reviews, service: reviews, istio.io/use-waypoint: waypoint}\nspec:\n  ports: [{port: 9080, name: http}]\n  selector: {app: reviews}\n';
    const r = evaluateSandbox({ snapshot, inputs: () => inputs, options: DEFAULT_OPTIONS }, { draft });
    expect(r.status).toBe(200);
    const body = r.body as EvaluateResult;
    expect(body.blastRadius.map((e) => e.proxy)).toContain('ztunnel');
    expect(body.findings.filter((f) => f.code === 'MSC0203').map((f) => f.state)).toEqual(['resolved']);
  });
});
