// Ports of Istio's envoyfilter tests onto meshscope-generated Bookinfo (pilot/pkg/networking/core/envoyfilter:
// listener_patch_test.go TestApplyListenerPatches, rc_patch_test.go Test_routeConfigurationMatch /
// TestPatchHTTPRoute / "MERGE_AND_REPLACE_LIST replaces domains list", cluster_patch_test.go TestClusterPatching /
// Test_clusterMatch, model/envoyfilter.go INSERT_* → ADD). Each case states the rule it checks.
import { describe, expect, it } from 'vitest';
import { bookinfoMesh, clusterNamed, hcms, httpFilterNames, ingress, type J, listenerNamed, routeNamed, sidecar, tableOf } from './testing';

const filter = (name: string, spec: string, ns = 'default') => `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: ${name}, namespace: ${ns}}
spec:
${spec}`;
const pp = (s: ReturnType<typeof bookinfoMesh>) => tableOf(s, sidecar(s, { app: 'productpage' }));

describe('listener patches (listener_patch_test.go TestApplyListenerPatches)', () => {
  it('LISTENER REMOVE by name; LISTENER ADD (SIDECAR_OUTBOUND); ANY-context ADD added once', () => {
    const s = bookinfoMesh(
      filter(
        'lds',
        `  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: LISTENER
    match: {context: SIDECAR_OUTBOUND, listener: {name: 0.0.0.0_9080}}
    patch: {operation: REMOVE}
  - applyTo: LISTENER
    match: {context: SIDECAR_OUTBOUND}
    patch: {operation: ADD, value: {name: new-outbound, address: {socket_address: {address: 0.0.0.0, port_value: 12345}}}}
  - applyTo: LISTENER
    patch: {operation: ADD, value: {name: any-listener, address: {socket_address: {address: 0.0.0.0, port_value: 12346}}}}`,
      ),
    );
    const t = pp(s);
    const names = t.listeners.map((l) => l.name);
    expect(names).not.toContain('0.0.0.0_9080');
    expect(names.filter((n) => n === 'new-outbound')).toHaveLength(1);
    expect(names.filter((n) => n === 'any-listener')).toHaveLength(1);
    expect(t.envoyFilters?.map((r) => r.targets)).toEqual([
      ['listener 0.0.0.0_9080 (removed)'],
      ['listener new-outbound (added)'],
      ['listener any-listener (added)'],
    ]);
  });

  it('NETWORK_FILTER INSERT_FIRST, INSERT_AFTER a named filter, REPLACE and REMOVE on virtualOutbound (virtual listeners match any port)', () => {
    const s = bookinfoMesh(
      filter(
        'nf',
        `  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: NETWORK_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {name: virtualOutbound}}
    patch: {operation: INSERT_FIRST, value: {name: first, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.network.rbac.v3.RBAC, stat_prefix: x}}}
  - applyTo: NETWORK_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {name: virtualOutbound, filterChain: {filter: {name: istio.stats}}}}
    patch: {operation: INSERT_AFTER, value: {name: after-stats, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.network.rbac.v3.RBAC, stat_prefix: y}}}
  - applyTo: NETWORK_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {name: virtualOutbound, filterChain: {filter: {name: first}}}}
    patch: {operation: REPLACE, value: {name: replaced, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.network.rbac.v3.RBAC, stat_prefix: z}}}
  - applyTo: NETWORK_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {name: virtualOutbound, filterChain: {filter: {name: after-stats}}}}
    patch: {operation: REMOVE}`,
      ),
    );
    const vo = listenerNamed(pp(s), 'virtualOutbound');
    for (const fc of vo.filterChains) {
      expect(fc.filters.map((f: J) => f.name)).toEqual(['replaced', 'istio.stats', 'envoy.filters.network.tcp_proxy']);
    }
  });

  it('HTTP_FILTER: INSERT_AFTER without a subFilter appends; REMOVE by subFilter; MERGE of a typed config; REPLACE', () => {
    const s = bookinfoMesh(
      filter(
        'hf',
        `  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: HTTP_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {portNumber: 9080, filterChain: {filter: {name: envoy.filters.network.http_connection_manager}}}}
    patch: {operation: INSERT_AFTER, value: {name: appended, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.buffer.v3.Buffer, max_request_bytes: 1024}}}
  - applyTo: HTTP_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {portNumber: 9080, filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: istio.alpn}}}}}
    patch: {operation: REMOVE}
  - applyTo: HTTP_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {portNumber: 9080, filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: envoy.filters.http.router}}}}}
    patch: {operation: MERGE, value: {typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router, suppress_envoy_headers: true}}}
  - applyTo: HTTP_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {portNumber: 9080, filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: envoy.filters.http.cors}}}}}
    patch: {operation: REPLACE, value: {name: envoy.filters.http.cors, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors}, disabled: true}}`,
      ),
    );
    const hcm = hcms(listenerNamed(pp(s), '0.0.0.0_9080'))[0];
    expect(httpFilterNames(hcm)).toEqual([
      'istio.metadata_exchange',
      'envoy.filters.http.grpc_stats',
      'envoy.filters.http.fault',
      'envoy.filters.http.cors',
      'istio.stats',
      'envoy.filters.http.router',
      'appended',
    ]);
    expect(hcm.httpFilters.find((f: J) => f.name === 'envoy.filters.http.router').typedConfig.suppressEnvoyHeaders).toBe(true);
    expect(hcm.httpFilters.find((f: J) => f.name === 'envoy.filters.http.cors').disabled).toBe(true);
  });

  it('FILTER_CHAIN REMOVE by match (transport protocol and destination port) on virtualInbound; filterChain MERGE of a transport socket merges its typed config', () => {
    const s = bookinfoMesh(
      filter(
        'fc',
        `  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: FILTER_CHAIN
    match: {context: SIDECAR_INBOUND, listener: {portNumber: 9080, filterChain: {transportProtocol: raw_buffer}}}
    patch: {operation: REMOVE}
  - applyTo: FILTER_CHAIN
    match: {context: SIDECAR_INBOUND, listener: {portNumber: 9080, filterChain: {transportProtocol: tls}}}
    patch:
      operation: MERGE
      value:
        transport_socket:
          name: envoy.transport_sockets.tls
          typed_config:
            "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext
            common_tls_context: {tls_params: {tls_minimum_protocol_version: TLSv1_3}}`,
      ),
    );
    const chains = listenerNamed(pp(s), 'virtualInbound').filterChains.filter((c: J) => c.filterChainMatch?.destinationPort === 9080);
    expect(chains.map((c: J) => c.filterChainMatch.transportProtocol)).toEqual(['tls']);
    const tls = chains[0].transportSocket.typedConfig;
    // Merged into istiod's tls_params (cipher suites, maximum version kept), not replacing them.
    expect(tls.commonTlsContext.tlsParams).toMatchObject({ tlsMinimumProtocolVersion: 'TLSv1_3', tlsMaximumProtocolVersion: 'TLSv1_3' });
    expect(tls.commonTlsContext.tlsParams.cipherSuites.length).toBeGreaterThan(0);
    // The rest of istiod's DownstreamTlsContext is kept (merged, not replaced).
    expect(tls.requireClientCertificate).toBe(true);
  });
});

