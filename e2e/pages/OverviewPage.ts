import { expect, type Locator, type Page } from '@playwright/test';

/** What the page's cytoscape instance (window.__cy) holds, read in the browser. */
export interface GraphContent {
  nodes: Array<{ id: string; kind: string; label: string; parent?: string }>;
  edges: Array<{ id: string; kind: string; source: string; target: string; label: string; full: string; width: number }>;
}

interface CyLike {
  nodes(): { map<T>(f: (n: { data(): Record<string, unknown> }) => T): T[] };
  edges(): { map<T>(f: (n: { data(): Record<string, unknown> }) => T): T[] };
  getElementById(id: string): { renderedPosition(): { x: number; y: number }; empty(): boolean };
}

export class OverviewPage {
  readonly graph: Locator;
  readonly counts: Locator;
  readonly sources: Locator;
  readonly routes: Locator;

  constructor(readonly page: Page) {
    this.graph = page.getByTestId('mesh-graph');
    this.counts = page.getByTestId('counts');
    this.sources = page.getByTestId('sources');
    this.routes = page.getByTestId('routes-list');
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/${query ? `?${query}` : ''}`);
    await this.waitForLayout();
  }

  /** The graph is laid out (dagre ran and `layoutstop` fired). */
  async waitForLayout(): Promise<void> {
    await expect(this.graph).toHaveAttribute('data-layout-done', 'true', { timeout: 20_000 });
  }

  /**
   * The graph's nodes and edges, read in one step once an instance exists: a new set of elements replaces the
   * instance, and between the old one's destroy and the new one's layout `window.__cy` is unset.
   */
  async content(): Promise<GraphContent> {
    const handle = await this.page.waitForFunction(() => {
      const cy = (window as unknown as { __cy?: CyLike }).__cy;
      if (!cy) return undefined;
      return {
        nodes: cy.nodes().map((n) => n.data() as GraphContent['nodes'][number]),
        edges: cy.edges().map((e) => e.data() as GraphContent['edges'][number]),
      };
    });
    return (await handle.jsonValue()) as GraphContent;
  }

  /** Nodes currently marked as recently changed (class `changed`); 0 while no instance is drawn. */
  async changedNodeCount(): Promise<number> {
    return this.page.evaluate(
      () => (window as unknown as { __cy?: { nodes(sel: string): { length: number } } }).__cy?.nodes('.changed').length ?? 0,
    );
  }

  nsChip(ns: string): Locator {
    return this.page.getByTestId('ns-filter').locator(`button[data-ns="${ns}"]`);
  }

  kindChip(kind: string): Locator {
    return this.page.getByTestId('kind-filter').locator(`button[data-kind="${kind}"]`);
  }

  /**
   * How the drawn graph sits in its frame: the share of the canvas width and height its elements cover, and
   * the smallest node label size on screen (stylesheet font size × zoom), in px.
   */
  async readability(): Promise<{ fillWidth: number; fillHeight: number; smallestLabelPx: number }> {
    return this.page.evaluate(() => {
      type N = { style(p: string): string; isParent(): boolean };
      const cy = (
        window as unknown as {
          __cy: {
            zoom(): number;
            width(): number;
            height(): number;
            elements(): { renderedBoundingBox(): { w: number; h: number } };
            nodes(): { filter(f: (n: N) => boolean): { map<T>(f: (n: N) => T): T[] } };
          };
        }
      ).__cy;
      const box = cy.elements().renderedBoundingBox();
      const sizes = cy
        .nodes()
        .filter((n) => !n.isParent())
        .map((n) => Number.parseFloat(n.style('font-size')));
      return {
        fillWidth: box.w / cy.width(),
        fillHeight: box.h / cy.height(),
        smallestLabelPx: Math.min(...sizes) * cy.zoom(),
      };
    });
  }

  /** Clicks a node where cytoscape drew it. */
  async clickNode(id: string): Promise<void> {
    // A mouse click at page coordinates does not scroll: bring the canvas into view first.
    await this.graph.scrollIntoViewIfNeeded();
    const pos = await this.page.evaluate((nodeId) => {
      const cy = (window as unknown as { __cy: CyLike }).__cy;
      const n = cy.getElementById(nodeId);
      return n.empty() ? undefined : n.renderedPosition();
    }, id);
    if (!pos) throw new Error(`no node ${id} in the graph`);
    const box = await this.graph.boundingBox();
    if (!box) throw new Error('graph not visible');
    await this.page.mouse.click(box.x + pos.x, box.y + pos.y);
  }
}

/**
 * The overview's node counts derived from the YAML inputs themselves (not from the page): one node per
 * namespace holding a Service or workload, per Service, per workload (Deployment/StatefulSet/ReplicaSet or
 * bare Pod) and per pod (Σ replicas, default 1). Objects without a namespace land in `default`.
 */
export function countsFromInputs(
  texts: readonly string[],
  parseAll: (text: string) => unknown[],
): { namespaces: number; services: number; workloads: number; pods: number; proxies: number; total: number } {
  const ns = new Set<string>();
  let services = 0;
  let workloads = 0;
  let pods = 0;
  // Pods istio-cni enrolled in ambient (its annotation, no sidecar) run no proxy: every other pod of these inputs does.
  let ambient = 0;
  const enrolled = (a: Record<string, string> | undefined) => a?.['ambient.istio.io/redirection'] === 'enabled';
  for (const text of texts) {
    for (const doc of parseAll(text)) {
      const o = doc as {
        kind?: string;
        metadata?: { namespace?: string; annotations?: Record<string, string> };
        spec?: { replicas?: number; template?: { metadata?: { annotations?: Record<string, string> } } };
      } | null;
      if (!o || typeof o !== 'object') continue;
      const namespace = o.metadata?.namespace ?? 'default';
      if (o.kind === 'Service') {
        services++;
        ns.add(namespace);
      } else if (o.kind === 'Deployment' || o.kind === 'StatefulSet' || o.kind === 'ReplicaSet') {
        workloads++;
        pods += o.spec?.replicas ?? 1;
        if (enrolled(o.spec?.template?.metadata?.annotations)) ambient += o.spec?.replicas ?? 1;
        ns.add(namespace);
      } else if (o.kind === 'Pod') {
        workloads++;
        pods++;
        if (enrolled(o.metadata?.annotations)) ambient++;
        ns.add(namespace);
      }
    }
  }
  return { namespaces: ns.size, services, workloads, pods, proxies: pods - ambient, total: ns.size + services + workloads + pods };
}

/** A workload of the YAML inputs with Istio's canonical app and version of its pod template (kubelabels.CanonicalService). */
export interface InputWorkload {
  namespace: string;
  kind: string;
  name: string;
  replicas: number;
  app: string;
  version: string;
}

export function workloadsFromInputs(texts: readonly string[], parseAll: (text: string) => unknown[]): InputWorkload[] {
  const out: InputWorkload[] = [];
  for (const text of texts)
    for (const doc of parseAll(text)) {
      const o = doc as {
        kind?: string;
        metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
        spec?: { replicas?: number; template?: { metadata?: { labels?: Record<string, string> } } };
      } | null;
      if (!o || typeof o !== 'object' || !o.kind || !['Deployment', 'StatefulSet', 'ReplicaSet', 'Pod'].includes(o.kind)) continue;
      const labels = (o.kind === 'Pod' ? o.metadata?.labels : o.spec?.template?.metadata?.labels) ?? {};
      const name = o.metadata?.name ?? '';
      out.push({
        namespace: o.metadata?.namespace ?? 'default',
        kind: o.kind,
        name,
        replicas: o.kind === 'Pod' ? 1 : (o.spec?.replicas ?? 1),
        app: labels['service.istio.io/canonical-name'] ?? labels['app.kubernetes.io/name'] ?? labels.app ?? name,
        version: labels['service.istio.io/canonical-revision'] ?? labels['app.kubernetes.io/version'] ?? labels.version ?? 'latest',
      });
    }
  return out;
}

/** Apps (namespace/app) with more than one workload: the versioned-app graph draws a box around their versions. */
export const appBoxes = (ws: readonly InputWorkload[]): string[] => {
  const n = new Map<string, number>();
  for (const w of ws) n.set(`${w.namespace}/${w.app}`, (n.get(`${w.namespace}/${w.app}`) ?? 0) + 1);
  return [...n].filter(([, c]) => c > 1).map(([k]) => k);
};
