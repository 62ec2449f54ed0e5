// Page object of the rubric tools: lint findings in the problems list, the live cost line, the Get code dialog, the
// gateway offer and the large-taxonomy screen.
import type { Locator, Page } from 'playwright-core';

export class RubricToolsArea {
  readonly problemsSummary: Locator;
  readonly findings: Locator;
  readonly costTotal: Locator;
  readonly costState: Locator;
  readonly getCode: Locator;
  readonly codeDialog: Locator;
  readonly code: Locator;
  readonly copy: Locator;
  readonly copyStatus: Locator;
  readonly gatewayOffer: Locator;
  readonly taxonomyInput: Locator;
  readonly taxonomyInstructions: Locator;
  readonly taxonomySummary: Locator;
  readonly taxonomyRun: Locator;
  readonly taxonomyLabel: Locator;
  readonly taxonomySteps: Locator;
  readonly taxonomyCost: Locator;
  readonly taxonomyFinal: Locator;

  constructor(readonly page: Page) {
    this.problemsSummary = page.getByTestId('workbench.problemsSummary');
    this.findings = page.getByTestId('workbench.problem');
    this.costTotal = page.getByTestId('cost.total');
    this.costState = page.getByTestId('cost.state');
    this.getCode = page.getByTestId('getCode.open');
    this.codeDialog = page.getByTestId('getCode.dialog');
    this.code = page.getByTestId('getCode.code');
    this.copy = page.getByTestId('getCode.copy');
    this.copyStatus = page.getByTestId('getCode.copyStatus');
    this.gatewayOffer = page.getByTestId('lint.gateway');
    this.taxonomyInput = page.getByTestId('taxonomy.input');
    this.taxonomyInstructions = page.getByTestId('taxonomy.instructions');
    this.taxonomySummary = page.getByTestId('taxonomy.summary');
    this.taxonomyRun = page.getByTestId('taxonomy.run');
    this.taxonomyLabel = page.getByTestId('taxonomy.label');
    this.taxonomySteps = page.getByTestId('taxonomy.step');
    this.taxonomyCost = page.getByTestId('taxonomy.cost');
    this.taxonomyFinal = page.getByTestId('taxonomy.final');
  }

  /** Opens the problems list if it is folded (it starts folded when there are only warnings). */
  async openProblems(): Promise<void> {
    if ((await this.problemsSummary.getAttribute('aria-expanded')) !== 'true')
      await this.problemsSummary.click();
  }

  /** Each finding as its rule id (data-source), severity and whether it offers a fix. */
  async findingList(): Promise<{ rule: string; severity: string; fix: string | null }[]> {
    return this.findings.evaluateAll((items) =>
      items.map((i) => ({
        rule: (i as HTMLElement).dataset.source ?? '',
        severity: (i as HTMLElement).dataset.severity ?? '',
        fix: i.querySelector('[data-testid="lint.fix"]')?.textContent ?? null,
      })),
    );
  }

  /** Shows why a finding matters and returns the sentence. */
  async explain(rule: string): Promise<string> {
    const item = this.findings.and(this.page.locator(`[data-source="${rule}"]`)).first();
    await item.getByTestId('lint.why').click();
    return (await item.getByTestId('lint.explanation').textContent()) ?? '';
  }

  /** Applies a finding's fix. */
  async fix(rule: string): Promise<void> {
    await this.findings
      .and(this.page.locator(`[data-source="${rule}"]`))
      .first()
      .getByTestId('lint.fix')
      .click();
  }

  /** The live input-token count as a number. */
  async tokens(): Promise<number> {
    return Number(((await this.costTotal.textContent()) ?? '').replace(/,/g, ''));
  }

  /** Waits until the live count differs from `before`, and returns it. */
  async waitTokensChange(before: number): Promise<number> {
    await this.page.waitForFunction(
      (b) =>
        Number(document.querySelector('[data-testid="cost.total"]')?.textContent?.replace(/,/g, '')) !== b,
      before,
    );
    return this.tokens();
  }

  /** Opens Get code, picks a language, copies, and returns what the clipboard then holds. */
  async copyCode(language: 'curl' | 'TypeScript' | 'Python' = 'curl'): Promise<string> {
    await this.getCode.click();
    await this.codeDialog.waitFor();
    await this.page
      .getByTestId('getCode.language')
      .getByRole('radio', { name: language, exact: true })
      .check();
    await this.copy.click();
    await this.copyStatus.filter({ hasText: 'Copied.' }).waitFor();
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** Goes to the large-taxonomy screen. */
  async openTaxonomy(): Promise<void> {
    await this.page.getByTestId('app.nav.taxonomy').click();
    await this.taxonomyInput.waitFor();
  }
}