describe('route configuration patches (rc_patch_test.go)', () => {
  it('ROUTE_CONFIGURATION MERGE and MERGE_AND_REPLACE_LIST on a vhost\'s domains ("MERGE appends / MERGE_AND_REPLACE_LIST replaces domains list")', () => {
    const s = bookinfoMesh(
      filter(
        'rc',
        `  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: ROUTE_CONFIGURATION
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {portNumber: 9080}}
    patch: {operation: MERGE, value: {max_direct_response_body_size_bytes: 2048}}
  - applyTo: VIRTUAL_HOST
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "ratings.default.svc.cluster.local:9080"}}}
    patch: {operation: MERGE, value: {domains: [ratings.example]}}
  - applyTo: VIRTUAL_HOST
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "details.default.svc.cluster.local:9080"}}}
    patch: {operation: MERGE_AND_REPLACE_LIST, value: {domains: [details.example]}}`,
      ),
    );
    const base = routeNamed(pp(bookinfoMesh()), '9080');
    const rc = routeNamed(pp(s), '9080');
    expect(rc.maxDirectResponseBodySizeBytes).toBe(2048);
    const vh = (r: J, n: string) => r.virtualHosts.find((v: J) => v.name === n);
    expect(vh(rc, 'ratings.default.svc.cluster.local:9080').domains).toEqual([
      ...vh(base, 'ratings.default.svc.cluster.local:9080').domains,
      'ratings.example',
    ]);
    expect(vh(rc, 'details.default.svc.cluster.local:9080').domains).toEqual(['details.example']);
  });

  it('VIRTUAL_HOST ADD, REMOVE; HTTP_ROUTE INSERT_FIRST with a matching route, ADD; route action mismatch does nothing', () => {
    const s = bookinfoMesh(
      filter(
        'vh',
        `  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: VIRTUAL_HOST
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {name: "9080"}}
    patch: {operation: ADD, value: {name: extra, domains: [extra.example], routes: [{match: {prefix: /}, direct_response: {status: 204}}]}}
  - applyTo: VIRTUAL_HOST
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "details.default.svc.cluster.local:9080"}}}
    patch: {operation: REMOVE}
  - applyTo: HTTP_ROUTE
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "ratings.default.svc.cluster.local:9080", route: {name: default}}}}
    patch: {operation: INSERT_FIRST, value: {name: first, match: {prefix: /health}, direct_response: {status: 200}}}
  - applyTo: HTTP_ROUTE
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "ratings.default.svc.cluster.local:9080", route: {action: REDIRECT}}}}
    patch: {operation: MERGE, value: {decorator: {operation: never}}}`,
      ),
    );
    const t = pp(s);
    const rc = routeNamed(t, '9080');
    const names = rc.virtualHosts.map((v: J) => v.name);
    expect(names).toContain('extra');
    expect(names).not.toContain('details.default.svc.cluster.local:9080');
    const ratings = rc.virtualHosts.find((v: J) => v.name === 'ratings.default.svc.cluster.local:9080');
    expect(ratings.routes.map((r: J) => r.name)).toEqual(['first', 'default']);
    expect(JSON.stringify(rc)).not.toContain('never');
    expect(t.envoyFilters?.[3]).toMatchObject({ applied: false, reason: 'no matching element' });
  });

  it('gateway port mapping: routeConfiguration.portNumber 80 (the Service port) matches http.8080 (rc_patch.go anyPortMatches, "http target port match")', () => {
    const s = bookinfoMesh(
      filter(
        'gw-rc',
        `  workloadSelector: {labels: {istio: ingressgateway}}
  configPatches:
  - applyTo: ROUTE_CONFIGURATION
    match: {context: GATEWAY, routeConfiguration: {portNumber: 80}}
    patch: {operation: MERGE, value: {request_headers_to_remove: [x-internal]}}
  - applyTo: ROUTE_CONFIGURATION
    match: {context: GATEWAY, routeConfiguration: {portNumber: 8080}}
    patch: {operation: MERGE, value: {request_headers_to_remove: [x-never]}}`,
        'istio-system',
      ),
    );
    const t = tableOf(s, ingress(s));
    expect(routeNamed(t, 'http.8080').requestHeadersToRemove).toEqual(['x-internal']);
    expect(t.envoyFilters?.map((r) => r.applied)).toEqual([true, false]);
  });
});

