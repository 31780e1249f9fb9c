import type { Locator, Page } from '@playwright/test';

export type TableName = 'listeners' | 'routes' | 'clusters' | 'endpoints';

/** The proxy detail page (/proxies/POD.NS) and the dump browser it shares with /dump. */
export class ProxyPage {
  readonly heading: Locator;
  readonly configDump: Locator;
  readonly routePanel: Locator;
  readonly clusterPanel: Locator;
  readonly sourceObject: Locator;
  readonly changeBanner: Locator;
  /** The four table panels (the tables live in tabs now: open the tab first). */
  readonly listeners: Locator;
  readonly routes: Locator;
  readonly clusters: Locator;
  readonly endpoints: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByTestId('proxy-id');
    this.configDump = page.getByTestId('config-dump');
    this.routePanel = page.getByTestId('route-panel');
    this.clusterPanel = page.getByTestId('cluster-panel');
    this.sourceObject = page.getByTestId('source-object');
    this.changeBanner = page.getByTestId('change-banner');
    this.listeners = page.getByTestId('listeners-table');
    this.routes = page.getByTestId('routes-table');
    this.clusters = page.getByTestId('clusters-table');
    this.endpoints = page.getByTestId('endpoints-table');
  }

  async goto(id: string, query = ''): Promise<void> {
    await this.page.goto(`/proxies/${encodeURIComponent(id)}${query ? `?${query}` : ''}`);
  }

  tabButton(name: string): Locator {
    return this.page.getByTestId(`tab-${name}`);
  }

  async openTab(name: string): Promise<void> {
    await this.tabButton(name).click();
    await this.page.getByTestId(`panel-${name}`).waitFor();
  }

  table(name: TableName): Locator {
    return this.page.getByTestId(`${name}-table`);
  }

  /** The scrolling grid element of a table. */
  grid(name: TableName): Locator {
    return this.table(name).getByRole('grid');
  }

  rows(name: TableName): Locator {
    return this.table(name).getByTestId('vt-row');
  }

  row(name: TableName, key: string): Locator {
    return this.table(name).locator(`[data-testid="vt-row"][data-key="${key.replace(/"/g, '\\"')}"]`);
  }

  count(name: TableName): Locator {
    return this.page.getByTestId(`${name}-table-count`);
  }

  async search(name: TableName, text: string): Promise<void> {
    await this.table(name).getByRole('searchbox').fill(text);
  }

  async filter(name: TableName, key: string, value: string): Promise<void> {
    await this.table(name).locator(`input[data-filter="${key}"]`).fill(value);
  }

  /** The raw ConfigDump JSON (Raw JSON tab). */
  async rawDump(): Promise<unknown> {
    await this.openTab('raw');
    return JSON.parse((await this.page.getByTestId('raw-json').textContent()) ?? 'null');
  }
}
