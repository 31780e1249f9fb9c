import type { Locator, Page } from '@playwright/test';
import { ProxyPage } from './ProxyPage';

/** /dump: open an Envoy config dump, then browse it with the proxy page's tabs. */
export class DumpPage extends ProxyPage {
  readonly fileInput: Locator;
  readonly opened: Locator;
  readonly error: Locator;

  constructor(page: Page) {
    super(page);
    this.fileInput = page.getByTestId('dump-file');
    this.opened = page.getByTestId('dump-opened');
    this.error = page.getByTestId('dump-error');
  }

  async open(): Promise<void> {
    await this.page.goto('/dump');
  }

  async upload(path: string): Promise<void> {
    await this.fileInput.setInputFiles(path);
    await this.opened.waitFor();
  }

  async paste(text: string): Promise<void> {
    await this.page.getByTestId('dump-paste').fill(text);
    await this.page.getByTestId('dump-open-paste').click();
  }

  async another(): Promise<void> {
    await this.opened.getByRole('button', { name: 'Open another' }).click();
  }
}
