// IST0151–IST0155 as Istio's envoyfilter.EnvoyPatchAnalyzer reports them. The inputs re-create the scenarios of
// Istio's analyzer testdata (pkg/config/analysis/analyzers/testdata: relative-envoy-filter-operation.yaml,
// envoy-filter-replace-operation.yaml, envoy-filter-add-operation.yaml, envoy-filter-remove-operation.yaml,
// absolute-envoy-filter-operation.yaml) and expect the findings analyzers_test.go lists for them.
import { describe, expect, it } from 'vitest';
import { meshFromYaml } from '../translate/testing/yamlMesh';
import { analyze } from './index';

const ef = (name: string, body: string) => `---
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: ${name}, namespace: bookinfo}
spec:
${body}`;
const lua = (op: string, extra = '') => `  - applyTo: HTTP_FILTER
    match:${extra}
      context: SIDECAR_INBOUND
      listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: envoy.filters.http.router}}}}
    patch: {operation: ${op}, value: {name: envoy.lua, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua}}}`;
const codes = (yaml: string) =>
  analyze(meshFromYaml(yaml), { only: ['envoyfilter.EnvoyPatchAnalyzer'] })
    .findings.map((f) => `${f.code} ${f.object}`)
    .sort();

describe('envoyfilter.EnvoyPatchAnalyzer', () => {
  it('EnvoyFilterUsesRelativeOperation: INSERT_BEFORE/AFTER without priority; IST0155 when an earlier proxyVersion patch named the filter', () => {
    const yaml = [
      ef(
        'test-relative-1',
        `  configPatches:\n${lua('INSERT_BEFORE')}\n  - applyTo: CLUSTER\n    patch: {operation: ADD, value: {name: lua_cluster}}`,
      ),
      ef('test-relative-2', `  configPatches:\n${lua('INSERT_AFTER')}`),
      ef(
        'test-relative-3',
        `  configPatches:\n${lua('INSERT_AFTER', "\n      proxy: {proxyVersion: '^1\\\\.11.*'}")}\n${lua('INSERT_AFTER')}`,
      ),
      ef('test-relative-4', `  priority: 10\n  configPatches:\n${lua('INSERT_AFTER')}`),
      ef('test-absolute', `  configPatches:\n${lua('INSERT_FIRST')}\n${lua('ADD')}`),
    ].join('\n');
    expect(codes(yaml)).toEqual([
      'IST0151 EnvoyFilter bookinfo/test-relative-1',
      'IST0151 EnvoyFilter bookinfo/test-relative-2',
      'IST0151 EnvoyFilter bookinfo/test-relative-3',
      'IST0155 EnvoyFilter bookinfo/test-relative-3',
    ]);
  });

  it('REPLACE only on NETWORK_FILTER, HTTP_FILTER, VIRTUAL_HOST (IST0152); ADD and REMOVE on ROUTE_CONFIGURATION / HTTP_ROUTE ignored (IST0153, IST0154)', () => {
    const yaml = [
      ef(
        'test-replace-1',
        `  priority: 10\n  configPatches:\n  - applyTo: CLUSTER\n    patch: {operation: REPLACE, value: {name: lua_cluster}}`,
      ),
      ef('test-replace-2', `  priority: 10\n  configPatches:\n${lua('REPLACE')}`),
      ef(
        'test-add-1',
        `  configPatches:\n  - applyTo: HTTP_ROUTE\n    patch: {operation: ADD, value: {name: r}}\n  - applyTo: ROUTE_CONFIGURATION\n    patch: {operation: ADD, value: {name: rc}}`,
      ),
      ef('test-add-2', `  configPatches:\n  - applyTo: VIRTUAL_HOST\n    patch: {operation: ADD, value: {name: vh}}`),
      ef('test-remove-1', `  configPatches:\n${lua('REMOVE')}`),
      ef('test-remove-2', `  configPatches:\n  - applyTo: HTTP_ROUTE\n    patch: {operation: REMOVE}`),
    ].join('\n');
    expect(codes(yaml)).toEqual([
      'IST0151 EnvoyFilter bookinfo/test-remove-1',
      'IST0152 EnvoyFilter bookinfo/test-replace-1',
      // Two ADDs in one EnvoyFilter: one finding (same text, no line in Istio: diag.Messages.SortedDedupedCopy).
      'IST0153 EnvoyFilter bookinfo/test-add-1',
      'IST0154 EnvoyFilter bookinfo/test-remove-2',
    ]);
  });

  it('findings point at the patch: spec.configPatches[i].patch.value (util.EnvoyFilterConfigPath), located in its file', () => {
    const f = analyze(meshFromYaml(ef('x', `  configPatches:\n  - applyTo: HTTP_ROUTE\n    patch: {operation: REMOVE}`)), {
      only: ['envoyfilter.EnvoyPatchAnalyzer'],
    }).findings[0];
    expect(f).toMatchObject({ code: 'IST0154', path: 'spec.configPatches[0].patch.value' });
    expect(JSON.stringify(f)).toContain('test.yaml');
  });
});
