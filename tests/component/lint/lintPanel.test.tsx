// The lint panel as a new user meets it on the main screen: explained warnings with fixes that change the editors'
// text, the lint mode of compare mode, the gateway rewrite and the Paste request dialog.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { checkDoc } from '../../../src/core/runDraft';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { exampleDoc } from '../../../src/core/example';
import { newUserDoc, renderWorkbench } from './workbenchHarness';

const problemItems = () => screen.getAllByTestId('workbench.problem');

describe('lint panel on the main screen', () => {
  it('shows three explained warnings with fixes for numeric levels, an unused field and a missing field', async () => {
    const user = userEvent.setup();
    const { questionsBox, stateBox } = renderWorkbench(newUserDoc());
    const summary = screen.getByTestId('workbench.problemsSummary');
    expect(summary).toHaveTextContent('3 warnings');
    await user.click(summary);

    const items = problemItems();
    expect(items.map((i) => i.dataset.source)).toEqual([
      'state/unused-field',
      'state/missing-field',
      'score/numeric-level',
    ]);
    for (const item of items) {
      expect(item.dataset.severity).toBe('warning');
      expect(within(item).getByText(item.dataset.source!)).toBeInTheDocument();
      // The explanation is there on demand.
      expect(within(item).queryByTestId('lint.explanation')).toBeNull();
      const why = within(item).getByRole('button', { name: 'Why?' });
      await user.click(why);
      expect(why).toHaveAttribute('aria-expanded', 'true');
      expect(within(item).getByTestId('lint.explanation').textContent!.length).toBeGreaterThan(40);
      expect(within(item).getByTestId('lint.fix')).toBeInTheDocument();
    }
    expect(within(items[0]!).getByTestId('lint.explanation')).toHaveTextContent('billed as input');

    // Each fix changes the editor it belongs to.
    await user.click(within(items[2]!).getByTestId('lint.fix'));
    expect(questionsBox().value).not.toContain('"1"');
    expect(JSON.parse(questionsBox().value).frustration.criteria).toHaveLength(3);
    await user.click(within(problemItems()[0]!).getByTestId('lint.fix'));
    expect(JSON.parse(stateBox().value)).toEqual({ message: 'My payouts failed.', plan: 'pro' });
    await user.click(within(problemItems()[0]!).getByTestId('lint.fix'));
    expect(JSON.parse(stateBox().value)).toEqual({ message: 'My payouts failed.', plan: 'pro', tier: null });
    expect(summary).toHaveTextContent('No problems found');
  });

  it('reveals a finding’s line in its editor', async () => {
    const user = userEvent.setup();
    const { questionsBox } = renderWorkbench(newUserDoc());
    await user.click(screen.getByTestId('workbench.problemsSummary'));
    const numeric = problemItems()[2]!;
    const place = within(numeric).getByRole('button', { name: /^questions, line \d+$/ });
    await user.click(place);
    const line = Number(/line (\d+)/.exec(place.textContent!)![1]);
    const caretLine = questionsBox().value.slice(0, questionsBox().selectionStart).split('\n').length;
    expect(caretLine).toBe(line);
    expect(questionsBox().value.split('\n')[line - 1]).toContain('"criteria"');
  });

  it('warns about an alias only when comparing or running a file (the lint mode follows the screen)', () => {
    const doc = { ...exampleDoc(), model: 'model-latest' };
    const rules = (mode: Parameters<typeof checkDoc>[3]) =>
      checkDoc(doc, ['model-latest'], [], mode).problems.map((p) => p.source);
    expect(rules({ mode: 'single' })).not.toContain('model/alias-pinning');
    expect(rules({ mode: 'compare', models: ['model-1.13.0', 'model-preview'] })).toContain(
      'model/alias-pinning',
    );
    expect(rules({ mode: 'compare', models: ['model-1.13.0', 'model-1.14.0'] })).not.toContain(
      'model/alias-pinning',
    );
    expect(rules({ mode: 'rows', models: ['model-latest'] })).toContain('model/alias-pinning');
  });
});