describe('cluster patches (cluster_patch_test.go TestClusterPatching, Test_clusterMatch)', () => {
  it('match by service + subset + port; REMOVE; ADD; INSERT_FIRST on a cluster runs as ADD (model/envoyfilter.go)', () => {
    const s = bookinfoMesh(
      filter(
        'cds',
        `  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {service: reviews.default.svc.cluster.local, subset: v2, portNumber: 9080}}
    patch: {operation: MERGE, value: {lb_policy: RANDOM}}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {name: "outbound|9080|v3|reviews.default.svc.cluster.local"}}
    patch: {operation: REMOVE}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND}
    patch: {operation: INSERT_FIRST, value: {name: new-cluster, type: STATIC, connect_timeout: 1s}}
  - applyTo: CLUSTER
    match: {context: SIDECAR_INBOUND, cluster: {service: productpage.default.svc.cluster.local, portNumber: 9080}}
    patch: {operation: MERGE, value: {per_connection_buffer_limit_bytes: 1024}}`,
      ),
    );
    const t = pp(s);
    expect(clusterNamed(t, 'outbound|9080|v2|reviews.default.svc.cluster.local').lbPolicy).toBe('RANDOM');
    expect(clusterNamed(t, 'outbound|9080|v1|reviews.default.svc.cluster.local').lbPolicy).toBe('LEAST_REQUEST');
    expect(clusterNamed(t, 'outbound|9080|v3|reviews.default.svc.cluster.local')).toBeUndefined();
    expect(clusterNamed(t, 'new-cluster')).toMatchObject({ type: 'STATIC', connectTimeout: '1s' });
    expect(t.envoyFilters?.[2]?.operation).toBe('ADD');
    // "service name match for inbound cluster": inbound clusters match the proxy's service hostnames.
    expect(clusterNamed(t, 'inbound|9080||').perConnectionBufferLimitBytes).toBe(1024);
  });
});

