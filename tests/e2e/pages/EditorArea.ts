// Page object of the editing side: the state and questions editors (Monaco once loaded), the questions form, the
// model picker, Run and Cancel, and the problems list.
import type { Locator, Page } from 'playwright-core';

export type EditorName = 'state' | 'questions';
export type MarkerSeverity = 'error' | 'warning' | 'info';

export class EditorArea {
  readonly run: Locator;
  readonly cancel: Locator;
  readonly model: Locator;
  readonly modelProblem: Locator;
  /** The model picker's tag (alias, pinned, unknown...). */
  readonly modelKind: Locator;
  readonly runStatus: Locator;
  readonly problems: Locator;
  readonly problemItems: Locator;
  readonly refused: Locator;
  readonly sendAnyway: Locator;

  constructor(readonly page: Page) {
    this.run = page.getByTestId('workbench.run');
    this.cancel = page.getByTestId('workbench.cancel');
    this.model = page.getByTestId('workbench.model');
    this.modelProblem = page.getByTestId('workbench.modelProblem');
    this.modelKind = page.getByTestId('workbench.modelKind');
    this.runStatus = page.getByTestId('workbench.runStatus');
    this.problems = page.getByTestId('workbench.problems');
    this.problemItems = page.getByTestId('workbench.problem');
    this.refused = page.getByTestId('workbench.refused');
    this.sendAnyway = page.getByTestId('workbench.sendAnyway');
  }

  /** The Monaco editor of a document (present once Monaco has loaded). */
  monaco(name: EditorName): Locator {
    return this.page.getByTestId(`editor.monaco.${name}`);
  }

  /** Waits until both editors are Monaco editors with their text drawn. */
  async waitReady(): Promise<void> {
    await this.monaco('questions').locator('.view-lines .view-line').first().waitFor();
    await this.monaco('state').locator('.view-lines .view-line').first().waitFor();
  }

  /** Puts the caret in an editor. */
  async focus(name: EditorName): Promise<void> {
    // The middle of what the editor shows: the lines' own box runs the text's full height, so once the editor has
    // scrolled its middle can sit under the pane's header.
    await this.monaco(name).locator('.overflow-guard').click();
  }

  /** Replaces an editor's whole text by selecting all and pasting (typing would auto-indent and auto-close). */
  async replaceText(name: EditorName, text: string): Promise<void> {
    await this.focus(name);
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.press('Delete');
    await this.paste(text);
  }

  /** Pastes text where the caret is, as Ctrl+V from the clipboard would. */
  async paste(text: string): Promise<void> {
    await this.page.evaluate((pasted) => {
      const data = new DataTransfer();
      data.setData('text/plain', pasted);
      const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
      (document.activeElement ?? document.body).dispatchEvent(event);
    }, text);
  }

  /** Moves the caret to a 1-based line and column with Monaco's "Go to line" (Ctrl+G), as a keyboard user would. */
  async goTo(name: EditorName, line: number, column = 1): Promise<void> {
    await this.focus(name);
    await this.page.keyboard.press('Control+G');
    const box = this.page.locator('.quick-input-widget input');
    await box.waitFor();
    // The box opens holding the ":" prefix of the go-to-line provider.
    await box.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await box.waitFor({ state: 'hidden' });
  }

  /** Asks for completions at the caret (Ctrl+Space) and returns the labels offered. */
  async completions(): Promise<string[]> {
    await this.page.keyboard.press('Control+Space');
    const rows = this.page.locator('.suggest-widget .monaco-list-row');
    await rows.first().waitFor();
    const labels = await rows.locator('.label-name').allTextContents();
    await this.page.keyboard.press('Escape');
    return labels;
  }

  /** The text an editor shows, line by line (Monaco renders only visible lines: keep documents short). */
  async visibleLines(name: EditorName): Promise<string[]> {
    return this.monaco(name)
      .locator('.view-lines .view-line')
      .evaluateAll((lines) =>
        lines
          .map((l) => ({
            top: parseFloat((l as HTMLElement).style.top),
            text: (l.textContent ?? '').replace(/\u00a0/g, ' '),
          }))
          .sort((a, b) => a.top - b.top)
          .map((l) => l.text),
      );
  }

  /** Line numbers that carry a marker of a severity in the editor's gutter. */
  async markerLines(name: EditorName, severity: MarkerSeverity = 'error'): Promise<number[]> {
    return this.monaco(name)
      .locator('.margin-view-overlays > div')
      .evaluateAll(
        (rows, cls) =>
          rows
            .filter((row) => row.querySelector(`.${cls}`))
            .map((row) => Number(row.querySelector('.line-numbers')?.textContent ?? NaN))
            .sort((a, b) => a - b),
        `wb-line-marker--${severity}`,
      );
  }

  /** Waits until an editor shows a marker of a severity on `line`. */
  async waitMarker(name: EditorName, line: number, severity: MarkerSeverity = 'error'): Promise<void> {
    await this.page.waitForFunction(
      ({ testId, line, cls }) =>
        [...document.querySelectorAll(`[data-testid="${testId}"] .margin-view-overlays > div`)].some(
          (row) =>
            row.querySelector(`.${cls}`) && row.querySelector('.line-numbers')?.textContent === String(line),
        ),
      { testId: `editor.monaco.${name}`, line, cls: `wb-line-marker--${severity}` },
    );
  }

  /** The hover text Monaco shows for the squiggle on a line (the mouse rests on the squiggle, as a user's would). */
  async hoverMarker(name: EditorName, line: number): Promise<string> {
    const box = await this.monaco(name).evaluate((root, wanted) => {
      const row = [...root.querySelectorAll('.margin-view-overlays > div')].find(
        (r) => r.querySelector('.line-numbers')?.textContent === String(wanted),
      ) as HTMLElement | undefined;
      if (!row) return null;
      const top = row.getBoundingClientRect().top;
      const squiggle = [...root.querySelectorAll('.view-overlays .squiggly-error')].find(
        (s) => Math.abs(s.getBoundingClientRect().top - top) < 2,
      );
      if (!squiggle) return null;
      const r = squiggle.getBoundingClientRect();
      return { x: r.left + Math.min(r.width / 2, 20), y: r.top + r.height / 2 };
    }, line);
    if (!box) throw new Error(`No error squiggle on line ${line}.`);
    await this.page.mouse.move(box.x, box.y);
    const hover = this.page.locator('.monaco-hover:not(.hidden)').filter({ hasText: /\S/ }).first();
    await hover.waitFor();
    return (await hover.textContent()) ?? '';
  }

  /** Opens the problems list if it is folded (it folds itself when there are only warnings and notes). */
  async expandProblems(): Promise<void> {
    const toggle = this.page.getByTestId('workbench.problemsSummary');
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  }

  /** The problems list, as "severity|place|message" lines. */
  async problemTexts(): Promise<string[]> {
    return this.problemItems.evaluateAll((items) =>
      items.map((i) => (i.textContent ?? '').replace(/\s+/g, ' ').trim()),
    );
  }

  /** Switches the questions pane between the JSON editor and the form. */
  async questionsView(view: 'JSON' | 'Form'): Promise<void> {
    await this.page
      .getByTestId('workbench.questionsView')
      .getByRole('radio', { name: view, exact: true })
      .check();
  }
}
