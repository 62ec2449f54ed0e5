// Page object of the alignment screen: figures per question, confusion cells, disagreements, variants, kept reports.
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';

export class AlignmentArea {
  readonly screen: Locator;
  readonly variantRun: Locator;
  readonly variantCompare: Locator;
  readonly keepReport: Locator;
  /** The sentence of a report kept in the session on how many rows' labels it holds. */
  readonly storedLabels: Locator;

  /** What a variant would send (requests, tokens, cost), said before it runs, and the button that pins an alias. */
  readonly variantPlan: Locator;
  readonly variantPin: Locator;

  constructor(readonly page: Page) {
    this.variantPlan = page.getByTestId('align.variant.plan');
    this.variantPin = page.getByTestId('align.variant.pin');
    this.screen = page.getByTestId('align.screen');
    this.keepReport = page.getByTestId('align.report.keep');
    this.storedLabels = page.getByTestId('align.stored.labels');
    this.variantRun = page.getByTestId('align.variant.run');
    this.variantCompare = page.getByTestId('align.variant.compare');
  }

  /** The best-of sentence of a question's family of variants, counted by the session's ledger. */
  familySentence(question: string): Locator {
    return this.page.getByTestId(`align.family.sentence.${question}`);
  }

  /** How many variants the ledger counts on the open labelled rows. */
  get familyCount(): Locator {
    return this.page.getByTestId('align.family.count');
  }

  /** Seals a share (a percentage) of the labelled rows. */
  async seal(percent: number): Promise<void> {
    await this.page.getByTestId('align.seal.share').fill(String(percent));
    await this.page.getByTestId('align.seal.run').click();
    await this.page.getByTestId('align.seal.summary').waitFor();
  }

  get sealSummary(): Locator {
    return this.page.getByTestId('align.seal.summary');
  }

  /** Confirms the chosen variant (the family's best unless another is picked) on the sealed rows. */
  async confirm(): Promise<void> {
    await this.page.getByTestId('align.confirm.run').click();
  }

  get confirmations(): Locator {
    return this.page.getByTestId('align.confirm.count');
  }

  get confirmation(): Locator {
    return this.page.getByTestId('align.confirm.result');
  }

  /** Opens the alignment screen from the app's navigation. */
  async open(): Promise<void> {
    await this.page.getByTestId('app.nav.alignment').click();
    await this.screen.waitFor();
  }

  /** The text of one figure, e.g. figure('department', 'kappa'). */
  figure(question: string, key: string): Locator {
    return this.page.getByTestId(`align.figure.${question}.${key}`);
  }

  reliability(question: string): Locator {
    return this.page.getByTestId(`align.reliability.${question}`);
  }

  /** The first confusion cell of a question with rows behind it. */
  firstFilledCell(question: string): Locator {
    return this.page.locator(`[data-testid^="align.cell.${question}."]:not([disabled])`).first();
  }

  disagreements(question: string): Locator {
    return this.page.getByTestId(`align.disagreements.${question}`).getByTestId('align.disagreement');
  }

  difference(question: string, key: string): Locator {
    return this.page.getByTestId(`align.variant.diff.${question}.${key}`);
  }

  /** The better/worse mark of one figure in the variant comparison. */
  mark(question: string, key: string): Locator {
    return this.page.getByTestId(`align.variant.mark.${question}.${key}`);
  }

  /** What a figure means in words, which way is better and its reading scale. */
  words(question: string, key: string): Locator {
    return this.page.getByTestId(`align.figure.${question}.${key}.words`);
  }

  /** One confusion cell: rows labelled class `truth`, answered class `predicted` (indices). */
  cell(question: string, truth: number, predicted: number): Locator {
    return this.page.getByTestId(`align.cell.${question}.${truth}.${predicted}`);
  }

  /** The threshold slider of a yes/no question, by its accessible name. */
  slider(question: string): Locator {
    return this.page.getByRole('slider', { name: `Threshold on P(yes) for ${question}` });
  }

