// Label columns on the rows screen: a value table is cut at 50 distinct values (the rest one click away, never just
// counted), and one question takes several columns, one per annotator, each with its own value table.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect, it } from 'vitest';
import type { Questions } from '../../../src/contract';
import { LabelColumnsForm } from '../../../src/app/features/rows/LabelColumnsForm';
import { labelPlans, rowLabels } from '../../../src/core/rows/labels';
import { mapRow } from '../../../src/core/rows/mapping';
import type { RowMapping } from '../../../src/core/rows/mapping';

const questions: Questions = {
  department: { type: 'choice', instructions: 'Team?', criteria: { billing: null, technical: null } },
};
const mapping: RowMapping = {
  mode: 'text',
  column: 'text',
  idColumn: null,
  labels: [{ column: 'team', question: 'department', levelBase: 0, values: {} }],
};
const rows = Array.from({ length: 64 }, (_, i) => ({
  number: i + 1,
  line: i + 2,
  data: { text: `ticket ${i}`, team: `team-${i}` },
}));

it('lists every distinct value of a label column on request', async () => {
  const user = userEvent.setup();
  render(
    <LabelColumnsForm
      mapping={mapping}
      columns={['text', 'team']}
      questions={questions}
      plans={labelPlans(rows, mapping, questions)}
      onChange={() => {}}
    />,
  );
  const table = screen.getByTestId('rows.labels.values.department');
  expect(within(table).getAllByRole('row')).toHaveLength(51);
  expect(table).toHaveTextContent('14 more distinct values are not listed.');
  await user.click(within(table).getByRole('button', { name: 'List all 64 values' }));
  expect(within(table).getAllByRole('row')).toHaveLength(65);
  expect(table).not.toHaveTextContent('not listed');
});

it('maps several columns to one question, one per annotator, each with its own value table', async () => {
  const user = userEvent.setup();
  const several: Questions = {
    department: { type: 'choice', instructions: 'Team?', criteria: { billing: null, technical: null } },
  };
  const file = [
    { number: 1, line: 2, data: { text: 'refund', ann_a: 'billing', ann_b: 'tech', ann_c: 'billing' } },
    { number: 2, line: 3, data: { text: 'crash', ann_a: 'technical', ann_b: 'tech', ann_c: '' } },
  ];
  const seen: RowMapping[] = [];
  function Harness() {
    const [mapping, setMapping] = useState<RowMapping>({ mode: 'fields', idColumn: null });
    return (
      <LabelColumnsForm
        mapping={mapping}
        columns={['text', 'ann_a', 'ann_b', 'ann_c']}
        questions={several}
        plans={labelPlans(file, mapping, several)}
        onChange={(next) => {
          seen.push(next);
          setMapping(next);
        }}
      />
    );
  }
  render(<Harness />);
  const columnsOf = () => (seen.at(-1)?.labels ?? []).map((l) => `${l.question}:${l.column}`);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Human label of department' }), 'ann_a');
  // Nothing more is mapped until asked: the next select offers another annotator's column.
  expect(screen.queryByTestId('rows.labels.annotators.department')).toBeNull();
  await user.selectOptions(
    screen.getByRole('combobox', { name: 'Another annotator’s column for department' }),
    'ann_b',
  );
  await user.selectOptions(
    screen.getByRole('combobox', { name: 'Another annotator’s column for department' }),
    'ann_c',
  );
  expect(columnsOf()).toEqual(['department:ann_a', 'department:ann_b', 'department:ann_c']);
  expect(screen.getByTestId('rows.labels.annotators.department')).toHaveTextContent(
    '3 annotators (ann_a, ann_b, ann_c): a row’s label is their majority',
  );
  // A column is one annotator's only: annotator 2's select offers neither ann_a nor ann_c.
  const second = screen.getByRole('combobox', { name: 'Annotator 2’s column for department' });
  expect(
    within(second)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['None', 'text', 'ann_b']);
  const tableB = screen.getByTestId('rows.labels.values.department.ann_b');
  expect(within(tableB).getByRole('heading')).toHaveTextContent(
    'ann_b as the label of department · annotator: ann_b',
  );
  expect(screen.getByTestId('rows.labels.counts.department.ann_c')).toHaveTextContent('1 rows labelled');

  // "tech" read as technical in ann_b's table only.
  await user.selectOptions(within(tableB).getByRole('combobox', { name: 'Read "tech" as' }), 'technical');
  const mapped = seen.at(-1)!;
  expect(mapped.labels?.map((l) => l.values)).toEqual([{}, { tech: 'technical' }, {}]);
  // The rows read each annotator's label apart, with the majority as the row's; no label column is in the state.
  expect(file.map((r) => rowLabels(r.data, mapped, several))).toEqual([
    {
      labels: { department: 'billing' },
      annotations: { department: { ann_a: 'billing', ann_b: 'technical', ann_c: 'billing' } },
    },
    {
      labels: { department: 'technical' },
      annotations: { department: { ann_a: 'technical', ann_b: 'technical' } },
    },
  ]);
  expect(file.map((r) => mapRow(r.data, mapped))).toEqual([
    { ok: true, state: { text: 'refund' } },
    { ok: true, state: { text: 'crash' } },
  ]);

  // None takes annotator 2 away; the others keep their order.
  await user.selectOptions(second, '');
  expect(columnsOf()).toEqual(['department:ann_a', 'department:ann_c']);
  expect(screen.queryByTestId('rows.labels.values.department.ann_b')).toBeNull();
});
