// Patched resources marked in the proxy page's tables and route graph (issue #22 §2), from the EnvoyFilter stage's
// real report on meshscope-generated Bookinfo: each mark must fall on a row / node that exists in the same proxy's
// config dump, and only on the resources the patch changed (listener_patch.go, rc_patch.go, cluster_patch.go decide
// which; the report's `targets` name them).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildRouteGraph } from '@/components/routeGraph/model/build';
import { toElements } from '@/components/routeGraph/model/elements';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { rowsFromDump } from '@/server/envoy/dumpModel/rows';
import { bookinfoMesh, sidecar } from '@/server/envoyfilter/testing';
import { configDumpFor } from '@/server/pipeline/configDump';
import { clusterColumns, listenerColumns, routeColumns } from '@/components/proxy/columns';
import { patchedClusterColumns, patchedListenerColumns, patchedRouteColumns } from './patchColumns';
import { patchedNodes, patchHref, patchMarks, vhostKey } from './patchMarks';
import { UnappliedEnvoyFiltersList } from './UnappliedEnvoyFilters';

const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: pp, namespace: default}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {name: "outbound|9080||reviews.default.svc.cluster.local"}}
    patch: {operation: MERGE, value: {connect_timeout: 0.5s}}
  - applyTo: VIRTUAL_HOST
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "ratings.default.svc.cluster.local:9080"}}}
    patch: {operation: MERGE, value: {response_headers_to_add: [{header: {key: x-ef, value: "1"}}]}}
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: envoy.filters.http.router}}}}
    patch:
      operation: INSERT_BEFORE
      value: {name: envoy.lua, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua, inline_code: "function envoy_on_request(h) end"}}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {service: nothing.default.svc.cluster.local}}
    patch: {operation: MERGE, value: {connect_timeout: 1s}}
`);
const pp = sidecar(s, { app: 'productpage' });
const res = configDumpFor(s, pp.id);
const report = res?.envoyFilters ?? [];
const rows = rowsFromDump(res?.dump);
const marks = patchMarks(report);

describe('patch marks from the stage report', () => {
  it('the cluster MERGE marks exactly the reviews cluster row', () => {
    expect([...marks.clusters.keys()]).toEqual(['outbound|9080||reviews.default.svc.cluster.local']);
    expect(rows.clusters.filter((r) => marks.clusters.has(r.name)).map((r) => r.name)).toEqual([
      'outbound|9080||reviews.default.svc.cluster.local',
    ]);
    expect(marks.clusters.get('outbound|9080||reviews.default.svc.cluster.local')?.[0]).toMatchObject({
      key: 'default/pp/0',
      label: 'default/pp configPatches[0]',
    });
  });

  it('the virtual-host MERGE marks the ratings vhost of route config 9080, and its rows only', () => {
    const k = vhostKey('9080', 'ratings.default.svc.cluster.local:9080');
    expect(marks.vhosts.get(k)?.map((p) => p.key)).toEqual(['default/pp/1']);
    const cols = patchedRouteColumns(routeColumns, marks);
    const col = cols.at(-1);
    expect(col?.header).toBe('EnvoyFilter');
    const marked = rows.routes.filter((r) => col?.value(r) !== '');
    expect(marked.length).toBeGreaterThan(0);
    expect(new Set(marked.map((r) => `${r.routeConfig} ${r.vhost}`))).toEqual(new Set(['9080 ratings.default.svc.cluster.local:9080']));
  });

  it('the inbound HTTP_FILTER marks virtualInbound (its chains are rows of the listener table)', () => {
    expect([...marks.listeners.keys()]).toEqual(['virtualInbound']);
    const col = patchedListenerColumns(listenerColumns, marks).at(-1);
    const marked = rows.listeners.filter((r) => col?.value(r) !== '');
    expect(new Set(marked.map((r) => r.listener))).toEqual(new Set(['virtualInbound']));
  });

  it('a patch that did not apply marks nothing; no applied patch: the tables keep their columns', () => {
    expect(marks.count).toBe(3);
    expect(JSON.stringify([...marks.clusters.values()])).not.toContain('default/pp/3');
    const none = patchMarks(report.filter((r) => !r.applied));
    expect(patchedClusterColumns(clusterColumns, none)).toBe(clusterColumns);
    expect(patchedListenerColumns(listenerColumns, none)).toBe(listenerColumns);
  });

  it('the column links each mark to its EnvoyFilters tab entry', () => {
    const col = patchedClusterColumns(clusterColumns, marks).at(-1);
    const row = rows.clusters.find((r) => r.name === 'outbound|9080||reviews.default.svc.cluster.local');
    const html = renderToStaticMarkup(<span>{row && col?.render?.(row)}</span>);
    expect(html).toContain(`href="${patchHref('default/pp/0').replace(/&/g, '&amp;')}"`);
    expect(patchHref('default/pp/0')).toBe('?tab=envoyfilters&patch=default%2Fpp%2F0');
  });

  it('the route graph marks the patched listener, virtual host and cluster nodes (class patched)', () => {
    const graph = buildRouteGraph(readConfigDump(res?.dump).config);
    const nodes = patchedNodes(graph.nodes, marks);
    const kinds = [...nodes.keys()].map((id) => graph.nodes.find((n) => n.id === id)).map((n) => `${n?.kind} ${n?.label}`);
    expect(kinds.sort()).toEqual(
      [
        'cluster outbound|9080||\nreviews.default.svc.cluster.local',
        'listener virtualInbound',
        'virtualHost ratings.default.svc.cluster.local:9080',
      ].sort(),
    );
    // A virtual-host patch marks its virtual host, not the whole route configuration.
    expect(kinds).not.toContain('routeConfig 9080');
    const els = toElements(graph, { patched: nodes });
    expect(els.filter((e) => e.classes.split(' ').includes('patched'))).toHaveLength(3);
  });
});

describe('the overview list of EnvoyFilters that apply nowhere', () => {
  it('lists only the ones applied nowhere, with their reasons', () => {
    const html = renderToStaticMarkup(
      <UnappliedEnvoyFiltersList
        filters={[
          { namespace: 'default', name: 'pp', selected: 1, applied: 1, why: [] },
          { namespace: 'default', name: 'typo', selected: 0, applied: 0, why: ['selects no proxy: workloadSelector app=nope …'] },
        ]}
      />,
    );
    expect(html.match(/data-testid="envoyfilter-nowhere"/g)).toHaveLength(1);
    expect(html).toContain('EnvoyFilter default/typo');
    expect(html).toContain('selects no proxy: workloadSelector app=nope');
    expect(
      renderToStaticMarkup(<UnappliedEnvoyFiltersList filters={[{ namespace: 'a', name: 'b', selected: 2, applied: 1, why: [] }]} />),
    ).toBe('');
  });
});
