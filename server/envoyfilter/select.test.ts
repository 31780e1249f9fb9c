// Selection and order of EnvoyFilters for a proxy, ported from Istio's pilot/pkg/model/push_context_test.go
// (TestEnvoyFilterOrder, TestEnvoyFilterOrderAcrossNamespaces) and model/envoyfilter.go proxyMatch.
import { describe, expect, it } from 'vitest';
import { meshFromYaml } from '../translate/testing/yamlMesh';
import { candidateFilters, proxyMismatch } from './select';
import type { PatchWrapper } from './types';

const ef = (ns: string, name: string, priority?: number, created?: string, extra = '') => `---
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: ${name}, namespace: ${ns}${created ? `, creationTimestamp: "${created}"` : ''}}
spec:
  ${priority === undefined ? '' : `priority: ${priority}`}
  ${extra}
  configPatches: [{applyTo: CLUSTER, patch: {operation: MERGE, value: {}}}]
`;
const pod = (ns: string, labels: Record<string, string>) => `---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: ${ns}, labels: ${JSON.stringify(labels)}, annotations: {sidecar.istio.io/status: "{}"}}
spec: {containers: [{name: app, image: app:1}, {name: istio-proxy, image: docker.io/istio/proxyv2:1.22.3}]}
status: {podIP: 10.0.0.9, phase: Running, conditions: [{type: Ready, status: "True"}]}
`;

describe('EnvoyFilter order (push_context.go EnvoyFilters)', () => {
  it('TestEnvoyFilterOrder: priority, then creation time, then name', () => {
    const T = '2026-01-01T00:00:00Z';
    const s = meshFromYaml(
      [
        pod('testns', { app: 'v1' }),
        ef('testns', 'default-priority'),
        ef('testns', 'b-medium-priority', 10, T),
        ef('testns', 'a-medium-priority', 10, T),
        ef('testns', 'a-low-priority', 20, '2026-01-02T00:00:00Z'),
        ef('testns', 'b-low-priority', 20, T),
        ef('testns', 'high-priority', -1),
        ef('testns', 'super-high-priority', -10),
        ef('testns-1', 'default-priority'),
      ].join('\n'),
    );
    const proxy = s.proxies[0];
    if (!proxy) throw new Error('no proxy');
    const { selected } = candidateFilters(s, proxy, 'istio-system');
    expect(selected.map((e) => `${e.meta.namespace}/${e.meta.name}`)).toEqual([
      'testns/super-high-priority',
      'testns/high-priority',
      'testns/default-priority',
      'testns/a-medium-priority',
      'testns/b-medium-priority',
      'testns/b-low-priority',
      'testns/a-low-priority',
    ]);
  });

  it('TestEnvoyFilterOrderAcrossNamespaces: priority beats the root namespace; equal priority puts the root namespace first', () => {
    const s = meshFromYaml(
      [
        pod('test-ns', { app: 'v1' }),
        ef('test-ns', 'filter-1', -5),
        ef('istio-system', 'filter-2', -1),
        ef('test-ns', 'filter-3', -1),
      ].join('\n'),
    );
    const proxy = s.proxies[0];
    if (!proxy) throw new Error('no proxy');
    expect(candidateFilters(s, proxy, 'istio-system').selected.map((e) => `${e.meta.namespace}/${e.meta.name}`)).toEqual([
      'test-ns/filter-1',
      'istio-system/filter-2',
      'test-ns/filter-3',
    ]);
  });

  it('workloadSelector and targetRefs: selectors select sidecars, targetRefs never do (ShouldAttachPolicy)', () => {
    const s = meshFromYaml(
      [
        pod('ns', { app: 'a' }),
        ef('ns', 'sel-a', undefined, undefined, 'workloadSelector: {labels: {app: a}}'),
        ef('ns', 'sel-b', undefined, undefined, 'workloadSelector: {labels: {app: b}}'),
        ef('ns', 'refs', undefined, undefined, 'targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]'),
        ef('other', 'elsewhere'),
      ].join('\n'),
    );
    const proxy = s.proxies[0];
    if (!proxy) throw new Error('no proxy');
    const r = candidateFilters(s, proxy, 'istio-system');
    expect(r.selected.map((e) => e.meta.name)).toEqual(['sel-a']);
    expect(r.rejected.map((x) => x.ef.meta.name)).toEqual(['sel-b', 'refs']);
  });
});

describe('proxyMatch (model/envoyfilter.go)', () => {
  const wrap = (proxyVersion?: string, metadata?: Record<string, string>) =>
    ({ match: { proxy: { ...(proxyVersion !== undefined ? { proxyVersion } : {}), ...(metadata ? { metadata } : {}) } } }) as PatchWrapper;
  it('regex versions; wellKnownVersions as prefixes; unknown version never matches; an invalid regex is no check', () => {
    expect(proxyMismatch(wrap('^1\\.22.*'), '1.22.3', {})).toBeUndefined();
    expect(proxyMismatch(wrap('^1\\.22.*'), '1.21.0', {})).toMatch(/does not match/);
    expect(proxyMismatch(wrap('^1\\.2[0-9].*'), undefined, {})).toMatch(/unknown/);
    expect(proxyMismatch(wrap('1\\.2.\\..*'), '1.24.1', {})).toBeUndefined();
    expect(proxyMismatch(wrap('(unclosed'), undefined, {})).toBeUndefined();
    expect(proxyMismatch(wrap('x'.repeat(1025)), '1.22.3', {})).toMatch(/1024/);
  });
  it('metadata must equal the node metadata value for every key', () => {
    expect(proxyMismatch(wrap(undefined, { CLUSTER_ID: 'c1' }), '1.22', { CLUSTER_ID: 'c1' })).toBeUndefined();
    expect(proxyMismatch(wrap(undefined, { CLUSTER_ID: 'c1' }), '1.22', {})).toMatch(/CLUSTER_ID=c1/);
  });
});
