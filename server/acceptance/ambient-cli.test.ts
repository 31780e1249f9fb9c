// #20's acceptance through the real CLI (bin/meshscope.mjs), as a new user runs it: Istio's Bookinfo
// (../shared/fixtures) in namespace `bookinfo` as a cluster with istio-cni has it (the pod templates carry the
// `ambient.istio.io/redirection: enabled` istio-cni writes), the waypoint `bookinfo/waypoint`
// (server/translate/xds/waypoint/testdata, as `istioctl waypoint apply` creates it) and route-reviews-90-10 as a
// GAMMA HTTPRoute. With `istio.io/use-waypoint: waypoint` on reviews, a request from productpage goes client
// ztunnel → the waypoint (the route's 90/10) → the destination ztunnels (waypoints.go fetchWaypointForService);
// without it the waypoint is bypassed, with the reason, and `analyze --ambient` flags the HTTPRoute (istiod's
// own words for its parent: kube/gateway/conditions.go WaypointErrorMsgMissingLabel).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import type { Finding } from '../analyze/index';
import type { SimResult } from '../simulate/types';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { cliJson, runCli } from './cliRun';
import { rmSync } from 'node:fs';

type Obj = Record<string, any>;

function writeMesh(dir: string, useWaypoint: boolean): string {
  mkdirSync(dir, { recursive: true });
  const docs: Obj[] = [];
  for (const f of ['platform/bookinfo.yaml', 'platform/bookinfo-versions.yaml'])
    for (const d of parseAllDocuments(readFileSync(bookinfo(...f.split('/')), 'utf8'))) {
      const o = d.toJS() as Obj | null;
      if (!o) continue;
      o.metadata = { ...o.metadata, namespace: 'bookinfo' };
      if (o.kind === 'Deployment')
        o.spec.template.metadata.annotations = { ...o.spec.template.metadata.annotations, 'ambient.istio.io/redirection': 'enabled' };
      if (useWaypoint && o.kind === 'Service' && o.metadata.name === 'reviews')
        o.metadata.labels = { ...o.metadata.labels, 'istio.io/use-waypoint': 'waypoint' };
      docs.push(o);
    }
  writeFileSync(join(dir, 'bookinfo-ambient.yaml'), docs.map((d) => stringify(d)).join('---\n'));
  copyFileSync(join(REPO_ROOT, 'server/translate/xds/waypoint/testdata/bookinfo-waypoint.yaml'), join(dir, 'waypoint.yaml'));
  copyFileSync(bookinfo('gateway-api', 'route-reviews-90-10.yaml'), join(dir, 'route-reviews-90-10.yaml'));
  return dir;
}

let root = '';
let bound = '';
let unbound = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'meshscope-ambient-cli-'));
  bound = writeMesh(join(root, 'bound'), true);
  unbound = writeMesh(join(root, 'unbound'), false);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const productpage = (dir: string): string => {
  const z = cliJson<{ workloads: { name: string; namespace: string }[] }>([
    'ztunnel-config',
    '--ambient',
    '--config',
    dir,
    '-n',
    'bookinfo',
    'workloads',
    '-o',
    'json',
  ]);
  const w = z.workloads.find((x) => x.name.startsWith('productpage-v1-'))!;
  return `${w.name}.${w.namespace}`;
};
const simulate = (dir: string): SimResult =>
  cliJson<SimResult>([
    'simulate',
    '--ambient',
    '--config',
    dir,
    '-n',
    'bookinfo',
    '--proxy',
    productpage(dir),
    '--mode',
    'outbound',
    '--host',
    'reviews:9080',
    '--port',
    '9080',
    '--path',
    '/reviews/0',
  ]);

describe('ambient Bookinfo through the CLI', () => {
  it('with use-waypoint: simulate from productpage shows ztunnel → waypoint → 90/10, and analyze --ambient finds nothing', () => {
    const r = simulate(bound);
    expect(r.ambient?.waypoint).toEqual({ used: true, name: 'bookinfo/waypoint' });
    expect(r.ambient?.hops.map((h) => `${h.hop}${h.role ? `/${h.role}` : ''}`)).toEqual([
      'ztunnel/client',
      'waypoint',
      'ztunnel/server',
      'ztunnel/server',
    ]);
    expect(r.weightedClusters).toEqual({
      'outbound|9080||reviews-v1.bookinfo.svc.cluster.local': 90,
      'outbound|9080||reviews-v2.bookinfo.svc.cluster.local': 10,
    });
    const a = runCli(['analyze', '--ambient', '--config', bound, '-n', 'bookinfo']);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe('No validation issues found.\n');
  });

  it('without use-waypoint: the bypass and its reason; analyze --ambient flags the HTTPRoute; analyze without --ambient does not', () => {
    const r = simulate(unbound);
    expect(r.ambient?.waypoint).toEqual({
      used: false,
      reason: 'NoUseWaypoint',
      message: 'no istio.io/use-waypoint label on Service bookinfo/reviews or on namespace bookinfo',
    });
    expect(r.ambient?.hops.map((h) => h.hop)).toEqual(['ztunnel', 'ztunnel', 'ztunnel', 'ztunnel']);
    expect(r.weightedClusters).toBeUndefined();

    const findings = cliJson<Finding[]>(['analyze', '--ambient', '--config', unbound, '-n', 'bookinfo', '-o', 'json']);
    expect(findings).toEqual([
      {
        code: 'MSC0203',
        level: 'Warning',
        object: 'HTTPRoute bookinfo/reviews',
        path: 'spec.parentRefs[0]',
        message:
          'this HTTPRoute has no effect on requests from ambient clients to Service bookinfo/reviews: the service has no waypoint (istio.io/use-waypoint label missing from parent and parent namespace; in ambient mode, route will not be respected), and ztunnel applies only L4 policy; only sidecars and gateways apply it',
        // line 7: the `- group: ""` parentRef in Istio's file.
        origin: { source: 'file', file: join(unbound, 'route-reviews-90-10.yaml'), doc: 0, line: 7 },
      },
    ]);
    const plain = cliJson<Finding[]>(['analyze', '--config', unbound, '-n', 'bookinfo', '-o', 'json']);
    expect(plain.filter((f) => f.code.startsWith('MSC02'))).toEqual([]);
  });
});
