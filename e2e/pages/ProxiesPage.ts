import type { Locator, Page } from '@playwright/test';

export class ProxiesPage {
  readonly table: Locator;
  readonly filter: Locator;
  readonly namespace: Locator;
  readonly type: Locator;
  readonly count: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByTestId('proxies-table');
    this.filter = page.getByTestId('proxy-filter');
    this.namespace = page.getByTestId('proxy-ns');
    this.type = page.getByTestId('proxy-type');
    this.count = page.getByTestId('proxy-count');
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/proxies${query ? `?${query}` : ''}`);
  }

  /** Proxy ids in table order. */
  async ids(): Promise<string[]> {
    return this.table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-proxy-id') ?? ''));
  }

  row(id: string): Locator {
    return this.table.locator(`tbody tr[data-proxy-id="${id}"]`);
  }
}