  /** The rows listed under an open confusion cell. */
  cellRows(): Locator {
    return this.page
      .getByRole('region', { name: /^Rows labelled .* answered .*\(\d+\)$/ })
      .getByTestId('align.disagreement');
  }

  /** The buttons that offer the rest of the open cell's list: a page more, or all of it in the rows screen. */
  cellMore(which: 'showMore' | 'openAll'): Locator {
    return this.page
      .getByRole('region', { name: /^Rows labelled .* answered .*\(\d+\)$/ })
      .getByTestId(`align.disagreements.${which}`);
  }

  /**
   * Starts recording every heading the variant comparison shows ("department on 40 rows answered by both runs"), so
   * a test can say what flashed on screen between two polls; read them with comparisonHeadsSeen.
   */
  async watchComparisonHeads(): Promise<void> {
    await this.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __comparisonHeads: string[] }).__comparisonHeads = seen;
      const record = () => {
        for (const h of document.querySelectorAll('[data-testid="align.variant.comparison"] h4'))
          if (!seen.includes(h.textContent ?? '')) seen.push(h.textContent ?? '');
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
      record();
    });
  }

  /** Every comparison heading shown since watchComparisonHeads. */
  comparisonHeadsSeen(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __comparisonHeads: string[] }).__comparisonHeads);
  }

  /** Opens the labelling view of one question. */
  async label(question: string): Promise<void> {
    await this.page.getByTestId('align.view.label').click();
    await this.page.getByTestId('align.labelling.question').selectOption(question);
    await this.page.getByTestId('align.labelling').waitFor();
  }

  /** A part of a question's "Can the judge replace a person?" panel: ceiling, verdict, threshold, estimates. */
  trust(
    question: string,
    part: 'ceiling' | 'verdict' | 'threshold' | 'estimates' | 'cascade' | 'alt',
  ): Locator {
    return this.page.getByTestId(`align.trust.${part}.${question}`);
  }

  /** Follows a team workspace queue's labels in the open run (the owner's browser). */
  async follow(queueName: string): Promise<void> {
    await this.page.getByTestId('align.follow.open').click();
    const select = this.page.getByTestId('align.follow.queue');
    await select.locator('option', { hasText: queueName }).first().waitFor({ state: 'attached' });
    const value = await select.locator('option', { hasText: queueName }).first().getAttribute('value');
    await select.selectOption(value!);
  }

  get followStatus(): Locator {
    return this.page.getByTestId('align.follow.status');
  }

  /** Chooses the labelling view's order; active takes a label budget (its first target, a label's share). */
  async order(kind: 'file' | 'random' | 'active', budget?: number): Promise<void> {
    await this.page.getByTestId('align.order.kind').selectOption(kind);
    if (budget === undefined) return;
    const field = this.page.getByTestId('align.order.budget');
    await field.fill(String(budget));
    await field.press('Enter');
  }

  /** The row on the labelling card, as the person reads it. */
  get labellingState(): Locator {
    return this.page.getByTestId('align.labelling.state');
  }

  get labellingProgress(): Locator {
    return this.page.getByTestId('align.labelling.progress');
  }

  /** Gives the card's row a label by its key, with the focus back on the card, and waits for the count to move. */
  async give(key: string, labelledBefore: number): Promise<void> {
    await this.page.getByTestId('align.labelling').focus();
    await this.page.keyboard.press(key);
    await this.page
      .getByTestId('align.labelling.progress')
      .filter({ hasText: new RegExp(`^${labelledBefore + 1} of `) })
      .waitFor();
  }

  /** The active order's estimate, what random order gives with as many labels, and the saving sentence. */
  active(part: 'estimate' | 'random' | 'saving'): Locator {
    return this.page.getByTestId(`align.active.${part}`);
  }

  /** Saves a question's labelling queue and returns the file's name and text. */
  async labellingQueue(question: string, kind: 'csv' | 'jsonl'): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId(`align.trust.queue.${kind}.${question}`).click(),
    ]);
    return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
  }
}
