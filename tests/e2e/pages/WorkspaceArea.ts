// Page object of the team workspace screen: start it, invite, publish a rows run as a queue, join by a link, label a
// queue with the keyboard, read the owner's live figures, export and import labels.
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';

export class WorkspaceArea {
  readonly screen: Locator;
  readonly me: Locator;
  /** The labeller's card: the row to label, focused, answering to the option keys. */
  readonly card: Locator;
  readonly cardState: Locator;
  readonly progress: Locator;
  /** The line saying how many labels this browser keeps until the workspace acknowledges them. */
  readonly pending: Locator;
  readonly offline: Locator;
  readonly figuresLabels: Locator;
  readonly live: Locator;

  constructor(readonly page: Page) {
    this.screen = page.getByTestId('workspace.screen');
    this.me = page.getByTestId('workspace.me');
    this.card = page.getByTestId('workspace.label');
    this.cardState = page.getByTestId('workspace.label.state');
    this.progress = page.getByTestId('workspace.label.progress');
    this.pending = page.getByTestId('workspace.label.pending');
    this.offline = page.getByTestId('workspace.label.offline');
    this.figuresLabels = page.getByTestId('workspace.figures.labels');
    this.live = page.getByTestId('workspace.figures.live');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('app.nav.workspace').click();
    await this.screen.waitFor();
  }

  /** Starts the workspace as its owner and puts the one-time owner link away; returns it. */
  async start(): Promise<string> {
    await this.page.getByTestId('workspace.start.button').click();
    const link = await this.page.getByTestId('workspace.ownerLink.value').inputValue();
    await this.page.getByRole('button', { name: 'I have kept it' }).click();
    return link;
  }

  /** Makes an invite link for `note` and returns it (a new one: each invite works once). */
  async invite(note: string): Promise<string> {
    const link = this.page.getByTestId('workspace.invite.link');
    const before = (await link.count()) > 0 ? await link.inputValue() : '';
    await this.page.getByTestId('workspace.invite.note').fill(note);
    await this.page.getByTestId('workspace.invite.create').click();
    await this.page.waitForFunction((old) => {
      const input = document.querySelector<HTMLInputElement>('[data-testid="workspace.invite.link"]');
      return input !== null && input.value !== '' && input.value !== old;
    }, before);
    return link.inputValue();
  }

  /** Publishes the rows run open on the rows screen as a queue for `perRow` people, any of them. */
  async publish(name: string, perRow: number): Promise<void> {
    await this.page.getByTestId('workspace.publish.name').fill(name);
    await this.page.getByTestId('workspace.publish.perRow').selectOption(String(perRow));
    await this.page.getByTestId('workspace.publish.any').check();
    await this.page.getByTestId('workspace.publish.button').click();
    await this.queue(name).waitFor();
  }

  queue(name: string): Locator {
    return this.page.getByTestId(`workspace.queue.${name}`);
  }

  /** Joins from the invite link the page was opened at, with a name. */
  async join(name: string): Promise<void> {
    await this.page.getByTestId('workspace.join.name').fill(name);
    await this.page.getByTestId('workspace.join.button').click();
    await this.me.waitFor();
  }

  /** Opens a queue to label it (a labeller) and waits for the first row. */
  async openToLabel(queue: string): Promise<void> {
    await this.page.getByTestId(`workspace.queue.${queue}.label`).click();
    await this.card.waitFor();
  }

  /** Opens a queue's figures and disagreements (the owner). */
  async openFigures(queue: string): Promise<void> {
    await this.page.getByTestId(`workspace.queue.${queue}.figures`).click();
    await this.figuresLabels.waitFor();
  }

  /** A question's trust sentence: `ceiling`, `verdict` (the alt-test) or `threshold`. */
  trust(question: string, part: 'ceiling' | 'verdict' | 'threshold'): Locator {
    return this.page.getByTestId(`workspace.trust.${part}.${question}`);
  }

  /** How many labels the owner's figures count so far, from their first sentence. */
  async labelsCounted(): Promise<number> {
    const text = (await this.figuresLabels.textContent()) ?? '';
    return Number(/^(\d+) labels? so far/.exec(text)?.[1] ?? NaN);
  }

  /** Exports the open queue in `format` and returns the downloaded text. */
  async export(format: 'csv' | 'labelstudio' | 'argilla'): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId(`workspace.export.${format}`).click(),
    ]);
    return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
  }

  /** Imports a file of labels into the open queue and returns the import's report. */
  async import(format: 'csv' | 'labelstudio' | 'argilla', name: string, text: string): Promise<string> {
    await this.page.getByTestId('workspace.import.format').selectOption(format);
    await this.page
      .getByTestId('workspace.import.file')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text, 'utf8') });
    const report = this.page.getByTestId('workspace.import.report');
    await report.waitFor();
    return (await report.textContent()) ?? '';
  }
}
