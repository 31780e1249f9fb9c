// The cases of Istio's authz builder testdata (pilot/pkg/security/authz/builder/testdata, TestGenerator /
// TestBuilder_BuildHTTPFilter / TestBuilder_BuildTCPFilter), re-written here as YAML policies with the RBAC
// output Istio's -out.yaml files record for them. Inputs go through meshscope's own parse + validation.
import { describe, expect, it } from 'vitest';
import type { PolicyJson, RBACJson } from '../../gen/envoy/config/rbac/v3/rbac_pb';
import { meshFromYaml } from '../testing/yamlMesh';
import { buildHttpRbacFilters, buildNetworkRbacFilters, parsePolicyName } from './builder';
import { selectPolicies } from './select';

const HTTPBIN = `apiVersion: v1
kind: Pod
metadata: {name: httpbin-1, namespace: foo, labels: {app: httpbin, version: v1}, annotations: {sidecar.istio.io/status: "{}"}}
spec: {serviceAccountName: httpbin, containers: [{name: httpbin, image: x}]}
status: {podIP: 10.0.0.9, phase: Running}
`;

function filters(policies: string, tcp = false) {
  const snap = meshFromYaml(`${HTTPBIN}---\n${policies}`);
  expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
  const proxy = snap.proxies[0]!;
  const { applied } = selectPolicies(snap, proxy, 'istio-system');
  return tcp ? buildNetworkRbacFilters(applied) : buildHttpRbacFilters(applied);
}
const cfg = (f: { typedConfig?: unknown }) => f.typedConfig as { rules?: RBACJson; shadowRules?: RBACJson; shadowRulesStatPrefix?: string };
const policy = (f: { typedConfig?: unknown }, name: string): PolicyJson => cfg(f).rules?.policies?.[name] as PolicyJson;

const ANY_PRINCIPAL = [{ andIds: { ids: [{ any: true }] } }];
const ANY_PERMISSION = [{ andRules: { rules: [{ any: true }] } }];
const re = (regex: string) => ({ safeRegex: { googleRe2: {}, regex } });

