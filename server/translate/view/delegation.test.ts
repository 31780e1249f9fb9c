// Delegate VirtualServices. Expectations follow Istio's rules in model/virtualservice.go
// (MergeHTTPRoutes, mergeHTTPRoute, mergeHTTPMatchRequests, mergeHTTPMatchRequest, hasConflict,
// stringMatchConflict) and model/virtualservice_controller.go:mergeVirtualServices (lookup, exportTo).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { parseText } from '../../sources/file/loadPaths';
import { REPO_ROOT } from '../../testing/paths';
import { translateProxy } from '../index';
import { mergeMatches, mergeRoute, stringMatchConflict } from './delegation';
import { virtualServicesForGateway } from './virtualServices';

describe('stringMatchConflict (virtualservice.go:stringMatchConflict)', () => {
  it.each([
    ['unset root', undefined, { prefix: '/a' }, false],
    ['unset leaf', { prefix: '/a' }, undefined, false],
    ['root prefix /a, leaf prefix /a/b (subset)', { prefix: '/a' }, { prefix: '/a/b' }, false],
    ['root prefix /a/b, leaf prefix /a (wider)', { prefix: '/a/b' }, { prefix: '/a' }, true],
    ['root prefix /a, leaf exact /a/x', { prefix: '/a' }, { exact: '/a/x' }, false],
    ['root prefix /a, leaf exact /b', { prefix: '/a' }, { exact: '/b' }, true],
    ['root exact /a, leaf exact /a', { exact: '/a' }, { exact: '/a' }, false],
    ['root exact /a, leaf exact /b', { exact: '/a' }, { exact: '/b' }, true],
    ['root exact /a, leaf prefix /a', { exact: '/a' }, { prefix: '/a' }, true],
    ['root regex, leaf prefix', { regex: '/a.*' }, { prefix: '/a' }, true],
    ['root prefix, leaf regex', { prefix: '/a' }, { regex: '/a.*' }, true],
  ] as const)('%s → conflict %s', (_n, root, leaf, want) => {
    expect(stringMatchConflict(root, leaf)).toBe(want);
  });
});

describe('mergeHTTPMatchRequests / mergeHTTPRoute', () => {
  it('no root match → delegate matches; no delegate match → root matches', () => {
    expect(mergeMatches([], [{ uri: { prefix: '/x' } }])).toEqual([{ uri: { prefix: '/x' } }]);
    expect(mergeMatches([{ uri: { prefix: '/r' } }], [])).toEqual([{ uri: { prefix: '/r' } }]);
  });

  it('each delegate match is merged with every compatible root match; maps merged, delegate wins per key', () => {
    const out = mergeMatches(
      [
        { name: 'a', uri: { prefix: '/api' }, headers: { x: { exact: '1' } } },
        { name: 'b', uri: { prefix: '/other' } },
      ],
      [{ name: 'v1', uri: { prefix: '/api/v1' }, headers: { y: { exact: '2' } } }],
    );
    // /api/v1 is under /api (root a) but not under /other (root b): one merged match.
    expect(out).toEqual([{ name: 'a-v1', uri: { prefix: '/api/v1' }, headers: { x: { exact: '1' }, y: { exact: '2' } } }]);
  });

  it('a delegate match compatible with no root match makes the whole delegate route conflict', () => {
    expect(mergeMatches([{ uri: { prefix: '/api' } }], [{ uri: { prefix: '/api/v1' } }, { uri: { prefix: '/web' } }])).toBeUndefined();
  });

  it('ignoreUriCase difference and differing ports conflict (hasConflict)', () => {
    expect(mergeMatches([{ uri: { prefix: '/' }, ignoreUriCase: true }], [{ uri: { prefix: '/a' } }])).toBeUndefined();
    expect(mergeMatches([{ port: 80 }], [{ port: 8080 }])).toBeUndefined();
    expect(mergeMatches([{ port: 80 }], [{ uri: { exact: '/x' } }])).toEqual([{ port: 80, uri: { exact: '/x' } }]);
  });

  it('route name <root>-<delegate>; timeout/retries/headers default to the root; the delegate keeps its own', () => {
    const root = { name: 'root', match: [{ uri: { prefix: '/api' } }], delegate: { name: 'd' }, timeout: '5s', retries: { attempts: 1 } };
    const leaf = { name: 'leaf', route: [{ destination: { host: 'a' } }], timeout: '1s' };
    expect(mergeRoute(root, leaf)).toEqual({
      name: 'root-leaf',
      match: [{ uri: { prefix: '/api' } }],
      route: [{ destination: { host: 'a' } }],
      timeout: '1s',
      retries: { attempts: 1 },
    });
    expect(mergeRoute({ match: [{ uri: { prefix: '/api' } }] }, { name: 'leaf', match: [{ uri: { prefix: '/web' } }] })).toBeUndefined();
  });
});

