// The RBAC walk against configs translated from AuthorizationPolicies written here. Expected outcomes follow
// Istio's documented evaluation order (https://istio.io/latest/docs/concepts/security/#implicit-enablement:
// CUSTOM, then DENY, then ALLOW; no ALLOW policy = allow; ALLOW policies that do not match = deny) and Envoy's
// RBAC engine (engine_impl.cc: LOG never denies; shadow_rules never decide).
import { describe, expect, it } from 'vitest';
import { proxyResources } from '../pipeline/proxyResources';
import { deployment, meshFromYaml } from '../translate/testing/yamlMesh';
import { simulate, type SimRequest } from './index';

const SVC = `apiVersion: v1
kind: Service
metadata: {name: api, namespace: shop}
spec: {selector: {app: api}, ports: [{name: http, port: 9080}, {name: tcp-db, port: 8080}]}
`;

function run(policies: string, req: Partial<SimRequest> = {}) {
  const snap = meshFromYaml(`${deployment('api', 'shop', { app: 'api' })}---\n${SVC}---\n${policies}`);
  expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
  const proxy = snap.proxies.find((p) => p.labels.app === 'api')!;
  const r = proxyResources(snap, proxy.id)!;
  const config = {
    listeners: r.listeners.map((e) => e.json),
    routes: r.routes.map((e) => e.json),
    clusters: r.clusters.map((e) => e.json),
    endpoints: r.endpoints.map((e) => e.json),
  };
  return simulate(config, { mode: 'inbound', port: 9080, path: '/', ...req });
}

const ap = (name: string, spec: string, extraMeta = '') =>
  `apiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata: {name: ${name}, namespace: shop${extraMeta}}\nspec: ${spec}\n---\n`;

describe('simulate: the RBAC walk', () => {
  it('no policy → no authorization hop at all', () => {
    const r = run('');
    expect(r.authorization).toBeUndefined();
    expect(r.error).toBeUndefined();
  });

  it('only a DENY policy that does not match → allow (no ALLOW policy means allow)', () => {
    const r = run(ap('deny-evil', '{action: DENY, rules: [{from: [{source: {namespaces: ["evil"]}}]}]}'), { sourceNamespace: 'good' });
    expect(r.authorization).toMatchObject({ decision: 'allow' });
    expect(r.authorization?.policy).toBeUndefined();
    expect(r.rejected.filter((x) => x.hop === 'authorization').map((x) => x.name)).toEqual(['ns[shop]-policy[deny-evil]-rule[0]']);
  });

  it('DENY is evaluated before ALLOW: a request both match is denied by the DENY policy and its rule', () => {
    const r = run(
      ap('allow-all', '{rules: [{}]}') +
        ap('deny-admin', '{action: DENY, rules: [{to: [{operation: {paths: ["/x"]}}]}, {to: [{operation: {paths: ["/admin*"]}}]}]}'),
      { path: '/admin/users' },
    );
    expect(r.error).toBe('RBAC: access denied');
    expect(r.authorization).toMatchObject({ decision: 'deny', policy: 'shop/deny-admin', rule: 1 });
  });

  it('source namespace and source IP feed namespaces and ipBlocks', () => {
    const policy = ap('from-ns', '{rules: [{from: [{source: {namespaces: ["front*"], ipBlocks: ["10.1.0.0/16"]}}]}]}');
    expect(run(policy, { sourceNamespace: 'frontend', sourceIp: '10.1.2.3' }).authorization).toEqual({
      decision: 'allow',
      policy: 'shop/from-ns',
      rule: 0,
    });
    const wrongIp = run(policy, { sourceNamespace: 'frontend', sourceIp: '10.2.0.1' });
    expect(wrongIp.error).toBe('RBAC: access denied');
    expect(wrongIp.rejected.find((x) => x.hop === 'authorization')?.reason).toContain('source IP 10.2.0.1 not in 10.1.0.0/16');
  });

  it('AUDIT never denies; a dry-run DENY only adds a note', () => {
    const r = run(
      ap('audit', '{action: AUDIT, rules: [{}]}') + ap('dry', '{action: DENY, rules: [{}]}', ', annotations: {istio.io/dry-run: "true"}'),
    );
    expect(r.error).toBeUndefined();
    expect(r.notes?.some((n) => n.includes('AUDIT policy shop/audit'))).toBe(true);
    expect(r.notes?.some((n) => n.startsWith('dry-run DENY policy shop/dry'))).toBe(true);
  });

  it('an ALLOW policy with only HTTP fields denies every TCP connection (its rule is dropped from the network filter)', () => {
    const r = run(ap('get-only', '{rules: [{to: [{operation: {methods: ["GET"]}}]}]}'), { port: 8080, protocol: 'tcp' });
    expect(r.error).toBe('RBAC: access denied');
    expect(r.authorization).toMatchObject({ decision: 'deny' });
    const http = run(ap('get-only', '{rules: [{to: [{operation: {methods: ["GET"]}}]}]}'));
    expect(http.authorization).toEqual({ decision: 'allow', policy: 'shop/get-only', rule: 0 });
  });

  it('CUSTOM without a known extension provider denies what its rules match', () => {
    const r = run(ap('ext', '{action: CUSTOM, provider: {name: opa}, rules: [{to: [{operation: {paths: ["/secure"]}}]}]}'), {
      path: '/secure',
    });
    expect(r.error).toBe('RBAC: access denied');
    expect(r.authorization).toMatchObject({ decision: 'deny', policy: 'shop/ext', rule: 0 });
    expect(
      run(ap('ext', '{action: CUSTOM, provider: {name: opa}, rules: [{to: [{operation: {paths: ["/secure"]}}]}]}')).error,
    ).toBeUndefined();
  });
});

