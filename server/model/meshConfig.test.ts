// Mesh config parsing as istiod does it (pkg/config/mesh/mesh.go:DefaultMeshConfig, ApplyMeshConfig;
// mesh_test.go:TestApplyMeshConfigDefaults): defaults, overrides, unknown fields, bad values, and the snapshot's
// choice of source (pilot/pkg/bootstrap/mesh.go: the mesh file, else ConfigMap istio in istio-system).
import { describe, expect, it } from 'vitest';
import type { RawInput } from './inputs';
import { optionsOf } from './mesh';
import { defaultMeshConfig } from './meshConfig';
import { parseMeshConfig } from './parse/meshConfig';
import { buildSnapshot } from './snapshot';

const configMap = (mesh: unknown, ns = 'istio-system', name = 'istio'): RawInput => ({
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: mesh === undefined ? {} : { mesh } },
  origin: { source: 'file', file: 'mesh.yaml', doc: 0 },
});

describe('parseMeshConfig (ApplyMeshConfigDefaults)', () => {
  it("empty YAML gives istiod's DefaultMeshConfig", () => {
    const r = parseMeshConfig('');
    expect(r.problems).toEqual([]);
    const c = r.config!;
    // DefaultMeshConfig values (mesh.go)
    expect(c.outboundTrafficPolicy).toEqual({ mode: 'ALLOW_ANY' });
    expect(c.enableAutoMtls).toBe(true);
    expect(c.rootNamespace).toBe('istio-system');
    expect(c.connectTimeout).toBe('10s');
    expect(c.protocolDetectionTimeout).toBe('0s');
    expect(c.trustDomain).toBe('cluster.local');
    expect(c.localityLbSetting).toEqual({ enabled: true });
    expect(c.defaultServiceExportTo).toEqual(['*']);
    expect(c.defaultVirtualServiceExportTo).toEqual(['*']);
    expect(c.defaultDestinationRuleExportTo).toEqual(['*']);
    expect(c.dnsRefreshRate).toBe('60s');
    expect(c.ingressClass).toBe('istio');
    expect(c.defaultConfig.discoveryAddress).toBe('istiod.istio-system.svc:15012');
    expect(c.defaultHttpRetryPolicy).toBeUndefined();
  });

  it('user fields replace the defaults; defaultConfig is merged into DefaultProxyConfig', () => {
    const r = parseMeshConfig(
      [
        'outboundTrafficPolicy: {mode: REGISTRY_ONLY}',
        'inboundTrafficPolicy: {mode: LOCALHOST}',
        'rootNamespace: mesh-root',
        'connectTimeout: 1500ms',
        'protocolDetectionTimeout: 100ms',
        'enableAutoMtls: false',
        'defaultServiceExportTo: ["."]',
        'defaultHttpRetryPolicy: {attempts: 4, retryOn: "5xx", perTryTimeout: 2s}',
        'localityLbSetting: {enabled: true, failover: [{from: us-east, to: us-west}]}',
        'defaultConfig:',
        '  discoveryAddress: istiod.mesh-root.svc:15012',
        '  proxyMetadata: {A: b}',
      ].join('\n'),
    );
    expect(r.problems).toEqual([]);
    const c = r.config!;
    expect(c.outboundTrafficPolicy.mode).toBe('REGISTRY_ONLY');
    expect(c.inboundTrafficPolicy.mode).toBe('LOCALHOST');
    expect(c.rootNamespace).toBe('mesh-root');
    // durations normalized to proto3 JSON, as /debug/mesh prints them
    expect(c.connectTimeout).toBe('1.500s');
    expect(c.protocolDetectionTimeout).toBe('0.100s');
    expect(c.enableAutoMtls).toBe(false);
    expect(c.defaultServiceExportTo).toEqual(['.']);
    expect(c.defaultVirtualServiceExportTo).toEqual(['*']);
    expect(c.defaultHttpRetryPolicy).toEqual({ attempts: 4, retryOn: '5xx', perTryTimeout: '2s' });
    expect(c.localityLbSetting.failover).toEqual([{ from: 'us-east', to: 'us-west' }]);
    // applyProxyConfig: user fields replace, the rest of DefaultProxyConfig stays
    expect(c.defaultConfig.discoveryAddress).toBe('istiod.mesh-root.svc:15012');
    expect(c.defaultConfig.proxyAdminPort).toBe(15000);
    expect(c.defaultConfig.proxyMetadata).toEqual({ A: 'b' });
  });

  it('an unknown field is a located warning and is ignored (protomarshal.ApplyJSON AllowUnknownFields)', () => {
    const r = parseMeshConfig('enableAutoMtls: false\nnotAField: 3\n', {
      file: 'm.yaml',
      object: 'ConfigMap istio-system/istio',
      pathPrefix: 'data.mesh',
    });
    expect(r.config!.enableAutoMtls).toBe(false);
    expect(r.config!.notAField).toBeUndefined();
    expect(r.problems).toEqual([
      {
        severity: 'warning',
        message: 'unknown MeshConfig field notAField (ignored) (mesh config line 2)',
        path: 'data.mesh.notAField',
        object: 'ConfigMap istio-system/istio',
        file: 'm.yaml',
      },
    ]);
  });

  it('a bad value is a located error and keeps that default; the other fields still apply', () => {
    const r = parseMeshConfig(
      [
        'rootNamespace: other',
        'outboundTrafficPolicy:',
        '  mode: SOMETIMES',
        'connectTimeout: soon',
        'defaultServiceExportTo: ["Bad_NS"]',
      ].join('\n'),
    );
    const c = r.config!;
    expect(c.rootNamespace).toBe('other');
    expect(c.outboundTrafficPolicy.mode).toBe('ALLOW_ANY');
    expect(c.connectTimeout).toBe('10s');
    expect(c.defaultServiceExportTo).toEqual(['*']);
    expect(r.problems.map((p) => [p.severity, p.path])).toEqual([
      ['error', 'outboundTrafficPolicy'],
      ['error', 'connectTimeout'],
      ['error', 'defaultServiceExportTo'],
    ]);
    expect(r.problems[0]!.message).toMatch(/mode must be one of ALLOW_ANY, REGISTRY_ONLY.*line 2/);
    expect(r.problems[1]!.message).toMatch(/invalid duration "soon".*default "10s" is kept.*line 4/);
  });

  it('keys that name Object methods are unknown fields, never called (no crash, no prototype change)', () => {
    const r = parseMeshConfig(
      'toString: 1\nconstructor: x\n__proto__: {rootNamespace: evil}\ndefaultHttpRetryPolicy: {hasOwnProperty: 1}\n',
    );
    expect(r.config!.rootNamespace).toBe('istio-system');
    expect(r.problems.map((p) => [p.severity, p.path])).toEqual([
      ['warning', 'toString'],
      ['warning', 'constructor'],
      ['warning', '__proto__'],
      ['error', 'defaultHttpRetryPolicy'],
    ]);
    expect(({} as Record<string, unknown>).rootNamespace).toBeUndefined();
  });

  it('null is unset: the default stays', () => {
    const r = parseMeshConfig('connectTimeout: null\nrootNamespace: ~\n');
    expect(r.problems).toEqual([]);
    expect(r.config!.connectTimeout).toBe('10s');
    expect(r.config!.rootNamespace).toBe('istio-system');
  });

  it('YAML that does not parse, or is not a map, is fatal (no config: the caller keeps the last good one)', () => {
    const bad = parseMeshConfig('outboundTrafficPolicy: [mode: x\n');
    expect(bad.config).toBeUndefined();
    expect(bad.problems[0]!.message).toMatch(/not valid YAML.*last good mesh config is kept/);
    const list = parseMeshConfig('- a\n- b\n');
    expect(list.config).toBeUndefined();
    expect(list.problems[0]!.message).toMatch(/must be a YAML map/);
  });
});

