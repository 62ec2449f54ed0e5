// The state pane in conversation mode: the mode switch, Paste a transcript, the chat view and the rendering rule.
import type { Locator, Page } from 'playwright-core';

export class ConversationArea {
  readonly bar: Locator;
  readonly found: Locator;
  readonly turns: Locator;

  constructor(readonly page: Page) {
    this.bar = page.getByTestId('conversation.bar');
    this.found = page.getByTestId('conversation.found');
    this.turns = page.getByTestId('conversation.turn');
  }

  /** Switches the state pane to Conversation. */
  async choose(): Promise<void> {
    await this.page.getByTestId('workbench.stateMode').getByRole('radio', { name: 'Conversation' }).check();
    await this.bar.waitFor();
  }

  /** Pastes a transcript through the dialog and waits for the sentence of what was found. */
  async paste(text: string): Promise<string> {
    await this.page.getByTestId('conversation.paste').click();
    const box = this.page.getByTestId('conversation.pasteText');
    await box.fill(text);
    await this.page.getByRole('button', { name: 'Use as the state' }).click();
    await this.found.waitFor();
    return (await this.found.locator('span').first().textContent()) ?? '';
  }

  /** Shows the chat view (or the JSON). */
  async view(which: 'Chat' | 'JSON'): Promise<void> {
    await this.page.getByTestId('conversation.view').getByRole('radio', { name: which }).check();
  }

  async isChosen(): Promise<boolean> {
    return this.page
      .getByTestId('workbench.stateMode')
      .getByRole('radio', { name: 'Conversation' })
      .isChecked();
  }
}