describe('AuthorizationPolicy → RBAC (Istio builder testdata)', () => {
  it('allow-full-rule: every source/operation/condition field, values ORed, not-values negated, in Istio order', () => {
    const [f] = filters(`apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: httpbin-1, namespace: foo}
spec:
  selector: {matchLabels: {app: httpbin, version: v1}}
  rules:
    - from:
        - source:
            principals: ["principal", "principal-prefix-*", "*-suffix-principal", "*"]
            notPrincipals: ["not-principal"]
            requestPrincipals: ["requestPrincipals"]
            namespaces: ["ns", "ns-prefix-*", "*"]
            ipBlocks: ["1.2.3.4", "5.6.0.0/16"]
            remoteIpBlocks: ["1.2.3.4"]
            notIpBlocks: ["9.0.0.1"]
      to:
        - operation:
            hosts: ["exact.com", "*.suffix.com", "prefix.*", "*"]
            methods: ["method", "method-prefix-*", "*-suffix-method", "*"]
            paths: ["/exact", "/prefix/*", "*/suffix", "*"]
            ports: ["80"]
            notPorts: ["8000"]
      when:
        - {key: "request.headers[X-header]", values: ["header", "*"]}
        - {key: "destination.port", values: ["91"]}
        - {key: "connection.sni", values: ["exact.com"]}
`);
    expect(f?.name).toBe('envoy.filters.http.rbac');
    expect(cfg(f!).rules?.action).toBeUndefined(); // ALLOW is the proto default
    const p = policy(f!, 'ns[foo]-policy[httpbin-1]-rule[0]');
    expect(p.permissions).toEqual([
      {
        andRules: {
          rules: [
            {
              orRules: {
                rules: [
                  { header: { name: ':authority', stringMatch: { exact: 'exact.com', ignoreCase: true } } },
                  { header: { name: ':authority', stringMatch: { ignoreCase: true, suffix: '.suffix.com' } } },
                  { header: { name: ':authority', stringMatch: { ignoreCase: true, prefix: 'prefix.' } } },
                  { header: { name: ':authority', presentMatch: true } },
                ],
              },
            },
            {
              orRules: {
                rules: [
                  { header: { name: ':method', exactMatch: 'method' } },
                  { header: { name: ':method', prefixMatch: 'method-prefix-' } },
                  { header: { name: ':method', suffixMatch: '-suffix-method' } },
                  { header: { name: ':method', presentMatch: true } },
                ],
              },
            },
            {
              orRules: {
                rules: [
                  { urlPath: { path: { exact: '/exact' } } },
                  { urlPath: { path: { prefix: '/prefix/' } } },
                  { urlPath: { path: { suffix: '/suffix' } } },
                  { urlPath: { path: re('.+') } },
                ],
              },
            },
            { orRules: { rules: [{ destinationPort: 80 }] } },
            { notRule: { orRules: { rules: [{ destinationPort: 8000 }] } } },
            { orRules: { rules: [{ destinationPort: 91 }] } },
            { orRules: { rules: [{ requestedServerName: { exact: 'exact.com' } }] } },
          ],
        },
      },
    ]);
    expect(p.principals).toEqual([
      {
        andIds: {
          ids: [
            {
              orIds: {
                ids: [
                  { authenticated: { principalName: { exact: 'spiffe://principal' } } },
                  { authenticated: { principalName: { prefix: 'spiffe://principal-prefix-' } } },
                  { authenticated: { principalName: re('spiffe://.*-suffix-principal') } },
                  { authenticated: { principalName: re('.+') } },
                ],
              },
            },
            { notId: { orIds: { ids: [{ authenticated: { principalName: { exact: 'spiffe://not-principal' } } }] } } },
            {
              orIds: {
                ids: [
                  {
                    metadata: {
                      filter: 'istio_authn',
                      path: [{ key: 'request.auth.principal' }],
                      value: { stringMatch: { exact: 'requestPrincipals' } },
                    },
                  },
                ],
              },
            },
            {
              orIds: {
                ids: [
                  { authenticated: { principalName: re('.*/ns/ns/.*') } },
                  { authenticated: { principalName: re('.*/ns/ns-prefix-.*/.*') } },
                  { authenticated: { principalName: re('.*/ns/.*/.*') } },
                ],
              },
            },
            { orIds: { ids: [{ remoteIp: { addressPrefix: '1.2.3.4', prefixLen: 32 } }] } },
            {
              orIds: {
                ids: [
                  { directRemoteIp: { addressPrefix: '1.2.3.4', prefixLen: 32 } },
                  { directRemoteIp: { addressPrefix: '5.6.0.0', prefixLen: 16 } },
                ],
              },
            },
            { notId: { orIds: { ids: [{ directRemoteIp: { addressPrefix: '9.0.0.1', prefixLen: 32 } }] } } },
            {
              orIds: {
                ids: [
                  {
                    header: {
                      name: 'X-header',
                      safeRegexMatch: { googleRe2: {}, regex: '^header$|^header,.*|.*,header,.*|.*,header$' },
                    },
                  },
                  { header: { name: 'X-header', presentMatch: true } },
                ],
              },
            },
          ],
        },
      },
    ]);
    expect(parsePolicyName('ns[foo]-policy[httpbin-1]-rule[0]')).toEqual({ namespace: 'foo', name: 'httpbin-1', rule: 0 });
  });

  it('allow-empty-rule: `rules: [{}]` allows everything; allow-none: no rules is an explicit never-match', () => {
    const fs = filters(`apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: httpbin-empty, namespace: foo}
spec: {rules: [{}]}
---
apiVersion: security.istio.io/v1beta1
kind: AuthorizationPolicy
metadata: {name: httpbin-none, namespace: foo}
spec: {}
`);
    expect(fs).toHaveLength(1);
    expect(policy(fs[0]!, 'ns[foo]-policy[httpbin-empty]-rule[0]')).toEqual({ permissions: ANY_PERMISSION, principals: ANY_PRINCIPAL });
    expect(policy(fs[0]!, 'ns[foo]-policy[httpbin-none]-rule[0]')).toEqual({
      permissions: [{ notRule: { any: true } }],
      principals: [{ notId: { any: true } }],
    });
  });

  it('deny-and-allow: a DENY filter before the ALLOW filter; AUDIT is action LOG and comes first', () => {
    const fs = filters(`apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: allow, namespace: foo}
spec: {rules: [{to: [{operation: {paths: ["/allow"]}}]}]}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: deny, namespace: foo}
spec: {action: DENY, rules: [{to: [{operation: {paths: ["/deny"]}}]}]}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: audit, namespace: foo}
spec: {action: AUDIT, rules: [{to: [{operation: {paths: ["/audit"]}}]}]}
`);
    expect(fs.map((f) => [cfg(f).rules?.action ?? 'ALLOW', Object.keys(cfg(f).rules?.policies ?? {})])).toEqual([
      ['LOG', ['ns[foo]-policy[audit]-rule[0]']],
      ['DENY', ['ns[foo]-policy[deny]-rule[0]']],
      ['ALLOW', ['ns[foo]-policy[allow]-rule[0]']],
    ]);
  });

  it('dry-run-mix: a dry-run ALLOW policy goes to shadow_rules with the istio_dry_run_allow_ stat prefix', () => {
    const [f] = filters(`apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: httpbin-1, namespace: foo, annotations: {istio.io/dry-run: "true"}}
spec: {rules: [{to: [{operation: {paths: ["/allow"]}}]}]}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: httpbin-2, namespace: foo}
spec: {rules: [{to: [{operation: {paths: ["/another"]}}]}]}
`);
    expect(Object.keys(cfg(f!).rules?.policies ?? {})).toEqual(['ns[foo]-policy[httpbin-2]-rule[0]']);
    expect(Object.keys(cfg(f!).shadowRules?.policies ?? {})).toEqual(['ns[foo]-policy[httpbin-1]-rule[0]']);
    expect(cfg(f!).shadowRulesStatPrefix).toBe('istio_dry_run_allow_');
  });

  it('custom-bad: a CUSTOM policy whose provider istiod cannot find becomes a DENY of the same rules', () => {
    const [f] = filters(`apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: httpbin-1, namespace: foo}
spec: {action: CUSTOM, provider: {name: my-ext-authz}, rules: [{to: [{operation: {paths: ["/httpbin1"]}}]}]}
`);
    expect(cfg(f!).rules?.action).toBe('DENY');
    expect(cfg(f!).rules?.policies).toEqual({
      'istio-ext-authz-my-ext-authz-ns[foo]-policy[httpbin-1]-rule[0]-deny-due-to-bad-CUSTOM-action': {
        permissions: [{ andRules: { rules: [{ orRules: { rules: [{ urlPath: { path: { exact: '/httpbin1' } } }] } }] } }],
        principals: ANY_PRINCIPAL,
      },
    });
  });

  it('custom-bad with dry-run: a dry-run CUSTOM policy is kept out of the deny istiod emits for a bad provider', () => {
    const [f] = filters(`apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: try, namespace: foo, annotations: {istio.io/dry-run: "true"}}
spec: {action: CUSTOM, provider: {name: my-ext-authz}, rules: [{to: [{operation: {paths: ["/try"]}}]}]}
`);
    expect(cfg(f!).rules).toEqual({ action: 'DENY', policies: {} });
  });

  it('action-allow-HTTP-for-TCP-filter: on TCP an ALLOW rule with HTTP-only fields is dropped', () => {
    const [f] = filters(
      `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: httpbin-deny, namespace: foo}
spec:
  rules:
    - {from: [{source: {requestPrincipals: ["id-1"]}}], to: [{operation: {ports: ["80"]}}]}
    - {from: [{source: {namespaces: ["ns-1"]}}], to: [{operation: {ports: ["80"]}}]}
    - {to: [{operation: {methods: ["GET"]}}]}
`,
      true,
    );
    expect(f?.name).toBe('envoy.filters.network.rbac');
    expect((f?.typedConfig as { statPrefix?: string }).statPrefix).toBe('tcp.');
    expect(cfg(f!).rules?.policies).toEqual({
      'ns[foo]-policy[httpbin-deny]-rule[1]': {
        permissions: [{ andRules: { rules: [{ orRules: { rules: [{ destinationPort: 80 }] } }] } }],
        principals: [{ andIds: { ids: [{ orIds: { ids: [{ authenticated: { principalName: re('.*/ns/ns-1/.*') } }] } }] } }],
      },
    });
  });

  it('action-deny-HTTP-for-TCP-filter: on TCP a DENY rule keeps only its TCP fields (so it denies more)', () => {
    const [f] = filters(
      `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: httpbin-deny, namespace: foo}
spec:
  action: DENY
  rules:
    - {from: [{source: {requestPrincipals: ["id-1"]}}], to: [{operation: {methods: ["GET"]}}]}
    - {from: [{source: {namespaces: ["ns-1"]}}], to: [{operation: {methods: ["GET"]}}]}
    - {from: [{source: {requestPrincipals: ["id-1"]}}], to: [{operation: {ports: ["80"]}}]}
    - when: [{key: "request.headers[:method]", values: ["GET"]}]
`,
      true,
    );
    const ps = cfg(f!).rules?.policies ?? {};
    expect(ps['ns[foo]-policy[httpbin-deny]-rule[0]']).toEqual({ permissions: ANY_PERMISSION, principals: ANY_PRINCIPAL });
    expect(ps['ns[foo]-policy[httpbin-deny]-rule[1]']).toEqual({
      permissions: ANY_PERMISSION,
      principals: [{ andIds: { ids: [{ orIds: { ids: [{ authenticated: { principalName: re('.*/ns/ns-1/.*') } }] } }] } }],
    });
    expect(ps['ns[foo]-policy[httpbin-deny]-rule[2]']).toEqual({
      permissions: [{ andRules: { rules: [{ orRules: { rules: [{ destinationPort: 80 }] } }] } }],
      principals: ANY_PRINCIPAL,
    });
    expect(ps['ns[foo]-policy[httpbin-deny]-rule[3]']).toEqual({ permissions: ANY_PERMISSION, principals: ANY_PRINCIPAL });
  });

  it('serviceAccounts: `sa` (policy namespace) and `ns/sa` become the SPIFFE regex of generator.go serviceAccountRegex', () => {
    const [f] = filters(`apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: sa, namespace: foo}
spec: {rules: [{from: [{source: {serviceAccounts: ["my-ns/my-sa", "sa-only"]}}]}]}
`);
    expect(policy(f!, 'ns[foo]-policy[sa]-rule[0]').principals).toEqual([
      {
        andIds: {
          ids: [
            {
              orIds: {
                ids: [
                  { authenticated: { principalName: re('spiffe://.+/ns/my-ns/(.+/|)sa/my-sa(/.+)?') } },
                  { authenticated: { principalName: re('spiffe://.+/ns/foo/(.+/|)sa/sa-only(/.+)?') } },
                ],
              },
            },
          ],
        },
      },
    ]);
  });
});