const GATEWAY_REQUEST = {
  model: 'vendor/model-1.13.0',
  state: { message: 'Refund me now, this is the third time!' },
  metadata: { trace: 'abc' },
  questions: {
    is_urgent: { type: 'boolean', instructions: 'Does the `message` convey urgency?' },
    team: { type: 'choice', instructions: 'Which team?', criteria: { billing: null, technical: null } },
  },
};

describe('gateway samples', () => {
  it('offers the rewrite of a gateway request pasted into the questions editor, and applies it in one click', async () => {
    const user = userEvent.setup();
    const { questionsBox, stateBox } = renderWorkbench(exampleDoc());
    expect(screen.queryByTestId('lint.gateway')).toBeNull();
    act(() => useWorkbench.getState().setQuestionsText(JSON.stringify(GATEWAY_REQUEST, null, 2)));

    const offer = await screen.findByTestId('lint.gateway');
    const problems = within(offer)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(problems).toEqual([
      'The model "vendor/model-1.13.0" is a gateway id; the direct service calls it "model-1.13.0".',
      'Question "is_urgent" uses the gateway type "boolean"; the direct service calls it "noul".',
      'The field "metadata" is not part of a direct request (only state, model, questions); it was dropped.',
    ]);
    await user.click(within(offer).getByRole('button', { name: 'Rewrite to the direct form' }));

    expect(JSON.parse(questionsBox().value)).toEqual({
      ...GATEWAY_REQUEST.questions,
      is_urgent: { ...GATEWAY_REQUEST.questions.is_urgent, type: 'noul' },
    });
    expect(JSON.parse(stateBox().value)).toEqual(GATEWAY_REQUEST.state);
    expect(useWorkbench.getState().doc.stateMode).toBe('json');
    expect(useWorkbench.getState().doc.model).toBe('model-1.13.0');
    expect(screen.queryByTestId('lint.gateway')).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('workbench.problemsSummary')).toHaveTextContent('No problems found'),
    );
  });

  it('loads a curl command from the Paste request dialog, listing what the rewrite changes first', async () => {
    const user = userEvent.setup();
    const { questionsBox, stateBox } = renderWorkbench(exampleDoc());
    await user.click(screen.getByRole('button', { name: 'Paste request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Paste a request' });
    const load = within(dialog).getByRole('button', { name: 'Load into the editors' });
    expect(load).toBeDisabled();

    const curl = `curl -X POST https://gateway.example.com/v1/evaluate -H 'Authorization: Bearer $KEY' -d '${JSON.stringify({ ...GATEWAY_REQUEST, state: 'Where is my parcel?' })}'`;
    // The dialog puts the caret in its text box. (No click: in jsdom every box sits at 0,0 and the resizable panes
    // take a click anywhere for one on their handle.)
    expect(within(dialog).getByRole('textbox')).toHaveFocus();
    await user.paste(curl);
    expect(within(dialog).getByTestId('lint.pasteStatus')).toHaveTextContent(
      'Found 2 questions, model model-1.13.0 and a state. Rewritten to the direct form:',
    );
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(3);
    await user.click(load);

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.parse(questionsBox().value).is_urgent.type).toBe('noul');
    expect(stateBox().value).toBe('Where is my parcel?');
    expect(useWorkbench.getState().doc.stateMode).toBe('text');
    expect(useWorkbench.getState().doc.model).toBe('model-1.13.0');
  });

  it('says why pasted text is not a request', async () => {
    const user = userEvent.setup();
    renderWorkbench(exampleDoc());
    await user.click(screen.getByRole('button', { name: 'Paste request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Paste a request' });
    expect(within(dialog).getByRole('textbox')).toHaveFocus();
    await user.paste('{"state": "x", "model": "model-latest"}');
    expect(within(dialog).getByTestId('lint.pasteStatus')).toHaveTextContent('no "questions" map');
    await user.clear(within(dialog).getByRole('textbox'));
    await user.paste('hello');
    expect(within(dialog).getByTestId('lint.pasteStatus')).toHaveTextContent('No JSON object found');
    expect(within(dialog).getByRole('button', { name: 'Load into the editors' })).toBeDisabled();
  });
});
