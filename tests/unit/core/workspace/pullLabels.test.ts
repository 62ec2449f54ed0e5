// A queue's labels brought back into the run it was published from: matched by the published key, each person an
// annotator, only what differs returned, and what the run cannot hold counted.
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import type { StoredLabel } from '../../../../src/contract/workspace';
import { applyLabelEdits } from '../../../../src/core/labels/labelEdits';
import type { ResultRow } from '../../../../src/core/rows/results';
import { publishedRows } from '../../../../src/core/workspace/publish';
import { pullLabels, pulledSentence } from '../../../../src/core/workspace/pullLabels';

const questions: Questions = {
  department: { type: 'choice', criteria: { billing: 'Payments', technical: 'Bugs' } },
};
const rows: ResultRow[] = [
  { number: 0, line: 2, id: 't0', data: { id: 't0', text: 'refund me' } },
  { number: 1, line: 3, id: '', data: { text: 'it crashes' } },
];
const label = (key: string, name: string, value: string, question = 'department'): StoredLabel => ({
  row: 0,
  key,
  question,
  person: `p_${name}`,
  name,
  value,
  clientId: `${key}-${name}`,
  at: '2026-11-29T00:00:00.000Z',
  editedAt: null,
  seconds: 3,
  source: 'workspace',
});

describe('pulling a queue’s labels into its run', () => {
  it('matches rows by the key publishing gave them (the id, else the number) and names each person', () => {
    const keys = publishedRows(
      rows,
      { mode: 'text', column: 'text', idColumn: 'id', labels: [] },
      questions,
    ).rows.map((r) => r.key);
    expect(keys).toEqual(['t0', '1']);
    const pulled = pullLabels(
      [label('t0', 'Ana', 'billing'), label('1', 'Bo', 'technical'), label('t0', 'Bo', 'technical')],
      rows,
      questions,
    );
    expect(pulled.edits).toEqual([
      { number: 0, question: 'department', value: 'billing', annotator: 'Ana' },
      { number: 1, question: 'department', value: 'technical', annotator: 'Bo' },
      { number: 0, question: 'department', value: 'technical', annotator: 'Bo' },
    ]);
    expect(pulled).toMatchObject({ matched: 3, unmatched: 0, people: ['Ana', 'Bo'] });
  });

  it('returns nothing once the run holds the same labels, and an edit when a person changed theirs', () => {
    const first = pullLabels([label('t0', 'Ana', 'billing')], rows, questions);
    const held = { ...rows[0]!, ...applyLabelEdits({}, first.edits) };
    expect(held.annotations).toEqual({ department: { Ana: 'billing' } });
    expect(pullLabels([label('t0', 'Ana', 'billing')], [held], questions).edits).toEqual([]);
    expect(pullLabels([label('t0', 'Ana', 'technical')], [held], questions).edits).toEqual([
      { number: 0, question: 'department', value: 'technical', annotator: 'Ana' },
    ]);
  });

  it('counts labels of rows or questions the run does not have, and writes none of them', () => {
    const pulled = pullLabels(
      [label('t9', 'Ana', 'billing'), label('t0', 'Ana', 'yes', 'urgent')],
      rows,
      questions,
    );
    expect(pulled).toMatchObject({ edits: [], matched: 0, unmatched: 2, people: [] });
    expect(pulledSentence(pulled)).toBe(
      '0 labels from 0 people in this run, each their own; 2 on rows or questions this run does not have, left out.',
    );
  });
});
