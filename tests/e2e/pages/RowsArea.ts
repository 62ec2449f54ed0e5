// Page object of the rows screen: import a file, start, watch, resume, retry, export.
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';

export class RowsArea {
  readonly screen: Locator;
  readonly file: Locator;
  readonly summary: Locator;
  readonly issues: Locator;
  readonly start: Locator;
  readonly status: Locator;
  readonly resume: Locator;
  readonly pause: Locator;
  readonly retryUnknown: Locator;
  readonly retryFailed: Locator;
  readonly message: Locator;
  readonly rpm: Locator;
  /** The export option that adds the lines never sent, so the export has one line per line of the file. */
  readonly exportLeftOut: Locator;

  constructor(readonly page: Page) {
    this.screen = page.getByTestId('rows.screen');
    this.file = page.getByTestId('rows.file');
    this.summary = page.getByTestId('rows.summary');
    this.issues = page.getByTestId('rows.issue');
    this.start = page.getByTestId('rows.start');
    this.status = page.getByTestId('rows.status');
    this.resume = page.getByTestId('rows.resume');
    this.pause = page.getByTestId('rows.pause');
    this.retryUnknown = page.getByTestId('rows.retry.unknown');
    this.retryFailed = page.getByTestId('rows.retry.failed');
    this.message = page.getByTestId('rows.message');
    this.rpm = page.getByTestId('rows.pacing.rpm');
    this.exportLeftOut = page.getByTestId('rows.export.leftOut');
  }

  /** Opens the rows screen from the app's navigation. */
  async open(): Promise<void> {
    await this.page.getByTestId('app.nav.rows').click();
    await this.screen.waitFor();
  }

  /** Picks a file of rows, given its name and text, and waits for the preview. */
  async pick(name: string, text: string): Promise<void> {
    await this.file.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
    await this.page.getByTestId('rows.preview').waitFor();
  }

  /** Maps the whole row as named fields (every column but the id is sent). */
  async mapWholeRow(): Promise<void> {
    await this.page.getByTestId('rows.mapping.mode').getByLabel('Whole row as named fields').check();
  }

  /** The sample of the states the file's first rows map to, as they would be sent. */
  samples(): Locator {
    return this.page.getByTestId('rows.samples');
  }

  /** The line saying which columns were read as labels because they are named like questions. */
  defaultedLabels(): Locator {
    return this.page.getByTestId('rows.labels.defaulted');
  }

  /** Whether the mapping mode of these words ("Whole row as named fields", "One column as text") is chosen. */
  modeChosen(words: string): Promise<boolean> {
    return this.page.getByTestId('rows.mapping.mode').getByLabel(words).isChecked();
  }

  /** The input shown for a result row: what was sent for it. */
  async inputOf(row: number): Promise<string> {
    const cell = this.page.getByTestId('rows.table.row').nth(row).getByRole('cell').nth(3);
    return (await cell.textContent()) ?? '';
  }

  /** Opens a results file written by the command line, from its path, and waits for the run to show. */
  async openResultsFile(path: string): Promise<void> {
    await this.page.getByTestId('rows.resultsFile').setInputFiles(path);
    await this.page.getByTestId('rows.run.title').waitFor();
  }

  /** Sets requests per minute (committed with Enter). */
  async setRate(perMinute: number): Promise<void> {
    await this.rpm.fill(String(perMinute));
    await this.rpm.press('Enter');
  }

  /** A count of the progress panel: done, reused, invalid, failed, unknown, inFlight, pending. */
  async count(name: string): Promise<number> {
    return Number(await this.page.getByTestId(`rows.count.${name}`).getAttribute('data-value'));
  }

  /** The phase the status line reports: running, finished, halted... */
  phase(): Promise<string | null> {
    return this.status.getAttribute('data-phase');
  }

  /** Waits until the run reports `phase`. */
  async waitPhase(phase: string, timeout = 60_000): Promise<void> {
    await this.page.waitForFunction(
      (p) => document.querySelector('[data-testid="rows.status"]')?.getAttribute('data-phase') === p,
      phase,
      { timeout },
    );
  }

  /** Waits until the run has finished with nothing pending or in flight. */
  async waitFinished(timeout = 60_000): Promise<void> {
    await this.page.waitForFunction(
      () => {
        const value = (name: string) =>
          Number(
            document.querySelector(`[data-testid="rows.count.${name}"]`)?.getAttribute('data-value') ?? -1,
          );
        const phase = document.querySelector('[data-testid="rows.status"]')?.getAttribute('data-phase');
        return phase === 'finished' && value('pending') === 0 && value('inFlight') === 0;
      },
      undefined,
      { timeout },
    );
  }

  /** Retries failed and unknown rows (on request, as a user would) until none is left; returns how many rounds. */
  async retryUntilAnswered(maxRounds = 3): Promise<number> {
    for (let round = 0; round < maxRounds; round++) {
      const buttons = [this.retryUnknown, this.retryFailed];
      const visible = [];
      for (const b of buttons) if (await b.isVisible()) visible.push(b);
      if (visible.length === 0) return round;
      for (const b of visible) await b.click();
      // Retried rows leave the failed and unknown counts at once; then the run finishes again.
      await this.page.waitForFunction(() =>
        ['failed', 'unknown'].every(
          (n) =>
            document.querySelector(`[data-testid="rows.count.${n}"]`)?.getAttribute('data-value') === '0',
        ),
      );
      await this.waitFinished();
    }
    return maxRounds;
  }

  /** Waits until at least `n` rows are answered. */
  async waitAnswered(n: number, timeout = 60_000): Promise<void> {
    await this.page.waitForFunction(
      (min) =>
        Number(document.querySelector('[data-testid="rows.count.done"]')?.getAttribute('data-value') ?? 0) >=
        min,
      n,
      { timeout },
    );
  }

  /** Opens a stored run by its file name. */
  async openRun(fileName: string): Promise<void> {
    await this.page.getByTestId('rows.run').getByRole('button', { name: fileName, exact: true }).click();
    await this.status.waitFor();
  }

  /** Clicks an export button and returns the downloaded file's name and text. */
  async export(kind: 'csv' | 'jsonl'): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId(`rows.export.${kind}`).click(),
    ]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
  }
}
