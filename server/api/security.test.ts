// The proxy page's Security data: applied policies in RBAC filter order (CUSTOM, AUDIT, DENY, ALLOW, as
// builder.go builds them), each rule with its RBAC policy name, and the notes istiod's builder would log.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { deployment, meshFromYaml } from '../translate/testing/yamlMesh';
import { proxySecurity } from './security';

describe('proxySecurity', () => {
  it('lists applied policies in filter order with their rules, and the ones that do not apply', () => {
    const snap = meshFromYaml(`${deployment('api', 'shop', { app: 'api' })}---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: allow-get, namespace: shop}
spec: {rules: [{from: [{source: {namespaces: [shop]}}], to: [{operation: {methods: [GET]}}], when: [{key: source.ip, values: [10.0.0.0/8]}]}]}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: deny-all, namespace: istio-system}
spec: {action: DENY, rules: [{to: [{operation: {paths: [/admin]}}]}]}
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: web-only, namespace: shop}
spec: {selector: {matchLabels: {app: web}}}
`);
    const sec = proxySecurity(snap, snap.proxies[0]!, DEFAULT_OPTIONS);
    expect(sec.policies.map((p) => `${p.action} ${p.namespace}/${p.name}`)).toEqual(['DENY istio-system/deny-all', 'ALLOW shop/allow-get']);
    expect(sec.policies[1]?.rules).toEqual([
      {
        index: 0,
        rbacName: 'ns[shop]-policy[allow-get]-rule[0]',
        from: ['namespaces: shop'],
        to: ['methods: GET'],
        when: ['source.ip in [10.0.0.0/8]'],
      },
    ]);
    expect(sec.policies[1]?.notes).toEqual(['rule[0] skipped on TCP chains: "methods" is HTTP only']);
    expect(sec.notApplied).toEqual([{ namespace: 'shop', name: 'web-only', reason: "selector app=web does not match the proxy's labels" }]);
  });

  it('CUSTOM: the configured ext_authz provider, or the bad-provider deny (extauthz.go getExtAuthz)', () => {
    const snap = meshFromYaml(`${deployment('api', 'shop', { app: 'api' })}---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: ext, namespace: shop}
spec: {action: CUSTOM, provider: {name: opa}, rules: [{to: [{operation: {paths: [/admin]}}]}]}
`);
    const providers = [
      { name: 'opa', extAuthz: { kind: 'grpc' as const, service: 'opa.shop.svc.cluster.local', port: 9191, failOpen: false } },
    ];
    const known = proxySecurity(snap, snap.proxies[0]!, { ...DEFAULT_OPTIONS, extensionProviders: providers }).policies[0]!;
    expect(known.rules[0]?.rbacName).toBe('istio-ext-authz-opa-ns[shop]-policy[ext]-rule[0]');
    expect(known.notes.join()).toContain('ext_authz provider "opa" (grpc, outbound|9191||opa.shop.svc.cluster.local)');
    const unknown = proxySecurity(snap, snap.proxies[0]!, DEFAULT_OPTIONS).policies[0]!;
    expect(unknown.rules[0]?.rbacName).toBe('istio-ext-authz-opa-ns[shop]-policy[ext]-rule[0]-deny-due-to-bad-CUSTOM-action');
    expect(unknown.notes.join()).toContain('not configured');
  });
});
