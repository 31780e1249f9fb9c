import type { Locator, Page } from '@playwright/test';

export class HomePage {
  readonly proxiesTable: Locator;
  readonly sources: Locator;

  constructor(readonly page: Page) {
    this.proxiesTable = page.getByTestId('proxies-table');
    this.sources = page.getByTestId('sources');
  }

  async goto(): Promise<void> {
    await this.page.goto('/proxies');
  }

  /** Proxy ids in table order. */
  async proxyIds(): Promise<string[]> {
    return this.proxiesTable.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-proxy-id') ?? ''));
  }

  row(id: string): Locator {
    return this.proxiesTable.locator(`tbody tr[data-proxy-id="${id}"]`);
  }

  async openProxy(id: string): Promise<void> {
    await this.row(id).getByRole('link', { name: id }).click();
  }
}
