// Page object of the sessions sidebar: the list, its actions, files, share links and the save line.
import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from 'playwright-core';

export class SessionsArea {
  readonly sidebar: Locator;
  readonly items: Locator;
  readonly names: Locator;
  readonly search: Locator;
  readonly toast: Locator;
  readonly saveStatus: Locator;
  readonly sharePreview: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByTestId('sessions.sidebar');
    this.items = page.getByTestId('sessions.item');
    this.names = page.getByTestId('sessions.name');
    this.search = page.getByTestId('sessions.search');
    this.toast = page.getByTestId('sessions.toastText');
    this.saveStatus = page.getByTestId('sessions.saveStatus');
    this.sharePreview = page.getByTestId('sessions.sharePreview');
  }

  /** Waits until the sessions are listed and the start-up has opened one (the last, or a first visit's example). */
  async waitReady(): Promise<void> {
    await this.page
      .locator('[data-testid="sessions.sidebar"][data-phase="ready"][data-restored="true"]')
      .waitFor();
  }

  /** Waits until every change is written to storage. */
  async waitSaved(): Promise<void> {
    await this.page.locator('[data-testid="sessions.saveStatus"][data-state="idle"]').waitFor();
  }

  /** The session names in list order. */
  listNames(): Promise<string[]> {
    return this.names.allTextContents();
  }

  /** The name of the open session. */
  openName(): Promise<string | null> {
    return this.sidebar.locator('[aria-current="true"] [data-testid="sessions.name"]').textContent();
  }

  item(name: string): Locator {
    return this.items.filter({
      has: this.page.getByTestId('sessions.name').getByText(name, { exact: true }),
    });
  }

  async create(): Promise<void> {
    const before = await this.items.count();
    await this.page.getByTestId('sessions.new').click();
    await this.items.nth(before).waitFor();
  }

  private async menu(name: string, action: string): Promise<void> {
    await this.item(name).getByTestId('sessions.menu').click();
    await this.page.getByRole('menuitem', { name: action }).click();
  }

  async rename(from: string, to: string): Promise<void> {
    await this.menu(from, 'Rename');
    const input = this.page.getByTestId('sessions.renameInput');
    await input.fill(to);
    await input.press('Enter');
    await this.item(to).waitFor();
  }

  async open(name: string): Promise<void> {
    await this.item(name).getByTestId('sessions.open').click();
    await this.item(name).locator('[aria-current="true"]').waitFor();
  }

  /** Clicks Export all and returns the file's name and text. */
  async exportAll(): Promise<{ fileName: string; text: string }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId('sessions.exportAll').click(),
    ]);
    return readDownload(download);
  }

  /** Imports a file through the file picker. */
  async importFile(name: string, text: string): Promise<void> {
    await this.page
      .getByTestId('sessions.importInput')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text, 'utf8') });
  }

  /** Makes a share link for a session and returns it. */
  async shareLink(name: string, includeRuns = true): Promise<string> {
    await this.menu(name, 'Share link…');
    const include = this.page.getByTestId('sessions.shareIncludeRuns');
    if ((await include.count()) > 0 && (await include.isChecked()) !== includeRuns) await include.click();
    await this.page.getByTestId('sessions.shareCopy').click();
    const url = await this.page.getByTestId('sessions.shareUrl').inputValue();
    await this.page.getByTestId('sessions.shareDialog').getByRole('button', { name: 'Close' }).click();
    return url;
  }
}

async function readDownload(download: Download): Promise<{ fileName: string; text: string }> {
  const path = await download.path();
  return { fileName: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}
