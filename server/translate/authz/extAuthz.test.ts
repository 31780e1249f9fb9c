// CUSTOM AuthorizationPolicies with MeshConfig extension providers, after Istio's builder testdata
// (pilot/pkg/security/authz/builder/testdata custom-grpc-provider-in/-out, custom-http-provider-in/-out and
// custom-bad-multiple-providers) and the rules of extauthz.go; policies written here.
import { describe, expect, it } from 'vitest';
import { parseExtensionProviders } from '../../model/extensionProviders';
import { meshFromYaml } from '../testing/yamlMesh';
import { BAD_CUSTOM_SUFFIX, buildHttpRbacFilters, buildNetworkRbacFilters } from './builder';
import { selectPolicies } from './select';

const HTTPBIN = `apiVersion: v1
kind: Pod
metadata: {name: httpbin-1, namespace: foo, labels: {app: httpbin}, annotations: {sidecar.istio.io/status: "{}"}}
spec: {serviceAccountName: httpbin, containers: [{name: httpbin, image: x}]}
status: {podIP: 10.0.0.9, phase: Running}
`;
const custom = (name: string, provider: string) => `---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: ${name}, namespace: foo}
spec: {action: CUSTOM, provider: {name: ${provider}}, rules: [{to: [{operation: {paths: ["/httpbin1"]}}]}]}
`;
const { providers } = parseExtensionProviders([
  { name: 'grpc', envoyExtAuthzGrpc: { service: 'my-custom-ext-authz.foo.svc.cluster.local', port: 9000, failOpen: true } },
  { name: 'http', envoyExtAuthzHttp: { service: 'foo/my-custom-ext-authz.foo.svc.cluster.local', port: 9000, statusOnError: '403' } },
]);

function applied(policies: string) {
  const snap = meshFromYaml(HTTPBIN + policies);
  expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
  return selectPolicies(snap, snap.proxies[0]!, 'istio-system').applied;
}
const tc = (f: { typedConfig?: unknown }) => f.typedConfig as Record<string, unknown>;
const ENABLED = (filter: string) => ({
  filter,
  path: [{ key: 'istio_ext_authz_shadow_effective_policy_id' }],
  value: { stringMatch: { prefix: 'istio-ext-authz' } },
});

describe('CUSTOM with an extension provider', () => {
  it('custom-grpc-provider (HTTP): RBAC with shadow DENY rules, then ext_authz to outbound|9000||host', () => {
    const fs = buildHttpRbacFilters(applied(custom('httpbin-1', 'grpc')), undefined, providers);
    expect(fs.map((f) => f.name)).toEqual(['envoy.filters.http.rbac', 'envoy.filters.http.ext_authz']);
    const rbac = tc(fs[0]!);
    expect(rbac.rules).toBeUndefined();
    expect(rbac.shadowRulesStatPrefix).toBe('istio_ext_authz_');
    expect(rbac.shadowRules).toMatchObject({ action: 'DENY' });
    expect(Object.keys((rbac.shadowRules as { policies: object }).policies)).toEqual([
      'istio-ext-authz-grpc-ns[foo]-policy[httpbin-1]-rule[0]',
    ]);
    expect(tc(fs[1]!)).toEqual({
      '@type': 'type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz',
      failureModeAllow: true,
      transportApiVersion: 'V3',
      grpcService: {
        envoyGrpc: {
          clusterName: 'outbound|9000||my-custom-ext-authz.foo.svc.cluster.local',
          authority: 'outbound_.9000_._.my-custom-ext-authz.foo.svc.cluster.local',
        },
      },
      filterEnabledMetadata: ENABLED('envoy.filters.http.rbac'),
    });
  });

  it('custom-grpc-provider (TCP): network RBAC in shadow mode, then the network ext_authz filter', () => {
    const fs = buildNetworkRbacFilters(applied(custom('httpbin-1', 'grpc')), undefined, providers);
    expect(fs.map((f) => f.name)).toEqual(['envoy.filters.network.rbac', 'envoy.filters.network.ext_authz']);
    expect(tc(fs[0]!)).toMatchObject({ statPrefix: 'tcp.', shadowRulesStatPrefix: 'istio_ext_authz_' });
    expect(tc(fs[1]!)).toMatchObject({
      statPrefix: 'tcp.',
      failureModeAllow: true,
      transportApiVersion: 'V3',
      filterEnabledMetadata: ENABLED('envoy.filters.network.rbac'),
    });
  });

  it('custom-http-provider: http_service with server_uri (600s placeholder timeout), status_on_error; nothing on TCP', () => {
    const a = applied(custom('httpbin-1', 'http'));
    const fs = buildHttpRbacFilters(a, undefined, providers);
    expect(tc(fs[1]!)).toMatchObject({
      statusOnError: { code: 'Forbidden' },
      httpService: {
        serverUri: {
          uri: 'http://my-custom-ext-authz.foo.svc.cluster.local',
          cluster: 'outbound|9000||my-custom-ext-authz.foo.svc.cluster.local',
          timeout: '600s',
        },
      },
    });
    const notes: { policy: string; message: string }[] = [];
    expect(buildNetworkRbacFilters(a, notes, providers)).toEqual([]);
    expect(notes[0]?.message).toContain('HTTP provider');
  });

  it('custom-bad-multiple-providers and an unknown provider: the bad-provider DENY', () => {
    for (const policies of [custom('a', 'grpc') + custom('b', 'http'), custom('a', 'nope')]) {
      const fs = buildHttpRbacFilters(applied(policies), undefined, providers);
      expect(fs.map((f) => f.name)).toEqual(['envoy.filters.http.rbac']);
      const rules = tc(fs[0]!).rules as { action: string; policies: object };
      expect(rules.action).toBe('DENY');
      expect(Object.keys(rules.policies).every((k) => k.endsWith(BAD_CUSTOM_SUFFIX))).toBe(true);
    }
  });
});