// CUSTOM with a MeshConfig ext_authz provider (extauthz.go): the RBAC filter's shadow rules pick the requests the
// ext_authz filter checks; the external server decides, which a config walk cannot know: decision stays
// allow/deny (DESIGN §3) and a note says where the request goes.
const MESH = `apiVersion: v1
kind: ConfigMap
metadata: {name: istio, namespace: istio-system}
data:
  mesh: |
    extensionProviders:
    - name: opa
      envoyExtAuthzGrpc: {service: opa.shop.svc.cluster.local, port: 9191}
---
`;

describe('simulate: CUSTOM with an ext_authz provider', () => {
  const policy = MESH + ap('ext', '{action: CUSTOM, provider: {name: opa}, rules: [{to: [{operation: {paths: ["/admin*"]}}]}]}');

  it('a matching request is sent to the provider: allow, with the note and the CUSTOM policy', () => {
    const r = run(policy, { path: '/admin/x' });
    expect(r.error).toBeUndefined();
    expect(r.authorization).toMatchObject({ decision: 'allow', policy: 'shop/ext', rule: 0 });
    expect(r.authorization?.reason).toContain('ext_authz provider opa');
    expect(r.notes?.some((n) => n.includes('sent to the ext_authz provider opa'))).toBe(true);
  });

  it('a request the CUSTOM rules do not match skips ext_authz; a later DENY still denies', () => {
    const r = run(policy, { path: '/public' });
    expect(r.authorization).toMatchObject({ decision: 'allow' });
    expect(r.authorization?.policy).toBeUndefined();
    expect(r.notes?.some((n) => n.includes('ext_authz'))).toBeFalsy();
    const d = run(policy + ap('deny-admin', '{action: DENY, rules: [{to: [{operation: {paths: ["/admin*"]}}]}]}'), { path: '/admin/x' });
    expect(d.error).toBe('RBAC: access denied');
    expect(d.authorization).toMatchObject({ decision: 'deny', policy: 'shop/deny-admin' });
  });

  it('an unknown provider is still the bad-provider deny', () => {
    const r = run(MESH + ap('ext', '{action: CUSTOM, provider: {name: other}, rules: [{to: [{operation: {paths: ["/admin*"]}}]}]}'), {
      path: '/admin/x',
    });
    expect(r.error).toBe('RBAC: access denied');
    expect(r.authorization).toMatchObject({ decision: 'deny', policy: 'shop/ext', rule: 0 });
  });
});