const MESH = `
apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: default}
spec: {selector: {app: reviews}, clusterIP: 10.96.0.20, ports: [{name: http, port: 9080}]}
---
apiVersion: v1
kind: Service
metadata: {name: ratings, namespace: team}
spec: {selector: {app: ratings}, clusterIP: 10.96.0.30, ports: [{name: http, port: 9080}]}
---
apiVersion: v1
kind: Pod
metadata: {name: client, namespace: default, labels: {app: client}}
spec: {containers: [{name: app, image: a}, {name: istio-proxy, image: proxyv2, args: [proxy, sidecar]}]}
status: {podIP: 10.0.0.5, phase: Running, conditions: [{type: Ready, status: "True"}]}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: root, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  hosts: [reviews]
  http:
  - name: api
    match: [{uri: {prefix: /api}}]
    timeout: 3s
    delegate: {name: api, namespace: team}
  - name: hidden
    match: [{uri: {prefix: /hidden}}]
    delegate: {name: private, namespace: team}
  - name: missing
    match: [{uri: {prefix: /missing}}]
    delegate: {name: nope}
  - route: [{destination: {host: reviews}}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: api, namespace: team, creationTimestamp: "2026-01-02T00:00:00Z"}
spec:
  exportTo: [default]
  http:
  - name: v1
    match: [{uri: {prefix: /api/v1}}]
    route: [{destination: {host: ratings}}]
  - name: outside
    match: [{uri: {prefix: /web}}]
    route: [{destination: {host: ratings}}]
  - name: rest
    route: [{destination: {host: reviews.default.svc.cluster.local}}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: private, namespace: team, creationTimestamp: "2026-01-03T00:00:00Z"}
spec:
  exportTo: ["."]
  http:
  - route: [{destination: {host: ratings}}]
`;

