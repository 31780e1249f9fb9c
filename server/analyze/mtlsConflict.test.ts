// IST0113 MTLSPolicyConflict (Istio's retired auth analyzer message, messages.yaml before #48599): the
// DestinationRule's mTLS choice against the workloads' PeerAuthentication mode per target port
// (policy_applier.go ComposePeerAuthentication / GetMutualTLSModeForPort).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { REPO_ROOT } from '../testing/paths';
import { analyze } from './index';

const { inputs, errors } = loadPaths([join(REPO_ROOT, 'server', 'analyze', 'testdata', 'mtls-conflict.yaml')]);
const snap = buildSnapshot(inputs, { version: 1, extraErrors: errors });

describe('auth.MTLSAnalyzer (IST0113)', () => {
  const { findings } = analyze(snap, { only: ['auth.MTLSAnalyzer'] });
  it('DISABLE towards STRICT workloads, and ISTIO_MUTUAL on a port whose workloads are DISABLE; nothing else', () => {
    expect(snap.errors).toEqual([]);
    expect(findings.map((f) => [f.code, f.level, f.object, f.path])).toEqual([
      ['IST0113', 'Error', 'DestinationRule default/ratings', 'spec.trafficPolicy.portLevelSettings[0].tls.mode'],
      ['IST0113', 'Error', 'DestinationRule default/reviews', 'spec.trafficPolicy.tls.mode'],
    ]);
  });
  it("Istio's message names host, DestinationRule, its mTLS choice and the policy with its mode", () => {
    const reviews = findings.find((f) => f.object === 'DestinationRule default/reviews');
    expect(reviews?.message).toBe(
      'A DestinationRule and Policy are in conflict with regards to mTLS for host reviews.default.svc.cluster.local. The DestinationRule "default/reviews" specifies that mTLS must be false but the Policy object "istio-system/default" specifies STRICT.',
    );
    const ratings = findings.find((f) => f.object === 'DestinationRule default/ratings');
    expect(ratings?.message).toContain('mTLS must be true but the Policy object "default/ratings" specifies DISABLE');
  });
});
