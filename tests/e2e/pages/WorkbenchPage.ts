// Page object of the whole workbench: one area per part of the screen (shell now; editor, answers... as they land).
import type { Page } from 'playwright-core';
import { AnswersArea } from './AnswersArea';
import { EditorArea } from './EditorArea';
import { RubricToolsArea } from './RubricToolsArea';
import { ShellArea } from './ShellArea';

export class WorkbenchPage {
  readonly shell: ShellArea;
  readonly editor: EditorArea;
  readonly answers: AnswersArea;
  readonly tools: RubricToolsArea;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.shell = new ShellArea(page);
    this.editor = new EditorArea(page);
    this.answers = new AnswersArea(page);
    this.tools = new RubricToolsArea(page);
  }

  /** Opens the workbench and waits for the target list. */
  async open(path = '/'): Promise<void> {
    await this.page.goto(new URL(path, this.baseUrl).toString());
    await this.shell.waitReady();
  }
}
