import { expect, type Locator, type Page } from '@playwright/test';

interface ViewLike {
  state: { doc: { toString(): string; length: number } };
  dispatch(tr: { changes: { from: number; to: number; insert: string } }): void;
}

/** The /sandbox page: the CodeMirror draft (window.__sandboxEditor), form helpers and results. */
export class SandboxPage {
  readonly status: Locator;
  readonly blast: Locator;
  readonly diff: Locator;
  readonly checks: Locator;
  readonly problems: Locator;

  constructor(readonly page: Page) {
    this.status = page.getByTestId('sandbox-status');
    this.blast = page.getByTestId('blast-radius');
    this.diff = page.getByTestId('proxy-diff');
    this.checks = page.getByTestId('sandbox-checks');
    this.problems = page.getByTestId('sandbox-problems');
  }

  async editorReady(): Promise<void> {
    await expect(this.page.getByTestId('sandbox-editor')).toBeVisible({ timeout: 20_000 });
    await this.page.waitForFunction(() => !!(window as unknown as { __sandboxEditor?: unknown }).__sandboxEditor);
  }

  async text(): Promise<string> {
    return this.page.evaluate(() => (window as unknown as { __sandboxEditor: ViewLike }).__sandboxEditor.state.doc.toString());
  }

  /** Replaces the whole draft as a paste would (one transaction). */
  async paste(text: string): Promise<void> {
    await this.page.evaluate((t) => {
      const v = (window as unknown as { __sandboxEditor: ViewLike }).__sandboxEditor;
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t } });
    }, text);
  }

  /** Waits until the newest draft has been evaluated (debounce elapsed, request answered). */
  async evaluated(): Promise<void> {
    await expect(this.status).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  }

  async blastProxies(): Promise<string[]> {
    return this.blast.locator('tr[data-proxy]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-proxy') ?? ''));
  }
}
