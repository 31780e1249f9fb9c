import type { Locator, Page } from '@playwright/test';

export class ProxyPage {
  readonly heading: Locator;
  readonly listeners: Locator;
  readonly routes: Locator;
  readonly clusters: Locator;
  readonly endpoints: Locator;
  readonly configDump: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByTestId('proxy-id');
    this.listeners = page.locator('#listeners');
    this.routes = page.locator('#routes');
    this.clusters = page.locator('#clusters');
    this.endpoints = page.locator('#endpoints');
    this.configDump = page.getByTestId('config-dump');
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/proxies/${encodeURIComponent(id)}`);
  }

  /** The raw JSON shown in the config_dump panel (opens it first). */
  async rawDump(): Promise<unknown> {
    await this.configDump.locator('summary').click();
    return JSON.parse((await this.configDump.locator('pre').textContent()) ?? 'null');
  }
}
