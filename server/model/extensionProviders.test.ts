// MeshConfig.extensionProviders parsing, against istiod's rules in pilot/pkg/security/authz/builder/extauthz.go
// (processExtensionProvider: non-empty unique names; parsePort [1, 65535]; parseStatusOnError: an envoy.type.v3
// StatusCode; buildExtAuthzHTTP: pathPrefix must begin with `/`) and the MeshConfig API field names.
import { describe, expect, it } from 'vitest';
import { parseExtensionProviders } from './extensionProviders';
import { meshOptions } from './meshOptions';
import { parseMeshConfig } from './parse/meshConfig';

describe('parseExtensionProviders', () => {
  it('reads gRPC and HTTP ext_authz providers with their options', () => {
    const { providers, issues } = parseExtensionProviders([
      {
        name: 'g',
        envoyExtAuthzGrpc: {
          service: 'authz/a.authz.svc.cluster.local',
          port: 9000,
          timeout: '1.5s',
          failOpen: true,
          statusOnError: '403',
          includeRequestBodyInCheck: { maxRequestBytes: 10, packAsBytes: true },
        },
      },
      {
        name: 'h',
        envoyExtAuthzHttp: {
          service: 'a.authz.svc.cluster.local',
          port: 8000,
          pathPrefix: '/x',
          includeHeadersInCheck: ['cookie'],
          includeAdditionalHeadersInCheck: { k: 'v' },
          headersToUpstreamOnAllow: ['u'],
          headersToDownstreamOnDeny: ['d'],
        },
      },
      { name: 'tracer', zipkin: { service: 'zipkin.istio-system.svc.cluster.local', port: 9411 } },
    ]);
    expect(issues).toEqual([]);
    expect(providers[0]).toEqual({
      name: 'g',
      extAuthz: {
        kind: 'grpc',
        service: 'authz/a.authz.svc.cluster.local',
        port: 9000,
        timeout: '1.500s',
        failOpen: true,
        statusOnError: 403,
        includeRequestBodyInCheck: { maxRequestBytes: 10, packAsBytes: true },
      },
    });
    const h = providers[1]?.extAuthz;
    expect(h?.kind).toBe('http');
    if (h?.kind !== 'http') throw new Error('http provider expected');
    expect(h.failOpen).toBe(false);
    expect(h.pathPrefix).toBe('/x');
    // includeHeadersInCheck is the deprecated spelling of includeRequestHeadersInCheck.
    expect(h.includeRequestHeadersInCheck).toEqual(['cookie']);
    expect(h.includeAdditionalHeadersInCheck).toEqual({ k: 'v' });
    expect(h.headersToUpstreamOnAllow).toEqual(['u']);
    expect(h.headersToDownstreamOnDeny).toEqual(['d']);
    // Non-ext_authz providers are kept by name but have no ext_authz config.
    expect(providers[2]).toEqual({ name: 'tracer' });
  });

  it('rejects entries istiod rejects, keeping the good ones', () => {
    const { providers, issues } = parseExtensionProviders([
      { name: '', envoyExtAuthzGrpc: { service: 'a', port: 1 } },
      { name: 'ok', envoyExtAuthzGrpc: { service: 'a.b.svc.cluster.local', port: 1 } },
      { name: 'ok', envoyExtAuthzGrpc: { service: 'a.b.svc.cluster.local', port: 2 } },
      { name: 'port', envoyExtAuthzGrpc: { service: 'a', port: 70000 } },
      { name: 'status', envoyExtAuthzGrpc: { service: 'a', port: 1, statusOnError: '999' } },
      { name: 'prefix', envoyExtAuthzHttp: { service: 'a', port: 1, pathPrefix: 'check' } },
      { name: 'nosvc', envoyExtAuthzHttp: { port: 1 } },
      { name: 'both', envoyExtAuthzHttp: { service: 'a', port: 1 }, envoyExtAuthzGrpc: { service: 'a', port: 1 } },
      { name: 'timeout', envoyExtAuthzGrpc: { service: 'a', port: 1, timeout: 'soon' } },
    ]);
    expect(providers.map((p) => p.name)).toEqual(['ok']);
    expect(issues.map((i) => [i.index, i.path])).toEqual([
      [0, 'name'],
      [2, 'name'],
      [3, 'envoyExtAuthzGrpc.port'],
      [4, 'envoyExtAuthzGrpc.statusOnError'],
      [5, 'envoyExtAuthzHttp.pathPrefix'],
      [6, 'envoyExtAuthzHttp.service'],
      [7, ''],
      [8, 'envoyExtAuthzGrpc.timeout'],
    ]);
    expect(issues[1]?.message).toContain('found duplicate: ok');
    expect(issues[2]?.message).toContain('port must be in the range [1, 65535], found: 70000');
  });
});

describe('extensionProviders in the mesh config', () => {
  it('gives located errors (path and line) and passes the good providers to TranslateOptions', () => {
    const text = [
      'extensionProviders:',
      '- name: good',
      '  envoyExtAuthzGrpc:',
      '    service: a.b.svc.cluster.local',
      '    port: 9000',
      '- name: bad',
      '  envoyExtAuthzHttp:',
      '    service: a.b.svc.cluster.local',
      '    port: 0',
    ].join('\n');
    const r = parseMeshConfig(text, { file: 'mesh.yaml', object: 'ConfigMap istio-system/istio', pathPrefix: 'data.mesh' });
    expect(r.problems).toHaveLength(1);
    const p = r.problems[0]!;
    expect(p.severity).toBe('error');
    expect(p.path).toBe('data.mesh.extensionProviders[1].envoyExtAuthzHttp.port');
    expect(p.file).toBe('mesh.yaml');
    expect(p.message).toContain('port must be in the range');
    expect(p.message).toContain('(mesh config line 9)');
    const o = meshOptions(r.config!, { domainSuffix: 'cluster.local', clusterId: 'Kubernetes' });
    expect(o.extensionProviders?.map((x) => x.name)).toEqual(['good']);
  });

  it('no providers by default (every CUSTOM policy then gets the bad-provider deny)', () => {
    const r = parseMeshConfig('');
    expect(meshOptions(r.config!, { domainSuffix: 'cluster.local', clusterId: 'Kubernetes' }).extensionProviders).toEqual([]);
  });
});
