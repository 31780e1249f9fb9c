// Issue 13 acceptance, in the CLI as a user runs it: Istio's Bookinfo + an AuthorizationPolicy allowing only
// productpage's identity (cluster.local/ns/default/sa/bookinfo-productpage) to GET /reviews/* on reviews.
// Expected per Envoy's RBAC engine (source/common/rbac/engine_impl.cc: ALLOW denies what no policy matches)
// and istiod's builder (pilot/pkg/security/authz/builder: policy name ns[NS]-policy[NAME]-rule[i]).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, bookinfo } from '../testing/paths';
import { cliJson } from './cliRun';

const POLICY = join(REPO_ROOT, 'server', 'acceptance', 'testdata', 'authz-reviews.yaml');
const CONFIG = ['--config', bookinfo('platform', 'bookinfo.yaml'), '--config', POLICY];

interface Proxy {
  id: string;
  labels: Record<string, string>;
}
interface Result {
  filterChain?: string;
  cluster?: string;
  authorization?: { decision: string; policy?: string; rule?: number; reason?: string };
  rejected: { hop: string; name: string; reason: string }[];
  error?: string;
}

describe('meshscope simulate: AuthorizationPolicy default/reviews-viewer on Bookinfo reviews', () => {
  const proxies = cliJson<Proxy[]>(['proxies', ...CONFIG, '-o', 'json']);
  const reviews = proxies.find((p) => p.labels.app === 'reviews')?.id ?? 'missing';
  const sim = (...extra: string[]) =>
    cliJson<Result>(['simulate', ...CONFIG, '--proxy', reviews, '--mode', 'inbound', '--port', '9080', ...extra]);

  it('translate: the inbound HTTP chain carries envoy.filters.http.rbac with the policy rule, before the router', () => {
    const dump = cliJson<{ configs: { dynamic_listeners: { name: string; active_state: { listener: unknown } }[] }[] }>([
      'translate',
      ...CONFIG,
      '--proxy',
      reviews,
      '--type',
      'listeners',
    ]);
    const inbound = dump.configs[0]?.dynamic_listeners.find((l) => l.name === 'virtualInbound')?.active_state.listener as {
      filter_chains: {
        name: string;
        filters: { name: string; typed_config: { http_filters?: { name: string; typed_config: unknown }[] } }[];
      }[];
    };
    const chain = inbound.filter_chains.find((c) => c.name === '0.0.0.0_9080');
    const hcm = chain?.filters.find((f) => f.name === 'envoy.filters.network.http_connection_manager');
    const filters = hcm?.typed_config.http_filters ?? [];
    // Istio's inbound HTTP chain (pilot/pkg/networking/core/listener_builder.go buildInboundHTTPFilters):
    // metadata exchange, then authn/authz (RBAC), then grpc_stats, fault, cors, stats, and the router last.
    expect(filters.map((f) => f.name)).toEqual([
      'istio.metadata_exchange',
      'envoy.filters.http.rbac',
      'envoy.filters.http.grpc_stats',
      'envoy.filters.http.fault',
      'envoy.filters.http.cors',
      'istio.stats',
      'envoy.filters.http.router',
    ]);
    const rbac = filters.find((f) => f.name === 'envoy.filters.http.rbac');
    expect(Object.keys((rbac?.typed_config as { rules: { policies: object } }).rules.policies)).toEqual([
      'ns[default]-policy[reviews-viewer]-rule[0]',
    ]);
  });

  it("productpage's identity, GET /reviews/1 → allowed by default/reviews-viewer rule 0, routed to inbound|9080||", () => {
    const r = sim('--path', '/reviews/1', '--source-principal', 'spiffe://cluster.local/ns/default/sa/bookinfo-productpage');
    expect(r.error).toBeUndefined();
    expect(r.authorization).toEqual({ decision: 'allow', policy: 'default/reviews-viewer', rule: 0 });
    expect(r.cluster).toBe('inbound|9080||');
  });

  it("ratings' identity → RBAC: access denied, naming default/reviews-viewer and why its rule did not match", () => {
    const r = sim('--path', '/reviews/1', '--source-principal', 'cluster.local/ns/default/sa/bookinfo-ratings');
    expect(r.error).toBe('RBAC: access denied');
    expect(r.authorization).toMatchObject({ decision: 'deny', policy: 'default/reviews-viewer' });
    expect(r.cluster).toBeUndefined();
    const rej = r.rejected.find((x) => x.hop === 'authorization');
    expect(rej?.name).toBe('ns[default]-policy[reviews-viewer]-rule[0]');
    expect(rej?.reason).toContain('spiffe://cluster.local/ns/default/sa/bookinfo-ratings does not match');
  });

  it("productpage's identity with POST, or GET outside /reviews/ → denied (methods and paths are ANDed)", () => {
    const pp = ['--source-principal', 'cluster.local/ns/default/sa/bookinfo-productpage'];
    expect(sim('--path', '/reviews/1', '--method', 'POST', ...pp).error).toBe('RBAC: access denied');
    expect(sim('--path', '/health', ...pp).error).toBe('RBAC: access denied');
  });

  it('no identity at all → denied: an ALLOW policy with a principal never matches an unauthenticated peer', () => {
    const r = sim('--path', '/reviews/1');
    expect(r.error).toBe('RBAC: access denied');
    expect(r.rejected.find((x) => x.hop === 'authorization')?.reason).toContain('no peer identity');
  });
});
