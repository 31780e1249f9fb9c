// The real-world EnvoyFilters of issue #22, on meshscope-generated Bookinfo (Istio's manifests as they are) plus an
// ingress gateway: each applies where istiod applies it and nowhere else. Each case cites the Istio sample, doc or
// test it mirrors; the semantics are those of pilot/pkg/networking/core/envoyfilter/*.go and pkg/proto/merge.
import { describe, expect, it } from 'vitest';
import { encodeTable } from '../pipeline/encodeTable';
import { bookinfoMesh, clusterNamed, hcms, httpFilterNames, ingress, type J, listenerNamed, routeNamed, sidecar, tableOf } from './testing';

const REVIEWS = 'outbound|9080|v1|reviews.default.svc.cluster.local';

describe('real-world EnvoyFilters on Bookinfo', () => {
  it('Lua before the router on one workload (istio.io "EnvoyFilter" reference example reviews-lua; listener_patch.go INSERT_BEFORE subFilter)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: reviews-lua, namespace: default}
spec:
  workloadSelector: {labels: {app: reviews, version: v1}}
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener:
        portNumber: 9080
        filterChain:
          filter:
            name: envoy.filters.network.http_connection_manager
            subFilter: {name: envoy.filters.http.router}
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.lua
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua
          inlineCode: |
            function envoy_on_request(request_handle) request_handle:headers():add("x-lua", "1") end
`);
    const v1 = tableOf(s, sidecar(s, { app: 'reviews', version: 'v1' }));
    const inbound = hcms(listenerNamed(v1, 'virtualInbound'));
    // Every inbound HCM of virtualInbound is on port 9080's chains or the passthrough ones: only the 9080 ones change.
    const port9080 = listenerNamed(v1, 'virtualInbound').filterChains.filter((c: J) => c.filterChainMatch?.destinationPort === 9080);
    for (const fc of port9080) {
      const names = httpFilterNames(fc.filters.at(-1).typedConfig);
      expect(names.slice(-3)).toEqual(['istio.stats', 'envoy.lua', 'envoy.filters.http.router']);
    }
    expect(inbound.filter((h: J) => httpFilterNames(h).includes('envoy.lua'))).toHaveLength(port9080.length);
    const report = v1.envoyFilters?.[0];
    expect(report).toMatchObject({
      namespace: 'default',
      name: 'reviews-lua',
      patch: 0,
      applyTo: 'HTTP_FILTER',
      operation: 'INSERT_BEFORE',
      applied: true,
    });
    expect(report?.targets[0]).toMatch(
      /^listener virtualInbound \/ chain 0\.0\.0\.0_9080 \/ filters\[1\] envoy\.filters\.network\.http_connection_manager/,
    );
    // Outbound chains are SIDECAR_OUTBOUND: untouched.
    expect(hcms(listenerNamed(v1, '0.0.0.0_9080')).every((h: J) => !httpFilterNames(h).includes('envoy.lua'))).toBe(true);
    // Not selected: reviews-v2 (selector), reported with the reason.
    const v2 = tableOf(s, sidecar(s, { app: 'reviews', version: 'v2' }));
    expect(hcms(listenerNamed(v2, 'virtualInbound')).some((h: J) => httpFilterNames(h).includes('envoy.lua'))).toBe(false);
    expect(v2.envoyFilters?.[0]).toMatchObject({ applied: false, reason: 'workloadSelector version=v1 does not select this proxy' });
    // The Lua Any is outside the generated registry: the full Envoy API encodes it.
    const enc = encodeTable(sidecar(s, { app: 'reviews', version: 'v1' }), 1, v1);
    expect(enc.errors).toEqual([]);
    expect(JSON.stringify(enc.listeners.find((l) => l.name === 'virtualInbound')?.json)).toContain(
      '"@type":"type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua"',
    );
  });

  it('local rate limit as a TypedStruct plus a per-route MERGE (istio.io "Enabling Rate Limits using Envoy", local rate limit)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: filter-local-ratelimit-svc, namespace: default}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager}}}
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.filters.http.local_ratelimit
        typed_config:
          "@type": type.googleapis.com/udpa.type.v1.TypedStruct
          type_url: type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit
          value: {stat_prefix: http_local_rate_limiter}
  - applyTo: HTTP_ROUTE
    match:
      context: SIDECAR_INBOUND
      routeConfiguration: {vhost: {name: "inbound|http|9080", route: {action: ANY}}}
    patch:
      operation: MERGE
      value:
        typed_per_filter_config:
          envoy.filters.http.local_ratelimit:
            "@type": type.googleapis.com/udpa.type.v1.TypedStruct
            type_url: type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit
            value:
              stat_prefix: http_local_rate_limiter
              token_bucket: {max_tokens: 10, tokens_per_fill: 10, fill_interval: 60s}
`);
    const t = tableOf(s, sidecar(s, { app: 'productpage' }));
    const chain = listenerNamed(t, 'virtualInbound').filterChains.find((c: J) => c.filterChainMatch?.destinationPort === 9080);
    const hcm = chain.filters.at(-1).typedConfig;
    // No subFilter: INSERT_BEFORE without a match inserts first (listener_patch.go patchHTTPFilters).
    expect(httpFilterNames(hcm)[0]).toBe('envoy.filters.http.local_ratelimit');
    const route = hcm.routeConfig.virtualHosts.find((v: J) => v.name === 'inbound|http|9080').routes[0];
    expect(route.typedPerFilterConfig['envoy.filters.http.local_ratelimit']).toMatchObject({
      '@type': 'type.googleapis.com/udpa.type.v1.TypedStruct',
      value: { token_bucket: { max_tokens: 10 } },
    });
    expect(route.route.cluster).toBe('inbound|9080||');
    expect(t.envoyFilters?.map((r) => r.applied)).toEqual([true, true]);
    expect(encodeTable(sidecar(s, { app: 'productpage' }), 1, t).errors).toEqual([]);
  });

  it('global rate limit at the gateway: HTTP filter, its cluster (ADD) and vhost rate_limits (istio.io global rate limit task; rc_patch.go, cluster_patch.go InsertedClusters)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: filter-ratelimit, namespace: istio-system}
spec:
  workloadSelector: {labels: {istio: ingressgateway}}
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: GATEWAY
      listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: envoy.filters.http.router}}}}
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.filters.http.ratelimit
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.ratelimit.v3.RateLimit
          domain: ratelimit
          failure_mode_deny: true
          timeout: 10s
          rate_limit_service:
            grpc_service: {envoy_grpc: {cluster_name: outbound|8081||ratelimit.default.svc.cluster.local, authority: ratelimit.default.svc.cluster.local}}
            transport_api_version: V3
  - applyTo: CLUSTER
    match: {context: GATEWAY}
    patch:
      operation: ADD
      value:
        name: rate_limit_cluster
        type: STRICT_DNS
        connect_timeout: 10s
        lb_policy: ROUND_ROBIN
        http2_protocol_options: {}
        load_assignment:
          cluster_name: rate_limit_cluster
          endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: ratelimit.default.svc.cluster.local, port_value: 8081}}}}]}]
  - applyTo: VIRTUAL_HOST
    match:
      context: GATEWAY
      routeConfiguration: {vhost: {name: "*:8080", route: {action: ANY}}}
    patch:
      operation: MERGE
      value:
        rate_limits:
        - actions: [{request_headers: {header_name: ":path", descriptor_key: PATH}}]
