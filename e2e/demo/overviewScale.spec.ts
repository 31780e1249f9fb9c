// Scale of the overview graph: a generated mesh of about 1,000 nodes (bench/generateMesh.ts, `scoped`:
// 200 services, 10 per namespace, v1 + v2 Deployments each, one Sidecar per namespace and the ingress
// gateway) served by its own `meshscope serve` (bench/uiServe.ts), from the same build directory as
// scale.spec.ts (`<dist>-scale`) so a rebuild never replaces the chunks of the project servers. Above 300
// services + workloads the overview collapses to namespaces (components/graph/collapse.ts), lays out in a
// Web Worker, and expands one namespace on demand. The overview's default graph type is Kiali's versioned
// app (server/meshGraph/graphType.ts): per namespace 10 services, 10 app boxes around 20 version nodes.
import { expect, test } from '@playwright/test';
import { serveDir, writeSyntheticMesh, type Served } from '../../bench/uiServe';
import { OverviewPage } from '../pages/OverviewPage';

const SERVICES = 200;
const PER_NS = 10;
const NAMESPACES = SERVICES / PER_NS;

test.describe.configure({ mode: 'serial' });
let served: Served | undefined;

test.beforeAll(async () => {
  test.setTimeout(480_000);
  const dir = writeSyntheticMesh(SERVICES, { mesh: { namespaces: NAMESPACES, scoped: true } });
  served = await serveDir(dir, { distDir: `${process.env.MESHSCOPE_DIST_DIR || '.next'}-scale` });
});
test.afterAll(async () => {
  await served?.stop();
});

const laidOut = async (overview: OverviewPage) => expect(overview.graph).toHaveAttribute('data-layout-done', 'true', { timeout: 120_000 });

test('a 1,000-node mesh opens collapsed to namespaces, laid out in a worker; one namespace expands with its members', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  const perProxy = (await (await fetch(`${served!.url}/api/graph`)).json()) as { nodes: unknown[] };
  expect(perProxy.nodes.length).toBeGreaterThanOrEqual(1000);
  const graph = (await (await fetch(`${served!.url}/api/graph?graphType=versionedApp`)).json()) as {
    nodes: Array<{ id: string; kind: string; namespace: string }>;
  };
  const overview = new OverviewPage(page);
  await page.goto(served!.url, { timeout: 120_000 });
  await laidOut(overview);
  await expect(overview.graph).toHaveAttribute('data-layout-where', 'worker');
  // One node per namespace: the generated ns-0…ns-19 and istio-system (the gateway).
  const bar = page.getByTestId('collapse-bar');
  await expect(bar).toBeVisible();
  await expect(page.getByTestId('collapsed-count')).toHaveText(String(NAMESPACES + 1));
  let content = await overview.content();
  expect(content.nodes).toHaveLength(NAMESPACES + 1);
  expect(content.nodes.every((n) => n.kind === 'namespace')).toBe(true);
  // What ns-3 holds, counted from the generator's shape: 10 Services, each with a v1 and a v2 Deployment
  // (app: the service's name, version v1/v2): 10 apps of 2 versions each.
  const ns3 = content.nodes.find((n) => n.id === 'ns:ns-3')!;
  expect(ns3.label).toBe(`ns-3\n${PER_NS} services · ${PER_NS} apps · ${2 * PER_NS} workloads`);
  // The gateway's VirtualService routes (every VirtualService is bound to istio-system/ingress) reach
  // every namespace: one aggregated edge from istio-system to each, counting one merged edge per service
  // (its v1/v2 split is one edge).
  const fromGateway = content.edges.filter((e) => e.source === 'ns:istio-system' && e.kind === 'route');
  expect(fromGateway).toHaveLength(NAMESPACES);
  expect(fromGateway.find((e) => e.target === 'ns:ns-3')!.label).toBe(String(PER_NS));
  await page.screenshot({ path: info.outputPath('overview-collapsed.png') });

  // Expand ns-3 with the control: its services, workloads and proxies appear; the rest stay collapsed.
  await page.getByTestId('expand-namespace').selectOption('ns-3');
  await expect(page).toHaveURL(/[?&]expand=ns-3/);
  const members = graph.nodes.filter((n) => n.namespace === 'ns-3');
  await expect(overview.graph).toHaveAttribute('data-node-count', String(NAMESPACES + members.length));
  await laidOut(overview);
  content = await overview.content();
  expect(
    content.nodes
      .filter((n) => n.id !== 'ns:ns-3' && n.id.includes('ns-3'))
      .map((n) => n.id)
      .sort(),
  ).toEqual(
    members
      .filter((n) => n.kind !== 'namespace')
      .map((n) => n.id)
      .sort(),
  );
  const svc = content.nodes.find((n) => n.kind === 'service' && n.id.startsWith('svc:ns-3/'))!;
  expect(svc.parent).toBe('ns:ns-3');
  // The gateway's route to one expanded service: one edge (v1 and v2 merged), from the collapsed istio-system.
  expect(content.edges.find((e) => e.source === 'ns:istio-system' && e.target === svc.id)!.label).toBe('1');
  await page.screenshot({ path: info.outputPath('overview-expanded.png') });

  // A click on a collapsed namespace expands it too.
  await overview.clickNode('ns:ns-5');
  await expect(page).toHaveURL(/[?&]expand=ns-3(%2C|,)ns-5/);
  await laidOut(overview);
  await expect(page.getByTestId('collapsed-count')).toHaveText(String(NAMESPACES - 1));
  await page.getByTestId('collapse-all').click();
  await expect(overview.graph).toHaveAttribute('data-node-count', String(NAMESPACES + 1));
});

test('expanding every namespace of the per-proxy graph (the largest) lays out all nodes off the main thread while the page keeps answering', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const overview = new OverviewPage(page);
  await page.goto(`${served!.url}/?graphType=proxy`, { timeout: 120_000 });
  await laidOut(overview);
  await page.getByTestId('expand-all').click();
  await expect(page).toHaveURL(/[?&]expand=(\*|%2A)/);
  // While the worker lays out the full graph the page still handles input: the theme toggle switches.
  await expect(page.getByTestId('graph-laying-out')).toBeVisible();
  const toggle = page.getByTestId('theme-toggle');
  const before = (await toggle.textContent()) ?? '';
  await toggle.click();
  await expect(toggle).not.toHaveText(before);
  await laidOut(overview);
  await expect(page.getByTestId('graph-laying-out')).toHaveCount(0);
  await expect(overview.graph).toHaveAttribute('data-layout-where', 'worker');
  const graph = (await (await fetch(`${served!.url}/api/graph?graphType=proxy`)).json()) as { nodes: unknown[] };
  await expect(overview.graph).toHaveAttribute('data-node-count', String(graph.nodes.length));
});