describe('purity (the stage works on copies)', () => {
  it('the translated table is never mutated, and resources no patch touches are shared as they are', async () => {
    const { translateProxy } = await import('../translate/index');
    const { applyEnvoyFilters } = await import('./index');
    const { optionsOf } = await import('../model/mesh');
    const s = bookinfoMesh(
      filter(
        'p',
        `  configPatches:
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {service: reviews.default.svc.cluster.local}}
    patch: {operation: MERGE, value: {connect_timeout: 1s}}
  - applyTo: CLUSTER
    patch: {operation: ADD, value: {name: added, type: STATIC}}`,
      ),
    );
    const proxy = sidecar(s, { app: 'productpage' });
    const table = translateProxy(s, proxy, optionsOf(s));
    const before = JSON.stringify(table);
    const out = applyEnvoyFilters(table, proxy, { snapshot: s, rootNamespace: 'istio-system' }).table;
    expect(JSON.stringify(table)).toBe(before);
    const ratings = 'outbound|9080||ratings.default.svc.cluster.local';
    expect(out.clusters.find((c) => c.name === ratings)).toBe(table.clusters.find((c) => c.name === ratings));
    expect(out.clusters.find((c) => c.name === 'outbound|9080||reviews.default.svc.cluster.local')?.connectTimeout).toBe('1s');
    expect(out.clusters.filter((c) => c.name === 'added')).toHaveLength(1);
    expect(out.listeners).toEqual(table.listeners);
  });

  it('virtual hosts: only the ones a patch changes are copied; the translated route config keeps its own (rc_patch.go on copies)', async () => {
    const { translateProxy } = await import('../translate/index');
    const { applyEnvoyFilters } = await import('./index');
    const { optionsOf } = await import('../model/mesh');
    const s = bookinfoMesh(
      filter(
        'vh',
        `  configPatches:
  - applyTo: VIRTUAL_HOST
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "ratings.default.svc.cluster.local:9080"}}}
    patch: {operation: MERGE, value: {response_headers_to_add: [{header: {key: x-vh, value: "1"}}]}}
  - applyTo: HTTP_ROUTE
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "details.default.svc.cluster.local:9080", route: {name: default}}}}
    patch: {operation: MERGE, value: {route: {timeout: 3s}}}`,
      ),
    );
    const proxy = sidecar(s, { app: 'productpage' });
    const table = translateProxy(s, proxy, optionsOf(s));
    const before = JSON.stringify(table);
    const ctx = { snapshot: s, rootNamespace: 'istio-system' };
    const out = applyEnvoyFilters(table, proxy, ctx).table;
    const again = applyEnvoyFilters(table, proxy, ctx).table;
    expect(JSON.stringify(table)).toBe(before);
    expect(JSON.stringify(again)).toBe(JSON.stringify(out));
    const vhs = (t: typeof table) => (t.routes.find((r) => r.name === '9080') as J).virtualHosts as J[];
    const named = (t: typeof table, n: string) => vhs(t).find((v: J) => v.name === n);
    expect(named(out, 'ratings.default.svc.cluster.local:9080').responseHeadersToAdd).toHaveLength(1);
    expect(named(out, 'details.default.svc.cluster.local:9080').routes[0].route.timeout).toBe('3s');
    // Untouched virtual hosts are the translator's objects; the changed ones are copies.
    expect(named(out, 'reviews.default.svc.cluster.local:9080')).toBe(named(table, 'reviews.default.svc.cluster.local:9080'));
    expect(named(out, 'ratings.default.svc.cluster.local:9080')).not.toBe(named(table, 'ratings.default.svc.cluster.local:9080'));
    expect(named(table, 'ratings.default.svc.cluster.local:9080').responseHeadersToAdd).toBeUndefined();
  });

  it('EXTENSION_CONFIG (ECDS) and BOOTSTRAP patches change nothing and say why (extension_configuration_patch.go; bds-removal)', () => {
    const s = bookinfoMesh(
      filter(
        'na',
        `  configPatches:
  - applyTo: EXTENSION_CONFIG
    patch: {operation: ADD, value: {name: my-ext, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua}}}
  - applyTo: BOOTSTRAP
    patch: {operation: MERGE, value: {stats_flush_interval: 5s}}`,
      ),
    );
    const proxy = sidecar(s, { app: 'productpage' });
    const t = tableOf(s, proxy);
    expect(t.envoyFilters?.map((r) => [r.applyTo, r.applied, r.reason?.split(' (')[0]])).toEqual([
      ['EXTENSION_CONFIG', false, 'EXTENSION_CONFIG patches are served over ECDS'],
      ['BOOTSTRAP', false, 'BOOTSTRAP patches are applied by no xDS response'],
    ]);
  });
});