`);
    const gw = ingress(s);
    const t = tableOf(s, gw);
    expect(httpFilterNames(hcms(listenerNamed(t, '0.0.0.0_8080'))[0]).slice(-2)).toEqual([
      'envoy.filters.http.ratelimit',
      'envoy.filters.http.router',
    ]);
    expect(clusterNamed(t, 'rate_limit_cluster')).toMatchObject({ type: 'STRICT_DNS', connectTimeout: '10s' });
    const vh = routeNamed(t, 'http.8080').virtualHosts.find((v: J) => v.name === '*:8080');
    expect(vh.rateLimits).toEqual([{ actions: [{ requestHeaders: { headerName: ':path', descriptorKey: 'PATH' } }] }]);
    expect(t.envoyFilters?.every((r) => r.applied)).toBe(true);
    expect(encodeTable(gw, 1, t).errors).toEqual([]);
    // A sidecar: istio-system is the root namespace, so the filter is a candidate, but its selector does not pick it.
    const pp = tableOf(s, sidecar(s, { app: 'productpage' }));
    expect(pp.envoyFilters?.map((r) => [r.applied, r.reason])).toEqual(
      Array(3).fill([false, 'workloadSelector istio=ingressgateway does not select this proxy']),
    );
    expect(clusterNamed(pp, 'rate_limit_cluster')).toBeUndefined();
  });

  it('ext_authz before the router on the gateway (Envoy ext_authz filter; HTTP_FILTER INSERT_BEFORE)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: ext-authz, namespace: istio-system}
spec:
  workloadSelector: {labels: {istio: ingressgateway}}
  configPatches:
  - applyTo: HTTP_FILTER
    match: {context: GATEWAY, listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: envoy.filters.http.router}}}}}
    patch:
      operation: INSERT_BEFORE
      value:
        name: envoy.filters.http.ext_authz
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz
          transport_api_version: V3
          grpc_service: {envoy_grpc: {cluster_name: outbound|9000||authz.default.svc.cluster.local}, timeout: 0.5s}
`);
    const t = tableOf(s, ingress(s));
    const hcm = hcms(listenerNamed(t, '0.0.0.0_8080'))[0];
    const f = hcm.httpFilters.find((x: J) => x.name === 'envoy.filters.http.ext_authz');
    expect(f.typedConfig.grpcService).toEqual({
      envoyGrpc: { clusterName: 'outbound|9000||authz.default.svc.cluster.local' },
      timeout: '0.500s',
    });
    expect(httpFilterNames(hcm).indexOf('envoy.filters.http.ext_authz')).toBe(httpFilterNames(hcm).length - 2);
  });

  it('gateway connection-manager MERGE: use_remote_address and xff_num_trusted_hops (NETWORK_FILTER MERGE, util.MergeAnyWithAny)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: xff-trust-hops, namespace: istio-system}
spec:
  workloadSelector: {labels: {istio: ingressgateway}}
  configPatches:
  - applyTo: NETWORK_FILTER
    match: {context: GATEWAY, listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager}}}}
    patch:
      operation: MERGE
      value:
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          use_remote_address: true
          xff_num_trusted_hops: 2
