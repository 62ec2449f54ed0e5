// A label column's value table is cut at 50 distinct values: the rest are one click away, never just counted.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import type { Questions } from '../../../src/contract';
import { LabelColumnsForm } from '../../../src/app/features/rows/LabelColumnsForm';
import { labelPlans } from '../../../src/core/rows/labels';
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
