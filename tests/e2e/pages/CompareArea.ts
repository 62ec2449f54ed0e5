// Page object of compare mode: the mode switch, the columns (target, model, status, Run, Cancel, pin), the toolbar
// (Run all, threshold, order) and the question rows with their metrics.
import type { Locator, Page } from 'playwright-core';

/** The numbers a question row shows for the column at `index` against the baseline, as text. */
export interface ShownMetrics {
  topChoice?: { agrees: boolean; text: string };
  tvd?: string;
  jsd?: string;
  scoreDelta?: string;
  yesDelta?: string;
}

export class CompareArea {
  readonly view: Locator;
  readonly modeSwitch: Locator;
  readonly columns: Locator;
  readonly questions: Locator;
  readonly runAll: Locator;
  readonly threshold: Locator;
  readonly sort: Locator;
  readonly flaggedCount: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('compare.view');
    this.modeSwitch = page.getByTestId('compare.modeSwitch');
    this.columns = page.getByTestId('compare.column');
    this.questions = page.getByTestId('compare.question');
    this.runAll = page.getByTestId('compare.runAll');
    this.threshold = page.getByTestId('compare.threshold');
    this.sort = page.getByTestId('compare.sort');
    this.flaggedCount = page.getByTestId('compare.flaggedCount');
  }

  /** Switches the workbench to compare mode (if it is not there already) and waits for the columns. */
  async open(): Promise<void> {
    if (!(await this.view.isVisible())) await this.modeSwitch.getByRole('radio', { name: 'Compare' }).check();
    await this.columns.first().waitFor();
  }

  column(index: number): Locator {
    return this.page.locator(`[data-testid="compare.column"][data-column-index="${index}"]`);
  }

  /** Sets a column's target and model. */
  async setColumn(index: number, target: string, model: string): Promise<void> {
    await this.column(index).getByTestId('compare.target').selectOption(target);
    await this.setModel(index, model);
  }

  /** Types a model id into a column's model picker. */
  async setModel(index: number, model: string): Promise<void> {
    const input = this.column(index).getByTestId('workbench.model');
    await input.fill(model);
  }

  async modelOf(index: number): Promise<string> {
    return this.column(index).getByTestId('workbench.model').inputValue();
  }

  /** Waits until a column's latest run settled in `phase` ('answered', 'failed', ...). */
  async waitPhase(index: number, phase: string): Promise<void> {
    await this.page
      .locator(`[data-testid="compare.column"][data-column-index="${index}"][data-phase="${phase}"]`)
      .waitFor();
  }

  question(name: string): Locator {
    return this.page.locator(`[data-testid="compare.question"][data-question="${name}"]`);
  }

  /** Question names in the order listed. */
  questionNames(): Promise<string[]> {
    return this.questions.evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.question ?? ''));
  }

  /** Names of the flagged questions, in the order listed. */
  flaggedNames(): Promise<string[]> {
    return this.page
      .locator('[data-testid="compare.question"][data-flagged="true"]')
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.question ?? ''));
  }

  /** The metrics shown in a question's cell for the column at `index`. */
  async metrics(question: string, index: number): Promise<ShownMetrics> {
    const cell = this.question(question).locator(
      `[data-testid="compare.cell"][data-column-index="${index}"]`,
    );
    const read = async (id: string): Promise<string | undefined> => {
      const el = cell.getByTestId(`compare.metric.${id}`);
      return (await el.count()) > 0 ? ((await el.textContent()) ?? '').trim() : undefined;
    };
    const top = cell.getByTestId('compare.metric.topChoice');
    const shown: ShownMetrics = {};
    if ((await top.count()) > 0) {
      shown.topChoice = {
        agrees: (await top.getAttribute('data-agrees')) === 'true',
        text: ((await top.textContent()) ?? '').trim(),
      };
    }
    for (const key of ['tvd', 'jsd', 'scoreDelta', 'yesDelta'] as const) {
      const value = await read(key);
      if (value !== undefined) shown[key] = value;
    }
    return shown;
  }

  /** Sets the flag threshold by typing it. */
  async setThreshold(value: number): Promise<void> {
    await this.threshold.fill(String(value));
    await this.threshold.blur();
  }
}
