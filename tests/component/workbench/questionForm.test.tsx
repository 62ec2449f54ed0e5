// The question form and the JSON text stay in sync both ways, and the form's edits leave untouched text as it was.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorEngineProvider } from '../../../src/app/editor';
import { QuestionsPane } from '../../../src/app/features/workbench/QuestionsPane';
import { useLayout } from '../../../src/app/stores/layout';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { exampleDoc } from '../../../src/core/example';
import { QuestionsSchema } from '../../../src/contract';

// Hand-formatted: compact arrays, aligned keys, a blank line. The form must not reformat what it does not edit.
const TEXT = `{
  "tone":   { "type": "score", "instructions": "How warm is it?", "criteria": ["Cold", "Neutral", "Warm"] },

  "team": {
    "type": "choice",
    "instructions": "Which team?",
    "criteria": { "billing": "Payments", "tech": null }
  },
  "urgent": { "type": "noul", "instructions": "Is it urgent?" }
}
`;

const text = (): string => useWorkbench.getState().doc.questionsText;
const parsed = (): Record<string, Record<string, unknown>> => JSON.parse(text());

function renderPane(view: 'json' | 'form' = 'form') {
  useWorkbench.setState({ doc: { ...exampleDoc(), questionsText: TEXT }, runs: [], current: null });
  useLayout.setState({ questionsView: view });
  return render(
    <EditorEngineProvider value="plain">
      <QuestionsPane markers={[]} syntax={null} stateFields={[]} onRun={() => {}} reveal={null} />
    </EditorEngineProvider>,
  );
}

const question = (name: string) =>
  screen.getAllByTestId('form.question').find((q) => q.dataset.name === name)!;

beforeEach(() => useLayout.setState({ questionsView: 'form' }));
afterEach(() => useWorkbench.setState({ doc: exampleDoc() }));

describe('form to JSON', () => {
  it('editing instructions changes only that value in the text', async () => {
    renderPane();
    const box = within(question('team')).getByRole('textbox', { name: 'Instructions' });
    await userEvent.clear(box);
    await userEvent.type(box, 'Which team should answer?');
    expect(text()).toBe(TEXT.replace('"Which team?"', '"Which team should answer?"'));
  });

  it('reorders questions with the move buttons, keeping each question and the blank line as written', async () => {
    renderPane();
    await userEvent.click(screen.getByRole('button', { name: 'Move urgent up' }));
    expect(Object.keys(parsed())).toEqual(['tone', 'urgent', 'team']);
    expect(text()).toContain(
      '"tone":   { "type": "score", "instructions": "How warm is it?", "criteria": ["Cold", "Neutral", "Warm"] },\n\n',
    );
    expect(screen.getAllByTestId('form.question').map((q) => q.dataset.name)).toEqual([
      'tone',
      'urgent',
      'team',
    ]);
    expect(screen.getByRole('button', { name: 'Move tone up' })).toBeDisabled();
  });

  it('removes a question and leaves the others byte for byte', async () => {
    renderPane();
    await userEvent.click(screen.getByRole('button', { name: 'Remove team' }));
    expect(Object.keys(parsed())).toEqual(['tone', 'urgent']);
    expect(text()).toContain('"urgent": { "type": "noul", "instructions": "Is it urgent?" }');
    expect(text()).toContain('"criteria": ["Cold", "Neutral", "Warm"]');
  });

  it('adds a question of each kind with valid starting content and focuses its name', async () => {
    renderPane();
    await userEvent.click(screen.getByRole('button', { name: '+ score' }));
    expect(Object.keys(parsed())).toEqual(['tone', 'team', 'urgent', 'score_question']);
    expect(QuestionsSchema.safeParse(parsed()).success).toBe(true);
    expect(within(question('score_question')).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: '+ choice' }));
    await userEvent.click(screen.getByRole('button', { name: '+ yes/no (noul)' }));
    expect(Object.keys(parsed())).toEqual([
      'tone',
      'team',
      'urgent',
      'score_question',
      'choice_question',
      'noul_question',
    ]);
    expect(QuestionsSchema.safeParse(parsed()).success).toBe(true);
  });

  it('renames a question on Enter, and refuses a name already taken without touching the text', async () => {
    renderPane();
    const name = within(question('tone')).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'team{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('"team" is already a question name here.');
    expect(text()).toBe(TEXT);
    await userEvent.clear(name);
    await userEvent.type(name, 'warmth{Enter}');
    expect(text()).toBe(TEXT.replace('"tone":   {', '"warmth":   {'));
  });

  it('edits choice options: rename, describe, clear to null, add, reorder, remove', async () => {
    renderPane();
    const team = question('team');
    const label = within(team).getByRole('textbox', { name: 'Label 2 of team' });
    await userEvent.clear(label);
    await userEvent.type(label, 'technical');
    await userEvent.tab();
    expect(parsed().team!.criteria).toEqual({ billing: 'Payments', technical: null });
    await userEvent.type(
      within(question('team')).getByRole('textbox', { name: 'Description of technical' }),
      'Bugs',
    );
    expect(parsed().team!.criteria).toEqual({ billing: 'Payments', technical: 'Bugs' });
    await userEvent.clear(within(question('team')).getByRole('textbox', { name: 'Description of billing' }));
    expect(parsed().team!.criteria).toEqual({ billing: null, technical: 'Bugs' });
    await userEvent.click(within(question('team')).getByRole('button', { name: '+ option' }));
    expect(Object.keys(parsed().team!.criteria as object)).toEqual(['billing', 'technical', 'option']);
    expect(within(question('team')).getByRole('textbox', { name: 'Label 3 of team' })).toHaveFocus();
    await userEvent.click(within(question('team')).getByRole('button', { name: 'Move option option up' }));
    expect(Object.keys(parsed().team!.criteria as object)).toEqual(['billing', 'option', 'technical']);
    await userEvent.click(within(question('team')).getByRole('button', { name: 'Remove option billing' }));
    expect(Object.keys(parsed().team!.criteria as object)).toEqual(['option', 'technical']);
    expect(within(question('team')).getByText('2 labels (2–255)')).toBeInTheDocument();
  });

  it('edits score levels in place, compact array kept compact', async () => {
    renderPane();
    const tone = question('tone');
    await userEvent.click(within(tone).getByRole('button', { name: '+ level' }));
    expect(text()).toContain('["Cold", "Neutral", "Warm", ""]');
    await userEvent.type(within(question('tone')).getByRole('textbox', { name: 'Level 3 of tone' }), 'Hot');
    expect(text()).toContain('["Cold", "Neutral", "Warm", "Hot"]');
    await userEvent.click(within(question('tone')).getByRole('button', { name: 'Move level 0 down' }));
    expect(text()).toContain('["Neutral", "Cold", "Warm", "Hot"]');
    await userEvent.click(within(question('tone')).getByRole('button', { name: 'Remove level 1' }));
    expect(text()).toContain('["Neutral", "Warm", "Hot"]');
  });

  it('sets and clears what yes and no mean on a noul question', async () => {
    renderPane();
    await userEvent.type(
      within(question('urgent')).getByRole('textbox', { name: 'Yes means' }),
      'Time-sensitive',
    );
    expect(parsed().urgent!.criteria).toEqual({ true: 'Time-sensitive' });
    await userEvent.clear(within(question('urgent')).getByRole('textbox', { name: 'Yes means' }));
    expect(parsed().urgent!.criteria).toEqual({});
  });

  it('switches a question to another kind with criteria that kind accepts', async () => {
    renderPane();
    await userEvent.selectOptions(within(question('tone')).getByRole('combobox', { name: 'Type' }), 'choice');
    expect(parsed().tone).toEqual({
      type: 'choice',
      instructions: 'How warm is it?',
      criteria: { Cold: null, Neutral: null, Warm: null },
    });
    expect(within(question('tone')).getByTestId('form.options')).toBeInTheDocument();
  });
});