describe('the snapshot mesh config (ConfigMap istio-system/istio, --mesh-config, defaults)', () => {
  it('no ConfigMap: defaults, origin defaults, default options', () => {
    const s = buildSnapshot([], { version: 1 });
    expect(s.mesh.origin).toEqual({ source: 'defaults' });
    expect(s.mesh.config).toEqual(defaultMeshConfig());
    expect(optionsOf(s).outboundTrafficPolicy).toBe('ALLOW_ANY');
    expect(optionsOf(s).enableAutoMtls).toBe(true);
  });

  it('reads key mesh of ConfigMap istio in istio-system; other ConfigMaps stay ignored', () => {
    const s = buildSnapshot(
      [
        configMap('outboundTrafficPolicy: {mode: ALLOW_ANY}', 'default', 'istio'),
        configMap('outboundTrafficPolicy: {mode: ALLOW_ANY}', 'istio-system', 'istio-sidecar-injector'),
        configMap('outboundTrafficPolicy: {mode: REGISTRY_ONLY}\nenableAutoMtls: false\ninboundTrafficPolicy: {mode: LOCALHOST}'),
      ],
      { version: 1 },
    );
    expect(s.errors).toEqual([]);
    expect(s.mesh.origin).toEqual({ source: 'configmap', file: 'mesh.yaml', doc: 0, object: 'ConfigMap istio-system/istio' });
    const o = optionsOf(s);
    expect(o.outboundTrafficPolicy).toBe('REGISTRY_ONLY');
    expect(o.enableAutoMtls).toBe(false);
    expect(o.inboundTrafficPolicy).toBe('LOCALHOST');
  });

  it('--mesh-config replaces the ConfigMap (istiod: the mesh file when given)', () => {
    const s = buildSnapshot([configMap('outboundTrafficPolicy: {mode: REGISTRY_ONLY}')], {
      version: 1,
      meshConfig: { file: '/etc/mesh.yaml', text: 'rootNamespace: custom-root\n' },
    });
    expect(s.mesh.origin).toEqual({ source: 'file', file: '/etc/mesh.yaml' });
    expect(optionsOf(s).outboundTrafficPolicy).toBe('ALLOW_ANY');
    expect(optionsOf(s).rootNamespace).toBe('custom-root');
  });

  it('bad values in the ConfigMap are located errors on the ConfigMap', () => {
    const s = buildSnapshot([configMap('enableAutoMtls: "yes"\n')], { version: 1 });
    expect(s.errors).toEqual([
      expect.objectContaining({
        severity: 'error',
        object: 'ConfigMap istio-system/istio',
        path: 'data.mesh.enableAutoMtls',
        file: 'mesh.yaml',
        doc: 0,
      }),
    ]);
    expect(optionsOf(s).enableAutoMtls).toBe(true);
  });
});
