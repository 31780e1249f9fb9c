// The proxy page's Security data: applied policies in RBAC filter order (CUSTOM, AUDIT, DENY, ALLOW, as
// builder.go builds them), each rule with its RBAC policy name, and the notes istiod's builder would log.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { deployment, meshFromYaml, proxyWith } from '../translate/testing/yamlMesh';
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

// The mTLS part of the Security view: each inbound port's mode with the PeerAuthentication behind it, following
// Istio's precedence (pilot/pkg/security/authn policy_applier.go ComposePeerAuthentication: the workload
// policy wins over the namespace policy, which wins over the mesh policy in the root namespace; a workload
// policy's portLevelMtls overrides its own mode for that port, and an unset workload mode inherits from the
// namespace one), and each outbound cluster's TLS: auto mTLS, a DestinationRule's tls, or none.
describe('proxySecurity mtls', () => {
  const yaml = `${deployment('api', 'shop', { app: 'api' })}---
${deployment('db', 'data', { app: 'db' })}---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: shop}
spec: {selector: {app: api}, ports: [{name: http, port: 80, targetPort: 8080}, {name: http-admin, port: 9080, targetPort: 9080}]}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: data}
spec: {selector: {app: db}, ports: [{name: http, port: 80, targetPort: 8080}]}
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: default, namespace: istio-system}
spec: {mtls: {mode: PERMISSIVE}}
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: strict, namespace: shop}
spec: {mtls: {mode: STRICT}}
---
apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: api-ports, namespace: shop}
spec:
  selector: {matchLabels: {app: api}}
  portLevelMtls:
    8080: {mode: DISABLE}
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: db, namespace: data}
spec:
  host: db.data.svc.cluster.local
  trafficPolicy: {tls: {mode: SIMPLE}}
`;
  const snap = meshFromYaml(yaml);
  const src = (p: { source: { kind: string } & Partial<Record<'namespace' | 'name' | 'scope' | 'path', string>> }) =>
    p.source.kind === 'default' ? 'mesh default' : `${p.source.namespace}/${p.source.name} ${p.source.scope} ${p.source.path}`;

  it('per port: the port-level override, else the namespace STRICT policy (the workload policy sets no mode of its own)', () => {
    const sec = proxySecurity(snap, proxyWith(snap, 'shop', { app: 'api' }), DEFAULT_OPTIONS);
    expect(sec.mtls.inbound.map((p) => `${p.port} ${p.mode} ${src(p)}`)).toEqual([
      '0 STRICT shop/strict namespace spec.mtls.mode',
      '8080 DISABLE shop/api-ports workload spec.portLevelMtls.8080.mode',
      '9080 STRICT shop/strict namespace spec.mtls.mode',
    ]);
    expect(sec.mtls.inbound.find((p) => p.port === 8080)?.services).toEqual(['api.shop.svc.cluster.local:80']);
  });

  it('a namespace without its own policy gets the mesh-wide one from the root namespace', () => {
    const sec = proxySecurity(snap, proxyWith(snap, 'data', { app: 'db' }), DEFAULT_OPTIONS);
    expect(sec.mtls.inbound.map((p) => `${p.port} ${p.mode} ${src(p)}`)).toEqual([
      '0 PERMISSIVE istio-system/default mesh spec.mtls.mode',
      '8080 PERMISSIVE istio-system/default mesh spec.mtls.mode',
    ]);
  });

  it('no PeerAuthentication at all: PERMISSIVE, the mesh default', () => {
    const bare = meshFromYaml(yaml.split('---\napiVersion: security.istio.io/v1')[0] as string);
    const sec = proxySecurity(bare, proxyWith(bare, 'data', { app: 'db' }), DEFAULT_OPTIONS);
    expect(sec.mtls.inbound.map((p) => `${p.port} ${p.mode} ${src(p)}`)).toEqual([
      '0 PERMISSIVE mesh default',
      '8080 PERMISSIVE mesh default',
    ]);
  });

  it('per cluster: auto mTLS towards sidecars, the DestinationRule (with its mode and path) when it sets tls', () => {
    const sec = proxySecurity(snap, proxyWith(snap, 'shop', { app: 'api' }), DEFAULT_OPTIONS);
    const db = sec.mtls.clusters.find((c) => c.cluster === 'outbound|80||db.data.svc.cluster.local');
    expect(db).toMatchObject({
      kind: 'DR',
      mode: 'SIMPLE',
      destinationRule: { config: '/apis/networking.istio.io/v1/namespaces/data/destination-rule/db', path: 'spec.trafficPolicy.tls' },
    });
    expect(sec.mtls.clusters.find((c) => c.cluster === 'outbound|9080||api.shop.svc.cluster.local')).toMatchObject({
      kind: 'auto',
      mode: 'ISTIO_MUTUAL',
    });
  });
});
