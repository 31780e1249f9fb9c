// `meshscope diff` and `meshscope check` (the real CLI entry, in process). The acceptance case of issue #9:
// Bookinfo with virtual-service-all-v1 as the base and virtual-service-reviews-jason-v2-v3 as the draft.
// By Istio's rules (sidecar.go DefaultSidecarScopeForNamespace: with no Sidecar resource every sidecar
// imports every namespace's VirtualServices; a VirtualService without `gateways` binds to `mesh` only):
// all six Bookinfo sidecars have reviews' vhost in their outbound route config `9080` and change; the
// ingress gateway (its Gateway binds only the bookinfo VirtualService to productpage) does not. The draft
// adds the `end-user: jason` header route to v2 before the catch-all, which moves from v1 to v3.
// The golden files were checked against that by hand; UPDATE_GOLDEN=1 rewrites them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { main } from './main';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (f: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, cb) {
        f(String(chunk));
        cb();
      },
    });
  const code = await main(args, { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) });
  const fix = bookinfo();
  return { code, stdout: stdout.replaceAll(fix, '$BOOKINFO'), stderr };
}

const base = ['platform/bookinfo.yaml', 'networking/destination-rule-all.yaml', 'networking/virtual-service-all-v1.yaml'].flatMap((f) => [
  '--config',
  bookinfo(...f.split('/')),
]);
const gateway = [
  '--config',
  join(REPO_ROOT, 'e2e', 'fixtures', 'ingressgateway.yaml'),
  '--config',
  bookinfo('networking', 'bookinfo-gateway.yaml'),
];
const jason = ['--draft', bookinfo('networking', 'virtual-service-reviews-jason-v2-v3.yaml')];
const contracts = ['--contracts', join(REPO_ROOT, 'server', 'cli', 'testdata', 'contracts-jason.yaml')];
const SIDECARS = ['details-v1', 'productpage-v1', 'ratings-v1', 'reviews-v1', 'reviews-v2', 'reviews-v3'];

function golden(name: string, actual: string): void {
  const file = join(REPO_ROOT, 'server', 'cli', 'testdata', name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  expect(existsSync(file), `${file} missing: run UPDATE_GOLDEN=1 and check it`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

interface DiffJson {
  blastRadius: { proxy: string; type: string; types: string[] }[];
  diffs: {
    proxy: string;
    routes: { change: string; virtualHost: string; route: string; weights?: { after?: Record<string, number> } }[];
  }[];
}

describe('meshscope diff', () => {
  it('jason-v2-v3 over all-v1 names exactly the six sidecars and the route added (json golden)', async () => {
    const r = await run(['diff', ...base, ...gateway, ...jason, '-o', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as DiffJson;
    expect(out.blastRadius.map((b) => b.proxy.replace(/-[0-9a-f]{10}-[a-z0-9]{5}\.default$/, ''))).toEqual(SIDECARS);
    expect(out.blastRadius.some((b) => b.type === 'router')).toBe(false);
    // The only route added anywhere is the jason header route to v2, on reviews' vhost `:9080` — and, with the
    // gateway's port-80 Service in the mesh, in route config `80` too: Istio builds each port's route config
    // from the services on that port, a VirtualService host not among them gets a vhost of its own on that
    // port, and a destination without a port takes the listener's (httproute.go
    // buildSidecarOutboundHTTPRouteConfig / virtual_host.go buildSidecarVirtualHostsForVirtualService).
    for (const d of out.diffs) {
      const added = d.routes.filter((x) => x.change === 'added');
      expect(added.map((x) => x.virtualHost).sort()).toEqual([
        'reviews.default.svc.cluster.local:80',
        'reviews.default.svc.cluster.local:9080',
      ]);
      for (const a of added) {
        const port = a.virtualHost.split(':')[1];
        expect(a.route).toBe('prefix /, header end-user exact jason');
        expect(a.weights?.after).toEqual({ [`outbound|${port}|v2|reviews.default.svc.cluster.local`]: 100 });
      }
    }
    golden('diff-bookinfo-jason.json', r.stdout);
  });

  it('text output, one proxy in full (golden), deterministic across runs', async () => {
    const args = ['diff', ...base, ...jason, '--proxy', 'productpage-v1-f7ee9888b3-t6hg7.default'];
    const a = await run(args);
    const b = await run(args);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    golden('diff-bookinfo-jason.txt', a.stdout);
  });

  it('a draft with nothing usable exits 1; an unknown --proxy is a usage error (2)', async () => {
    const bad = join(REPO_ROOT, 'server', 'cli', 'testdata', 'draft-broken.yaml');
    const r = await run(['diff', ...base, '--draft', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^error: .*draft-broken\.yaml:\d+:\d+: YAML: /m);
    expect((await run(['diff', ...base, ...jason, '--proxy', 'nope.default'])).code).toBe(2);
  });
});

describe('meshscope check', () => {
  it('"jason → v2" passes on the jason draft', async () => {
    const r = await run(['check', ...base, ...jason, ...contracts]);
    expect(r.stdout).toContain('PASS  jason → reviews v2');
    expect(r.code).toBe(0);
  });

  it('and fails on the base (all-v1 sends jason to v1), exit 1', async () => {
    const r = await run(['check', ...base, ...contracts]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL {2}jason → reviews v2: expected all traffic to reviews subset v2 .*outbound\|9080\|v1\|reviews/);
  });

  it('a malformed contracts file is a located usage error', async () => {
    const f = join(REPO_ROOT, 'server', 'cli', 'testdata', 'contracts-bad.yaml');
    const r = await run(['check', ...base, '--contracts', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/contracts-bad\.yaml:6:\d+: contracts\[0\]\.request\.port/);
  });
});
