// AuthorizationPolicy → ztunnel Authorization, each case mirroring istiod
// pilot/pkg/serviceregistry/ambient/authorization.go (convertAuthorizationPolicy, handleRule, stringTo*) and its
// authorization_test.go TestConvertAuthorizationPolicyStatus cases (same inputs, same status messages).
import { describe, expect, it } from 'vitest';
import type { AuthorizationPolicySpec } from '../../model/authz';
import type { IstioConfig } from '../../model/mesh';
import { convertAuthorizationPolicy, stringToIP, stringToMatch, stringToPort, stringToServiceAccountMatch } from './authorization';

const policy = (
  spec: AuthorizationPolicySpec,
  namespace = 'ns1',
  annotations: Record<string, string> = {},
): IstioConfig<'AuthorizationPolicy'> => ({
  kind: 'AuthorizationPolicy',
  apiVersion: 'security.istio.io/v1',
  meta: { name: 'p', namespace, labels: {}, annotations, creationTimestamp: '2024-01-01T00:00:00Z' },
  spec,
  origin: { source: 'file' },
});

const L7_ALLOW =
  'In ambient mode you must use a waypoint proxy to enforce HTTP rules. Within an ALLOW policy, rules matching HTTP attributes are omitted. This will be more restrictive than requested.';
const DENY_NO_EFFECT =
  'In ambient mode you must use a waypoint proxy to enforce HTTP rules. After omitting unsupported HTTP attributes, this DENY policy has no enforceable rules at ztunnel and will have no effect. Deploy a waypoint proxy and use a targetRef to enforce this policy.';
const DENY_MIXED =
  'In ambient mode you must use a waypoint proxy to enforce HTTP rules. DENY policy with HTTP attributes is enforced without the HTTP rules. This will be more restrictive than requested.';

describe('convertAuthorizationPolicy (TestConvertAuthorizationPolicyStatus)', () => {
  it('no status - targetRef is not for ztunnel', () => {
    expect(convertAuthorizationPolicy('istio-system', policy({ targetRefs: [{ kind: 'Service', group: '', name: 'x' }] }))).toEqual({});
  });
  it('unsupported AUDIT and CUSTOM actions', () => {
    expect(convertAuthorizationPolicy('istio-system', policy({ action: 'AUDIT' }))).toEqual({
      message: 'ztunnel does not support the AUDIT action',
    });
    expect(convertAuthorizationPolicy('istio-system', policy({ action: 'CUSTOM', provider: { name: 'x' } }))).toEqual({
      message: 'ztunnel does not support the CUSTOM action',
    });
  });
  it('unsupported HTTP methods: ALLOW drops the rule, message lists the attributes sorted', () => {
    const c = convertAuthorizationPolicy(
      'istio-system',
      policy({
        rules: [
          {
            from: [{ source: { requestPrincipals: ['example.com/sub-1'] } }],
            to: [{ operation: { methods: ['GET'] } }],
            when: [{ key: 'request.auth.presenter', values: ['presenter.example.com'] }],
          },
        ],
      }),
    );
    expect(c.message).toBe(
      `ztunnel does not support HTTP attributes (found: methods, request.auth.presenter, requestPrincipals). ${L7_ALLOW}`,
    );
    // "L7 policies never match for ALLOW": no group at all (an ALLOW with no groups allows nothing).
    expect(c.authorization).toEqual({ name: 'p', namespace: 'ns1', scope: 'NAMESPACE' });
  });
  it('DENY policy with L4 From and L7 When is a no-op due to AND empty clause', () => {
    const c = convertAuthorizationPolicy(
      'istio-system',
      policy({
        action: 'DENY',
        rules: [
          {
            from: [{ source: { principals: ['cluster.local/ns/foo/sa/bar'] } }],
            when: [{ key: 'request.headers[x-token]', values: ['secret'] }],
          },
        ],
      }),
    );
    expect(c.message).toBe(`ztunnel does not support HTTP attributes (found: request.headers[x-token]). ${DENY_NO_EFFECT}`);
  });
  it('DENY policy with mixed L4 and L7 attributes is enforced without HTTP rules', () => {
    const c = convertAuthorizationPolicy(
      'istio-system',
      policy({
        action: 'DENY',
        rules: [
          {
            from: [{ source: { principals: ['cluster.local/ns/foo/sa/bar'] } }],
            to: [{ operation: { methods: ['GET'], ports: ['8080'] } }],
          },
        ],
      }),
    );
    expect(c.message).toBe(`ztunnel does not support HTTP attributes (found: methods). ${DENY_MIXED}`);
    expect(c.authorization?.['groups']).toEqual([
      { rules: [{ matches: [{ destinationPorts: [8080] }] }, { matches: [{ principals: [{ exact: 'cluster.local/ns/foo/sa/bar' }] }] }] },
    ]);
  });
  it('scope: a selector is WORKLOAD_SELECTOR; none is NAMESPACE, or GLOBAL (the enum default, left out) in the root namespace', () => {
    expect(convertAuthorizationPolicy('istio-system', policy({ selector: { matchLabels: { app: 'a' } } })).authorization?.['scope']).toBe(
      'WORKLOAD_SELECTOR',
    );
    expect(convertAuthorizationPolicy('istio-system', policy({}, 'istio-system')).authorization).toEqual({
      name: 'p',
      namespace: 'istio-system',
    });
  });
  it('an empty rule is a group with no rules (matches everything)', () => {
    expect(convertAuthorizationPolicy('istio-system', policy({ action: 'DENY', rules: [{}] })).authorization?.['groups']).toEqual([{}]);
  });
  it('dry-run policies are not sent (AMBIENT_ENABLE_DRY_RUN_AUTHORIZATION_POLICY is off by default)', () => {
    const c = convertAuthorizationPolicy('istio-system', policy({}, 'ns1', { 'istio.io/dry-run': 'true' }));
    expect(c.authorization).toBeUndefined();
    expect(c.message).toContain("support for ambient dry-run authorizationPolicies isn't enabled");
  });
});

describe('value conversions (authorization.go stringToMatch, stringToServiceAccountMatch, stringToPort, stringToIP)', () => {
  it('stringToMatch: * presence, *x suffix, x* prefix, else exact', () => {
    expect(stringToMatch(['*', '*.local', 'ns-*', 'exact'])).toEqual([
      { presence: {} },
      { suffix: '.local' },
      { prefix: 'ns-' },
      { exact: 'exact' },
    ]);
  });
  it('stringToServiceAccountMatch: ns/sa, or sa in the policy namespace', () => {
    expect(stringToServiceAccountMatch(['other/sa1', 'sa2'], 'ns1')).toEqual([
      { namespace: 'other', serviceAccount: 'sa1' },
      { namespace: 'ns1', serviceAccount: 'sa2' },
    ]);
  });
  it('stringToPort drops what is not a port', () => {
    expect(stringToPort(['80', '65536', 'http', '-1', '443'])).toEqual([80, 443]);
  });
  it('stringToIP: an IP is a full-length prefix, a CIDR keeps its bits, garbage is dropped', () => {
    expect(stringToIP(['10.0.0.0/8', '192.168.1.7', '::1', 'nope', '10.0.0.0/33', ''])).toEqual([
      { address: 'CgAAAA==', length: 8 },
      { address: 'wKgBBw==', length: 32 },
      { address: 'AAAAAAAAAAAAAAAAAAAAAQ==', length: 128 },
    ]);
  });
});
