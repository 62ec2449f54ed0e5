// Page object of the answers side: the run's status, attempts, error, summary, and one card per question.
import type { Locator, Page } from 'playwright-core';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export class AnswersArea {
  readonly pane: Locator;
  readonly status: Locator;
  readonly cards: Locator;
  readonly error: Locator;
  readonly attempts: Locator;
  readonly summary: Locator;
  readonly target: Locator;

  constructor(readonly page: Page) {
    this.pane = page.getByTestId('answers');
    this.status = page.getByTestId('answers.status');
    this.cards = page.getByTestId('answers.card');
    this.error = page.getByTestId('answers.error');
    this.attempts = page.getByTestId('answers.attempt');
    this.summary = page.getByTestId('answers.summary');
    this.target = page.getByTestId('answers.target');
  }

  /** Waits until the latest run is in `status`. */
  async waitStatus(status: RunStatus): Promise<void> {
    await this.page.locator(`[data-testid="answers.status"][data-status="${status}"]`).waitFor();
  }

  /** Waits until the latest run has answered and its cards are drawn (the charts load after the first paint). */
  async waitAnswered(): Promise<void> {
    await this.waitStatus('succeeded');
    await this.cards.first().waitFor();
  }

  card(name: string): Locator {
    return this.page.locator(`[data-testid="answers.card"][data-name="${name}"]`);
  }

  /** Names and kinds of the cards, in the order shown. */
  async cardList(): Promise<{ name: string; kind: string }[]> {
    return this.cards.evaluateAll((cards) =>
      cards.map((c) => ({
        name: (c as HTMLElement).dataset.name ?? '',
        kind: (c as HTMLElement).dataset.kind ?? '',
      })),
    );
  }

  /** The rows of a card's text table (the exact numbers a screen reader reads). */
  async tableRows(name: string): Promise<string[][]> {
    return this.card(name)
      .getByTestId('answers.table')
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent ?? '')),
      );
  }

  /** How many bars a card's chart draws. */
  async barCount(name: string): Promise<number> {
    return this.card(name).locator('.recharts-bar-rectangle').count();
  }

  /** The fact a summary field shows: 'resolvedModel', 'latency', 'tokens' or 'cost'. */
  async fact(field: 'resolvedModel' | 'latency' | 'tokens' | 'cost'): Promise<string> {
    return (await this.page.getByTestId(`answers.${field}`).textContent()) ?? '';
  }
}
