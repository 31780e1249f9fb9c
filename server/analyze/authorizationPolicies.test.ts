// auth.AuthorizationPoliciesAnalyzer on testdata/authorization-policies.yaml; each expectation follows
// authorizationpolicies.go (analyzeNoMatchingWorkloads, analyzeNamespaceNotFound, namespaceMatch), except the
// principals row, a meshscope addition (see the analyzer's header).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMesh } from '../cli/load';
import { analyze } from './index';

describe('auth.AuthorizationPoliciesAnalyzer', () => {
  it('reports IST0127 for policies selecting no in-mesh workload and IST0101 for unknown namespaces', async () => {
    const { snapshot } = await loadMesh([join(import.meta.dirname, 'testdata', 'authorization-policies.yaml')]);
    const findings = analyze(snapshot, { only: ['auth.AuthorizationPoliciesAnalyzer'] }).findings;
    expect(findings.map((f) => [f.code, f.object, f.path ?? '', f.message])).toEqual([
      [
        'IST0101',
        'AuthorizationPolicy default/reviews-from',
        'spec.rules[0].from[0].source.namespaces[1]',
        'Referenced namespace not found: "ghost"',
      ],
      [
        'IST0101',
        'AuthorizationPolicy default/reviews-from',
        'spec.rules[0].from[0].source.notNamespaces[0]',
        'Referenced namespace not found: "*-prod"',
      ],
      [
        'IST0101',
        'AuthorizationPolicy default/reviews-from',
        'spec.rules[0].from[1].source.principals[1]',
        'Referenced namespace not found: "nowhere"',
      ],
      [
        'IST0127',
        'AuthorizationPolicy default/httpbin-elsewhere',
        'spec.selector',
        'No matching workloads for this resource with the following labels: app=httpbin',
      ],
      [
        'IST0127',
        'AuthorizationPolicy istio-system/mesh-wide-nothing',
        'spec.selector',
        'No matching workloads for this resource with the following labels: app=nothing',
      ],
      ['IST0127', 'AuthorizationPolicy plain/plain-ns', '', 'No matching workloads for this resource with the following labels: '],
    ]);
    expect(findings.find((f) => f.code === 'IST0101')).toMatchObject({
      origin: { file: expect.stringContaining('authorization-policies.yaml'), doc: 8 },
    });
  });
});