describe('delegation end to end on a sidecar (mergeVirtualServices → RDS)', () => {
  const { inputs, errors } = parseText(MESH, 'mesh.yaml');
  const snap = buildSnapshot(inputs, { version: 1, extraErrors: errors });
  const proxy = snap.proxiesById.get('client.default')!;

  it('parses cleanly', () => {
    expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
    expect(proxy).toBeDefined();
  });

  it('delegates are never bound directly; the root comes back with merged routes', () => {
    const vss = virtualServicesForGateway(snap, 'default', 'mesh', DEFAULT_OPTIONS);
    expect(vss.map((v) => v.meta.name)).toEqual(['root']);
    const names = (vss[0]!.spec.http ?? []).map((h) => h.name);
    // api-v1 and api-rest merged; api-outside conflicts (/web not under /api) and is dropped; the unresolvable
    // delegating routes stay as delegate routes, which the route builder skips (Istio drops them).
    expect(names).toEqual(['api-v1', 'api-rest', 'hidden', 'missing', undefined]);
  });

  it('merged routes: matches, the delegate namespace for short names, root timeout; unresolved delegates vanish', () => {
    const table = translateProxy(snap, proxy, DEFAULT_OPTIONS);
    const rc = table.routes.find((r) => r.name === '9080')!;
    const vh = rc.virtualHosts!.find((v) => v.name === 'reviews.default.svc.cluster.local:9080')!;
    expect(vh.routes!.map((r) => [r.name, r.match?.prefix, r.route?.cluster, r.route?.timeout])).toEqual([
      // `ratings` in the delegate resolves in the delegate's namespace (ResolveVirtualServiceShortnames(delegate)).
      ['api-v1', '/api/v1', 'outbound|9080||ratings.team.svc.cluster.local', '3s'],
      // A delegate route without match inherits the root's match (mergeHTTPMatchRequests, delegate empty).
      ['api-rest', '/api', 'outbound|9080||reviews.default.svc.cluster.local', '3s'],
      [undefined, '/', 'outbound|9080||reviews.default.svc.cluster.local', '0s'],
    ]);
    // Route provenance stays the root VirtualService (the merged config keeps the root's metadata).
    expect(vh.routes![0]!.metadata?.filterMetadata?.['istio']).toMatchObject({
      config: '/apis/networking.istio.io/v1/namespaces/default/virtual-service/root',
    });
    const warnings = table.errors.filter((e) => e.path?.endsWith('.delegate')).map((e) => e.path);
    expect(warnings).toEqual(['spec.http[2].delegate', 'spec.http[3].delegate']);
  });

  it('ratings (a delegate destination) gets its cluster', () => {
    const table = translateProxy(snap, proxy, DEFAULT_OPTIONS);
    expect(table.clusters.map((c) => c.name)).toContain('outbound|9080||ratings.team.svc.cluster.local');
  });
});

describe('delegation on a gateway (virtualServicesForGateway merges delegates for routers too)', () => {
  // istio-translation.md §6: Gateway server port 80 resolves to the ingress pod's target port 8080 → RDS
  // http.8080, vhost `<host>:80`; the root VirtualService bound to istio-system/gw has its delegate merged
  // exactly as on sidecars (mergeVirtualServices does not depend on the proxy).
  const ingress = readFileSync(join(REPO_ROOT, 'e2e', 'fixtures', 'ingressgateway.yaml'), 'utf8');
  const extra = `
apiVersion: v1
kind: Service
metadata: {name: users, namespace: team}
spec: {selector: {app: users}, clusterIP: 10.96.7.2, ports: [{name: http, port: 8080}]}
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: shop}
spec: {selector: {app: api}, clusterIP: 10.96.7.1, ports: [{name: http, port: 8080}]}
---
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers: [{port: {number: 80, name: http, protocol: HTTP}, hosts: ["*"]}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: api, namespace: shop, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  hosts: [api.example.com]
  gateways: [istio-system/gw]
  http:
  - name: users
    match: [{uri: {prefix: /v1/users}}]
    delegate: {name: users-routes, namespace: team}
  - name: rest
    route: [{destination: {host: api}}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: users-routes, namespace: team, creationTimestamp: "2026-01-01T00:00:01Z"}
spec:
  http:
  - name: by-id
    match: [{uri: {prefix: /v1/users/id}}]
    route: [{destination: {host: users}}]
  - name: all
    route: [{destination: {host: users}}]
`;
  const inputs = [...parseText(ingress, 'ingress.yaml').inputs, ...parseText(extra, 'extra.yaml').inputs];
  const snap = buildSnapshot(inputs, { version: 1 });
  const router = snap.proxies.find((p) => p.type === 'router')!;

  it('route config http.8080, vhost api.example.com:80: delegate routes in place of the delegating one', () => {
    expect(router).toBeDefined();
    const table = translateProxy(snap, router, DEFAULT_OPTIONS);
    const vh = table.routes.find((r) => r.name === 'http.8080')?.virtualHosts?.find((v) => v.name === 'api.example.com:80');
    expect(vh?.routes?.map((r) => [r.name, r.match?.prefix, r.route?.cluster])).toEqual([
      ['users-by-id', '/v1/users/id', 'outbound|8080||users.team.svc.cluster.local'],
      ['users-all', '/v1/users', 'outbound|8080||users.team.svc.cluster.local'],
      ['rest', '/', 'outbound|8080||api.shop.svc.cluster.local'],
    ]);
  });
});