`);
    const before = hcms(listenerNamed(tableOf(bookinfoMesh(), ingress(s)), '0.0.0.0_8080'))[0];
    const hcm = hcms(listenerNamed(tableOf(s, ingress(s)), '0.0.0.0_8080'))[0];
    expect(hcm.xffNumTrustedHops).toBe(2);
    expect(hcm.useRemoteAddress).toBe(true);
    // Everything else kept: the merge adds, it does not replace (the HTTP filters are not duplicated either).
    expect({ ...hcm, xffNumTrustedHops: undefined }).toEqual({ ...before, xffNumTrustedHops: undefined });
  });

  it('proxy_protocol listener filter INSERT_FIRST on a gateway (LISTENER_FILTER, listener_patch.go patchListenerFilters)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: proxy-protocol, namespace: istio-system}
spec:
  workloadSelector: {labels: {istio: ingressgateway}}
  configPatches:
  - applyTo: LISTENER_FILTER
    match: {context: GATEWAY}
    patch:
      operation: INSERT_FIRST
      value:
        name: proxy_protocol
        typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol}
`);
    const t = tableOf(s, ingress(s));
    expect(listenerNamed(t, '0.0.0.0_8080').listenerFilters.map((f: J) => f.name)).toEqual(['proxy_protocol']);
    expect(t.envoyFilters?.[0]).toMatchObject({ applied: true, targets: ['listener 0.0.0.0_8080 / listener_filters'] });
    expect(encodeTable(ingress(s), 1, t).errors).toEqual([]);
  });

  it('response-header MERGE on one virtual host (VIRTUAL_HOST MERGE, rc_patch.go virtualHostMatch by name)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: reviews-headers, namespace: default}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: VIRTUAL_HOST
    match: {context: SIDECAR_OUTBOUND, routeConfiguration: {vhost: {name: "reviews.default.svc.cluster.local:9080"}}}
    patch:
      operation: MERGE
      value:
        response_headers_to_add: [{header: {key: x-served-by, value: reviews}}]
`);
    const t = tableOf(s, sidecar(s, { app: 'productpage' }));
    const vhosts = routeNamed(t, '9080').virtualHosts;
    const reviews = vhosts.find((v: J) => v.name === 'reviews.default.svc.cluster.local:9080');
    expect(reviews.responseHeadersToAdd).toEqual([{ header: { key: 'x-served-by', value: 'reviews' } }]);
    expect(vhosts.filter((v: J) => v.responseHeadersToAdd)).toHaveLength(1);
    expect(t.envoyFilters?.[0]?.targets).toEqual(['route 9080 / vhost reviews.default.svc.cluster.local:9080']);
  });

  it('TCP keepalive on a cluster, and connect_timeout 0.5s merged into 10s gives 0.5s (cluster_patch_test.go; pkg/proto/merge replaces a Duration whole)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: reviews-cluster, namespace: default}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, cluster: {service: reviews.default.svc.cluster.local}}
    patch:
      operation: MERGE
      value:
        connect_timeout: 0.5s
        upstream_connection_options: {tcp_keepalive: {keepalive_time: 300, keepalive_interval: 30}}
`);
    const base = tableOf(bookinfoMesh(), sidecar(s, { app: 'productpage' }));
    expect(clusterNamed(base, REVIEWS).connectTimeout).toBe('10s');
    const t = tableOf(s, sidecar(s, { app: 'productpage' }));
    for (const c of t.clusters.filter((x) => x.name?.endsWith('|reviews.default.svc.cluster.local'))) {
      expect(c.connectTimeout).toBe('0.500s');
      expect(c.upstreamConnectionOptions).toEqual({ tcpKeepalive: { keepaliveTime: 300, keepaliveInterval: 30 } });
    }
    expect(clusterNamed(t, 'outbound|9080||ratings.default.svc.cluster.local').connectTimeout).toBe('10s');
    expect(t.envoyFilters?.[0]?.targets.length).toBe(4); // reviews, reviews v1, v2, v3
  });

  it('an access log merged into tcp_proxy once, however often the proxy is translated (envoyfilter listener_patch_test.go TestAccessLogPatch)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: tcp-access-log, namespace: istio-system}
spec:
  configPatches:
  - applyTo: NETWORK_FILTER
    match: {context: SIDECAR_OUTBOUND, listener: {filterChain: {filter: {name: envoy.filters.network.tcp_proxy}}}}
    patch:
      operation: MERGE
      value:
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy
          access_log:
          - name: envoy.access_loggers.file
            typed_config: {"@type": type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog, path: /dev/stdout}
`);
    const p = sidecar(s, { app: 'productpage' });
    for (let i = 0; i < 3; i++) {
      const vo = listenerNamed(tableOf(s, p), 'virtualOutbound');
      for (const fc of vo.filterChains) expect(fc.filters.at(-1).typedConfig.accessLog).toHaveLength(1);
    }
    // istio-system is the root namespace: a root EnvoyFilter without selector applies to every proxy.
    expect(tableOf(s, ingress(s)).envoyFilters?.[0]).toMatchObject({
      applied: false,
      reason: 'context SIDECAR_OUTBOUND: this proxy is a gateway',
    });
  });

  it('a proxyVersion that does not match does nothing; an unknown version never matches (model/envoyfilter.go proxyMatch)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: old-proxies, namespace: default}
spec:
  configPatches:
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, proxy: {proxyVersion: '^1\\.9.*'}}
    patch: {operation: MERGE, value: {connect_timeout: 1s}}
  - applyTo: CLUSTER
    match: {context: SIDECAR_OUTBOUND, proxy: {proxyVersion: '^1\\.2[0-9].*'}}
    patch: {operation: MERGE, value: {connect_timeout: 2s}}
`);
    const p = { ...sidecar(s, { app: 'productpage' }), metadata: { ISTIO_VERSION: '1.22.3' } };
    const t = tableOf(s, p);
    expect(clusterNamed(t, REVIEWS).connectTimeout).toBe('2s');
    expect(t.envoyFilters?.[0]).toMatchObject({ applied: false, reason: 'proxyVersion ^1\\.9.*: proxy version 1.22.3 does not match' });
    const unknown = tableOf(s, sidecar(s, { app: 'productpage' }));
    expect(clusterNamed(unknown, REVIEWS).connectTimeout).toBe('10s');
    expect(unknown.envoyFilters?.map((r) => r.reason?.includes('proxy version unknown'))).toEqual([true, true]);
  });

  it('a targetRefs EnvoyFilter never touches a sidecar or an Istio gateway (policyattachment.go ShouldAttachPolicy)', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: gw-only, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: bookinfo-gateway}]
  configPatches:
  - applyTo: CLUSTER
    patch: {operation: MERGE, value: {connect_timeout: 3s}}
`);
    const t = tableOf(s, sidecar(s, { app: 'productpage' }));
    expect(clusterNamed(t, REVIEWS).connectTimeout).toBe('10s');
    expect(t.envoyFilters?.[0]?.reason).toMatch(/^targetRefs: applies to Gateway API gateways and waypoints only/);
  });

  it('a value that does not decode drops that patch with a located error, the others still apply', () => {
    const s = bookinfoMesh(`
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: bad-value, namespace: default}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: CLUSTER
    patch: {operation: MERGE, value: {connect_timeout: soon}}
  - applyTo: CLUSTER
    patch: {operation: MERGE, value: {connect_timeout: 4s}}
`);
    const t = tableOf(s, sidecar(s, { app: 'productpage' }));
    expect(clusterNamed(t, REVIEWS).connectTimeout).toBe('4s');
    expect(t.envoyFilters?.[0]).toMatchObject({ applied: false });
    expect(t.envoyFilters?.[0]?.reason).toMatch(/^decode error: envoy\.config\.cluster\.v3\.Cluster: /);
    expect(t.errors.find((e) => e.object === 'EnvoyFilter default/bad-value')).toMatchObject({
      path: 'spec.configPatches[0].patch.value',
      file: 'test.yaml',
    });
  });
});
