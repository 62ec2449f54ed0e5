// A row opened in the main screen is asked as the run asked it: its state, the run's questions, model and target.
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { docOfRow } from '../../../../src/core/rows/rowDoc';

const questions: Questions = { urgent: { type: 'noul', instructions: 'Urgent?' } };
const run = { questions, model: 'model-1.13.0', targetId: 'decisions' };

describe('a row as the main screen’s document', () => {
  it('takes the run’s questions, model and target, and the state without labels', () => {
    const doc = docOfRow(
      { id: 't1', text: 'Charged twice', urgent: 'yes' },
      { ...run, mapping: { mode: 'text', column: 'text', idColumn: 'id' } },
    );
    expect(doc).toEqual({
      stateMode: 'text',
      stateText: 'Charged twice',
      questionsText: `${JSON.stringify(questions, null, 2)}\n`,
      model: 'model-1.13.0',
      targetId: 'decisions',
    });
    const fields = docOfRow(
      { id: 't1', text: 'Charged twice', urgent: 'yes' },
      {
        ...run,
        mapping: {
          mode: 'fields',
          idColumn: 'id',
          labels: [{ column: 'urgent', question: 'urgent', levelBase: 0, values: {} }],
        },
      },
    );
    expect(fields?.stateMode).toBe('json');
    expect(JSON.parse(fields!.stateText)).toEqual({ text: 'Charged twice' });
  });

  it('keeps a conversation a conversation, with the run’s rendering rule', () => {
    const chat = [{ role: 'user', content: 'Where is my refund?' }];
    const doc = docOfRow(
      { chat: JSON.stringify(chat) },
      {
        ...run,
        mapping: { mode: 'conversation', column: 'chat', rule: { kind: 'transcript' }, idColumn: null },
      },
    );
    expect(doc?.stateMode).toBe('conversation');
    expect(doc?.conversationRule).toEqual({ kind: 'transcript' });
    expect(doc?.stateText).toContain('Where is my refund?');
    expect(
      docOfRow({ text: '' }, { ...run, mapping: { mode: 'text', column: 'text', idColumn: null } }),
    ).toBeNull();
  });
});