describe('JSON to form', () => {
  it('what is typed in the JSON view shows in the form', async () => {
    renderPane('json');
    const editor = screen.getByRole('textbox', { name: 'Questions, JSON' });
    await userEvent.clear(editor);
    // userEvent treats { and [ as key descriptors; doubling them types the characters.
    await userEvent.type(editor, '{{"fresh": {{"type": "score", "criteria": [["low", "high"]}}');
    await userEvent.click(screen.getByRole('radio', { name: 'Form' }));
    const fresh = question('fresh');
    expect(within(fresh).getByRole('textbox', { name: 'Level 0 of fresh' })).toHaveValue('low');
    expect(within(fresh).getByRole('textbox', { name: 'Level 1 of fresh' })).toHaveValue('high');
    expect(within(fresh).getByRole('combobox', { name: 'Type' })).toHaveValue('score');
  });

  it('a later change of the text (a quick fix, a restored session) redraws the form', () => {
    renderPane();
    act(() => useWorkbench.getState().setQuestionsText('{"only": {"type": "boolean"}}'));
    expect(screen.getAllByTestId('form.question').map((q) => q.dataset.name)).toEqual(['only']);
    expect(within(question('only')).getByRole('combobox', { name: 'Type' })).toHaveDisplayValue(
      'boolean (not a type)',
    );
  });

  it('malformed JSON: the form says so and offers the JSON view; nothing is lost', async () => {
    renderPane();
    const broken = '{\n  "a": {"type": "noul"}\n  "b": 1\n}';
    act(() => useWorkbench.getState().setQuestionsText(broken));
    expect(screen.getByTestId('form.blocked')).toHaveTextContent('line 3, column 3: a comma is missing');
    await userEvent.click(screen.getByRole('button', { name: 'Show the JSON' }));
    expect(screen.getByRole('textbox', { name: 'Questions, JSON' })).toHaveValue(broken);
    expect(text()).toBe(broken);
  });
});

describe('keyboard', () => {
  it('every control of a question is named and reachable with Tab, in reading order', async () => {
    renderPane();
    const urgent = question('urgent');
    const controls = [
      ...within(urgent).getAllByRole('button'),
      ...within(urgent).getAllByRole('textbox'),
      ...within(urgent).getAllByRole('combobox'),
    ];
    controls.forEach((c) => expect(c).toHaveAccessibleName());
    const expected = [
      within(urgent).getByRole('combobox', { name: 'Type' }),
      within(urgent).getByRole('button', { name: 'Move urgent up' }),
      // "Move urgent down" is disabled (last question), so focus skips it.
      within(urgent).getByRole('button', { name: 'Remove urgent' }),
      within(urgent).getByRole('textbox', { name: 'Instructions' }),
      within(urgent).getByRole('textbox', { name: 'Yes means' }),
      within(urgent).getByRole('textbox', { name: 'No means' }),
    ];
    within(urgent).getByRole('textbox', { name: 'Name' }).focus();
    for (const element of expected) {
      await userEvent.tab();
      expect(document.activeElement).toBe(element);
    }
  });
});