describe('AuthorizationPolicy selection (model/authorization.go ListAuthorizationPolicies)', () => {
  it('root-namespace and same-namespace policies apply when their selector matches; others and targetRefs do not', () => {
    const snap = meshFromYaml(`${HTTPBIN}---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: mesh-wide, namespace: istio-system}
spec: {action: DENY, rules: [{from: [{source: {namespaces: ["evil"]}}]}]}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: other-ns, namespace: bar}
spec: {}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: v2-only, namespace: foo}
spec: {selector: {matchLabels: {version: v2}}}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: gw, namespace: foo}
spec: {targetRefs: [{kind: Gateway, group: gateway.networking.k8s.io, name: gw}]}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: v1, namespace: foo}
spec: {selector: {matchLabels: {version: v1}}}
`);
    const sel = selectPolicies(snap, snap.proxies[0]!, 'istio-system');
    expect(sel.applied.map((a) => [a.policy.meta.name, a.action])).toEqual([
      ['mesh-wide', 'DENY'],
      ['v1', 'ALLOW'],
    ]);
    expect(sel.notApplied.map((n) => [n.policy.meta.name, n.reason])).toEqual([
      ['v2-only', "selector version=v2 does not match the proxy's labels"],
      ['gw', 'targetRefs (Gateway/gw) never select a sidecar'],
    ]);
  });
});
