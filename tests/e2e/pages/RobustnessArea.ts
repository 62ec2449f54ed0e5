// Page object of the robustness check: the run-bar button, its dialog (source, settings, budget, run) and the cards.
import type { Locator, Page } from 'playwright-core';

export class RobustnessArea {
  readonly openButton: Locator;
  readonly dialog: Locator;
  readonly budget: Locator;
  readonly runButton: Locator;
  readonly report: Locator;
  readonly cards: Locator;
  readonly identical: Locator;
  readonly billed: Locator;
  readonly close: Locator;
  readonly repeats: Locator;

  constructor(readonly page: Page) {
    this.openButton = page.getByTestId('robustness.open');
    this.dialog = page.getByTestId('robustness.dialog');
    this.budget = page.getByTestId('robustness.budget');
    this.runButton = page.getByTestId('robustness.run');
    this.report = page.getByTestId('robustness.report');
    this.cards = page.getByTestId('robustness.card');
    this.identical = page.getByTestId('robustness.identical');
    this.billed = page.getByTestId('robustness.billed');
    this.close = page.getByTestId('robustness.close');
    this.repeats = page.getByTestId('robustness.repeats');
  }

  /** Opens the dialog and waits for the budget line to state a price. */
  async open(): Promise<string> {
    await this.openButton.click();
    await this.dialog.waitFor();
    await this.page.waitForFunction(() =>
      /about \$/.test(document.querySelector('[data-testid="robustness.budget"]')?.textContent ?? ''),
    );
    await this.page.locator('[data-testid="robustness.run"]:not([disabled])').waitFor();
    return (await this.budget.textContent()) ?? '';
  }

  /** Runs the check and waits for its report's cards. */
  async runCheck(): Promise<void> {
    await this.runButton.click();
    await this.page.getByTestId('robustness.cancel').waitFor({ state: 'detached' });
    await this.cards.first().waitFor();
  }

  card(question: string): Locator {
    return this.page.locator(`[data-testid="robustness.card"][data-question="${question}"]`);
  }

  /** Every card as its question and verdict. */
  async verdicts(): Promise<Record<string, string>> {
    const pairs = await this.cards.evaluateAll((cards) =>
      cards.map((c) => [(c as HTMLElement).dataset.question ?? '', (c as HTMLElement).dataset.verdict ?? '']),
    );
    return Object.fromEntries(pairs);
  }
}
