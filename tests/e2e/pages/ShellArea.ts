// Page object of the app shell: the target picker, the model list and the local-only banner.
import type { Locator, Page } from 'playwright-core';

/** A target as the picker shows it. */
export interface PickerOption {
  id: string;
  label: string;
}

export class ShellArea {
  readonly targets: Locator;
  readonly targetKind: Locator;
  readonly models: Locator;
  readonly modelsError: Locator;
  /** The sentence of a target that lists no models. */
  readonly modelsUnlisted: Locator;
  readonly banner: Locator;
  readonly targetsError: Locator;

  constructor(readonly page: Page) {
    this.targets = page.getByTestId('shell.targets');
    this.targetKind = page.getByTestId('shell.targetKind');
    this.models = page.getByTestId('shell.model');
    this.modelsError = page.getByTestId('shell.modelsError');
    this.modelsUnlisted = page.getByTestId('shell.modelsUnlisted');
    this.banner = page.getByTestId('shell.banner');
    this.targetsError = page.getByTestId('shell.targetsError');
  }

  /** Waits until the target list has loaded. */
  async waitReady(): Promise<void> {
    await this.targets.waitFor();
  }

  /** Every target in the picker, in order. */
  async targetOptions(): Promise<PickerOption[]> {
    return this.targets
      .locator('option')
      .evaluateAll((options) =>
        options.map((o) => ({ id: (o as HTMLOptionElement).value, label: o.textContent ?? '' })),
      );
  }

  /** The selected target's id. */
  selectedTarget(): Promise<string> {
    return this.targets.inputValue();
  }

  async selectTarget(id: string): Promise<void> {
    await this.targets.selectOption(id);
  }

  /** The selected target's model names, once they are listed. */
  async modelNames(): Promise<string[]> {
    await this.models.first().waitFor();
    return this.models.allTextContents();
  }
}
