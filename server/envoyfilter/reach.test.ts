// "The overview lists EnvoyFilters that apply nowhere" (issue #22 §2), on Istio's Bookinfo with an ingress gateway:
// selection as push_context.go EnvoyFilters / ShouldAttachPolicy and the patches as the stage runs them, each
// reason checked against the rule it comes from.
import { describe, expect, it } from 'vitest';
import { envoyFilterReach } from './reach';
import { bookinfoMesh, tableOf } from './testing';

const ef = (ns: string, name: string, spec: string) => `apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: ${name}, namespace: ${ns}}
spec:
${spec}`;

const LUA = `  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_INBOUND
      listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: envoy.filters.http.router}}}}
    patch:
      operation: INSERT_BEFORE
      value: {name: envoy.lua, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.Lua, inline_code: "function envoy_on_request(h) end"}}`;

const mesh = bookinfoMesh(
  [
    // Applies: reviews-v1's inbound chain has a router (Istio's lua sample, samples/… EnvoyFilter docs).
    ef('default', 'lua-reviews', `  workloadSelector: {labels: {app: reviews, version: v1}}\n${LUA}`),
    // Selects nobody: no pod carries app=nope.
    ef('default', 'typo', `  workloadSelector: {labels: {app: nope}}\n${LUA}`),
    // Selects the sidecars (root namespace, no selector) but a GATEWAY context never matches a sidecar, and the
    // ingress gateway has no SIDECAR_INBOUND listener either.
    ef(
      'istio-system',
      'gw-only',
      LUA.replace('SIDECAR_INBOUND', 'GATEWAY').replace(
        'subFilter: {name: envoy.filters.http.router}',
        'subFilter: {name: envoy.filters.http.nope}',
      ),
    ),
    // Namespace without any proxy.
    ef('empty', 'lonely', LUA),
    // targetRefs never touch a sidecar or an Istio gateway (policyattachment.go).
    ef('default', 'refs', `  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: bookinfo-gateway}]\n${LUA}`),
  ].join('\n---\n'),
);
const reports = (p: Parameters<typeof tableOf>[1]) => tableOf(mesh, p).envoyFilters;

describe('envoyFilterReach', () => {
  const byName = new Map(envoyFilterReach(mesh, reports, { rootNamespace: 'istio-system' }).map((r) => [r.name, r]));

  it('a filter that changed one proxy applies somewhere; no reasons', () => {
    expect(byName.get('lua-reviews')).toMatchObject({ selected: 1, applied: 1, why: [] });
  });

  it('a selector that matches no pod: selects no proxy, with the selector reason and how many proxies it passed over', () => {
    const r = byName.get('typo');
    expect(r).toMatchObject({ selected: 0, applied: 0 });
    // Bookinfo has 6 pods in default (details, ratings, reviews v1-3, productpage).
    expect(r?.why).toEqual(['selects no proxy: workloadSelector app=nope does not select this proxy (6 proxies)']);
  });

  it('a root-namespace filter selects every proxy, but its patch matches nothing: the per-patch reasons', () => {
    const r = byName.get('gw-only');
    expect(r?.selected).toBe(7);
    expect(r?.applied).toBe(0);
    expect(r?.why).toEqual([
      'configPatches[0] HTTP_FILTER INSERT_BEFORE: context GATEWAY: this proxy is a sidecar (6 proxies)',
      'configPatches[0] HTTP_FILTER INSERT_BEFORE: no matching element (1 proxy)',
    ]);
  });

  it('a namespace with no proxy: an EnvoyFilter outside the root namespace concerns its own namespace only', () => {
    expect(byName.get('lonely')?.why).toEqual([
      'no Envoy proxy in namespace empty (an EnvoyFilter outside the root namespace istio-system applies to its own namespace only)',
    ]);
  });

  it('targetRefs select no sidecar', () => {
    expect(byName.get('refs')?.why).toEqual([
      'selects no proxy: targetRefs: applies to Gateway API gateways and waypoints only, never to sidecars or Istio gateways (6 proxies)',
    ]);
  });

  it('translates each proxy at most once and stops at the budget, saying the answer is partial', () => {
    let calls = 0;
    const counted = (p: Parameters<typeof tableOf>[1]) => {
      calls++;
      return reports(p);
    };
    const limited = new Map(envoyFilterReach(mesh, counted, { rootNamespace: 'istio-system', limit: 2 }).map((r) => [r.name, r]));
    expect(calls).toBe(2);
    expect(limited.get('gw-only')?.partial).toBe(true);
    expect(limited.get('typo')?.partial).toBeUndefined();
  });
});

describe('GET /api/envoyfilters', () => {
  it('answers every EnvoyFilter once per snapshot; a signed-in viewer sees its namespaces only', async () => {
    const { envoyFilterReachBody } = await import('../api/envoyFilterReach');
    const { SnapshotMemo } = await import('../api/snapshotMemo');
    const { optionsOf } = await import('../model/mesh');
    const memo = new SnapshotMemo();
    const ctx = { snapshot: mesh, options: optionsOf(mesh), memo };
    const all = envoyFilterReachBody(ctx).body;
    expect(all.filters.map((f) => f.name)).toEqual(['lua-reviews', 'typo', 'gw-only', 'lonely', 'refs']);
    envoyFilterReachBody(ctx);
    expect(memo.builds.get('envoyFilterReach')).toBe(1);
    const viewer = { all: false, sees: (ns: string) => ns === 'empty' } as unknown as NonNullable<
      Parameters<typeof envoyFilterReachBody>[0]['viewer']
    >;
    expect(envoyFilterReachBody({ ...ctx, viewer }).body.filters.map((f) => f.name)).toEqual(['lonely']);
  });
});
