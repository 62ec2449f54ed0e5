// The trust panel's prevalence as a person meets it: a run answered by the real reference over loopback, some rows
// labelled and some not, so PPI has both. The estimates say they rest on the judge's probabilities, the conventions
// say so too, and the panel's control switches them to the hard labels, which the sentences and conventions then name.
import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { Questions } from '../../../src/contract';
import { abortableSleep, evaluate } from '../../../src/client';
import { newId } from '../../../src/core/ids';
import type { RowItem, RowRun } from '../../../src/core/rows/records';
import { TRUST_OPTION_DEFAULTS } from '../../../src/core/alignment/types';
import { WorkbenchDb } from '../../../src/app/persistence/db';
import { RowsRepo } from '../../../src/app/persistence/rowsRepo';
import { createInlineParser } from '../../../src/app/workers/rowsParser';
import { createRowsStore } from '../../../src/app/stores/rows';
import type * as RowsStoreModule from '../../../src/app/stores/rows';
import { useAlignment } from '../../../src/app/features/alignment/alignmentStore';
import { serveReference } from '../../../src/server/reference/serve';
import type { RunningReference } from '../../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { storedRun } from '../../helpers/fixtures';
import { freshDbName } from '../../unit/app/persistence/dbHelpers';

// The screen reads the app's rows store; the test gives it a store over its own database and the test reference.
const holder = vi.hoisted(() => ({ store: null as unknown }));
vi.mock('../../../src/app/stores/rows', async (importOriginal) =>
  (await import('../../helpers/heldRowsStore')).heldRowsStore(
    await importOriginal<typeof RowsStoreModule>(),
    holder,
  ),
);

const { AlignmentScreen } = await import('../../../src/app/features/alignment/AlignmentScreen');

let reference: RunningReference;
beforeAll(async () => {
  reference = await serveReference({ rpm: 1e9, tps: 1e12 });
});
afterAll(() => reference.close());

const questions: Questions = {
  department: {
    type: 'choice',
    instructions: 'Which team should answer?',
    criteria: { billing: 'Payments and refunds', technical: 'Crashes and bugs', sales: 'Prices and quotes' },
  },
};
const TICKETS: [string, string][] = [
  ['I was charged twice, please refund me', 'billing'],
  ['The app crashes when I open settings', 'technical'],
  ['How much is the yearly plan?', 'sales'],
  ['My card payment failed and I want my money back', 'billing'],
  ['Every export throws an error since the update', 'technical'],
  ['Can I get a quote for fifty seats?', 'sales'],
];
const LABELLED = 9;
const ROWS = 14;

const run: RowRun = storedRun({
  id: 'run-ppi',
  fileName: 'tickets.csv',
  columns: ['id', 'text', 'human'],
  questions,
  rowCount: ROWS,
  totalTokens: ROWS * 10,
  mapping: {
    mode: 'text',
    column: 'text',
    idColumn: 'id',
    labels: [{ column: 'human', question: 'department', levelBase: 0, values: {} }],
  },
});

const items = (): RowItem[] =>
  Array.from({ length: ROWS }, (_, i) => {
    const [text, dept] = TICKETS[i % TICKETS.length]!;
    const labelled = i < LABELLED;
    return {
      runId: run.id,
      number: i + 1,
      line: i + 2,
      id: `t${i + 1}`,
      data: { id: `t${i + 1}`, text: `${text} (#${i + 1})`, human: labelled ? dept : '' },
      tokens: 10,
      ...(labelled && { labels: { department: dept } }),
    };
  });

let db: WorkbenchDb;
beforeEach(() => {
  db = new WorkbenchDb(freshDbName());
  useAlignment.setState({ view: 'figures', labeller: '', history: [], revealed: false, labelQuestion: null });
  useAlignment.getState().setTrust({ ...TRUST_OPTION_DEFAULTS });
});
afterEach(async () => {
  db.close();
  await db.delete();
});

it('estimates prevalence from the judge’s probabilities, says so, and switches to the hard labels', async () => {
  await new RowsRepo(db).createRun(run, items());
  const store = createRowsStore({
    repo: new RowsRepo(db),
    parser: createInlineParser,
    evaluate,
    clock: { now: () => Date.now(), sleep: abortableSleep },
    targetFor: () => ({ baseUrl: reference.url, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } }),
    newId,
    flushMs: 20,
  });
  holder.store = store;
  await store.getState().openRunById(run.id);
  await store.getState().start();
  expect(store.getState().progress).toMatchObject({ done: ROWS, pending: 0 });

  const user = userEvent.setup();
  render(<AlignmentScreen targetId="local" onOpenInWorkbench={() => {}} onOpenRows={() => {}} />);
  const estimates = await screen.findByTestId('align.trust.estimates.department', {}, { timeout: 20_000 });
  const sentences = () =>
    within(estimates)
      .getAllByRole('listitem')
      .map((li) => li.textContent ?? '');
  // Nine labelled rows and five only the judge answered: each label's share, on its probability.
  expect(sentences()).toHaveLength(3);
  for (const s of sentences())
    expect(s).toMatch(
      /^Share of (billing|technical|sales): .* by prediction-powered inference on the judge's probabilities \(lambda \d\.\d\d, 9 labelled and 5 judge-only rows\).*the judge's mean probability is/,
    );
  const conventions = screen.getByText('Conventions of these figures').closest('details')!;
  expect(conventions).toHaveTextContent(
    "Prediction-powered prevalence and mean: the judge's probabilities stand for it",
  );

  const control = screen.getByTestId('align.trust.ppiPredictor');
  expect(control).toHaveValue('probability');
  await user.selectOptions(control, 'label');
  await waitFor(
    () =>
      expect(screen.getByTestId('align.trust.estimates.department')).toHaveTextContent(
        "on the judge's hard labels",
      ),
    { timeout: 20_000 },
  );
  const hard = within(screen.getByTestId('align.trust.estimates.department'))
    .getAllByRole('listitem')
    .map((li) => li.textContent ?? '');
  for (const s of hard) {
    expect(s).toMatch(/by prediction-powered inference on the judge's hard labels \(lambda/);
    expect(s).toMatch(/the judge's raw share is/);
  }
  expect(screen.getByText('Conventions of these figures').closest('details')!).toHaveTextContent(
    "Prediction-powered prevalence and mean: the judge's hard labels stand for it",
  );
});
