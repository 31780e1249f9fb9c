// simulateProxy names the VirtualService rule behind the matched route from translation's provenance
// (route config / virtual host / index), never by re-translating and comparing matches. The case below is
// one where comparing matches picks the wrong rule: http[0] and http[1] translate to the same Envoy match,
// but http[0]'s match selects other workloads (sourceLabels), so Istio (route.go
// BuildHTTPRoutesForVirtualService / sourceMatchHTTP) emits no route from it for productpage and the request
// is served by http[1].
import { describe, expect, it } from 'vitest';
import type { RuleSource } from '../sandbox/types';
import { deployment, meshFromYaml } from '../translate/testing/yamlMesh';
import { createCache } from '../pipeline/cache';
import { configDumpFor } from '../pipeline/configDump';
import type { ProxyResources } from '../pipeline/proxyResources';
import { simulateProxy } from './simulateProxy';

const mesh = meshFromYaml(
  [
    `apiVersion: v1
kind: Namespace
metadata: {name: default, labels: {istio-injection: enabled}}
`,
    `apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: default}
spec:
  selector: {app: reviews}
  ports: [{name: http, port: 9080, targetPort: 9080}]
`,
    deployment('productpage', 'default', { app: 'productpage' }),
    deployment('reviews', 'default', { app: 'reviews' }),
    `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: default}
spec:
  hosts: [reviews]
  http:
  - match: [{sourceLabels: {app: other}, uri: {prefix: /a}}]
    route: [{destination: {host: reviews, subset: v3}}]
  - match: [{uri: {prefix: /a}}]
    route: [{destination: {host: reviews, subset: v2}}]
  - route: [{destination: {host: reviews, subset: v1}}]
`,
  ].join('---\n'),
);
const productpage = mesh.proxies.find((p) => p.labels.app === 'productpage')?.id ?? '';

describe('simulateProxy source rule', () => {
  it('names the rule that produced the matched route, not the first rule with the same Envoy match', () => {
    const r = simulateProxy(mesh, productpage, { mode: 'outbound', address: '10.0.0.1', port: 9080, host: 'reviews', path: '/a/1' });
    expect(r?.routeIndex).toBe(0);
    expect(r?.source).toEqual({ kind: 'VirtualService', namespace: 'default', name: 'reviews', rule: 'http[1]' });
    const rest = simulateProxy(mesh, productpage, { mode: 'outbound', address: '10.0.0.1', port: 9080, host: 'reviews', path: '/b' });
    expect(rest?.source?.rule).toBe('http[2]');
  });

  it('reads the provenance of the cached translation (no second translation)', () => {
    const cache = createCache<ProxyResources>();
    const dump = configDumpFor(mesh, productpage, { cache });
    expect(cache.size).toBe(1);
    simulateProxy(mesh, productpage, { mode: 'outbound', port: 9080, host: 'reviews', path: '/a' }, { cache });
    expect(cache.size).toBe(1);
    // The provenance handed out is the sandbox's RuleSource shape (server/sandbox/types.ts).
    const sources: RuleSource[] = dump?.provenance.map((p) => p.source) ?? [];
    expect(sources.map((s) => s.rule)).toEqual(['http[1]', 'http[2]']);
  });
});
