import type { Locator, Page } from '@playwright/test';

/** The "Trace a request" and "Route graph" tabs of a proxy page (or of an uploaded dump). */
export class TracePanel {
  readonly form: Locator;
  readonly result: Locator;
  readonly error: Locator;
  readonly clusters: Locator;
  readonly subsets: Locator;
  readonly rejected: Locator;
  readonly graph: Locator;
  readonly canvas: Locator;
  readonly routeList: Locator;
  readonly details: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId('trace-form');
    this.result = page.getByTestId('trace-result');
    this.error = page.getByTestId('trace-error');
    this.clusters = page.getByTestId('trace-cluster');
    this.subsets = page.getByTestId('trace-subset');
    this.rejected = page.getByTestId('trace-rejected');
    this.graph = page.getByTestId('route-graph');
    this.canvas = page.getByTestId('route-graph-canvas');
    this.routeList = page.getByTestId('graph-route-list');
    this.details = page.getByTestId('graph-node-details');
  }

  hop(
    name: 'listener' | 'filterChain' | 'transport' | 'authorization' | 'routeConfig' | 'virtualHost' | 'route' | 'cluster' | 'endpoints',
  ): Locator {
    return this.page.getByTestId(`hop-${name}`);
  }

  /** Rejections at one hop (`route`, `virtualHost`, …). */
  rejectedAt(hop: string): Locator {
    return this.page.locator(`[data-testid="trace-rejected"][data-hop="${hop}"]`);
  }

  field(name: string): Locator {
    return this.form.locator(`[name="${name}"]`);
  }

  /** Fills the form (headers as `name: value` lines) and submits it. */
  async trace(req: { mode?: string; host?: string; port?: string; path?: string; method?: string; headers?: string[] }): Promise<void> {
    if (req.mode) await this.field('mode').selectOption(req.mode);
    if (req.host !== undefined) await this.field('host').fill(req.host);
    if (req.port !== undefined) await this.field('port').fill(req.port);
    if (req.path !== undefined) await this.field('path').fill(req.path);
    if (req.method !== undefined) await this.field('method').fill(req.method);
    if (req.headers !== undefined) await this.field('headers').fill(req.headers.join('\n'));
    await this.page.getByTestId('trace-submit').click();
  }

  /** Waits for cytoscape's dagre layout to finish. */
  async layoutDone(): Promise<void> {
    await this.canvas.and(this.page.locator('[data-layout-done="true"]')).first().waitFor();
  }

  routeRow(status: string): Locator {
    return this.routeList.locator(`tr[data-status="${status}"]`);
  }
}
