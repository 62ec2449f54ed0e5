// A labeller labelling blind on the alignment screen: a run answered by the real reference over loopback, a real rows
// store over fake-indexeddb, the name typed, labels given and undone with the keyboard. Each label is stored as that
// labeller's own beside the file's column and another labeller's, and neither the judge's answers nor the other
// labels are ever on the page; a reload (a new repo over the same database) finds them stored.
import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Questions } from '../../../src/contract';
import { abortableSleep, evaluate } from '../../../src/client';
import { newId } from '../../../src/core/ids';
import type { RowItem, RowRun } from '../../../src/core/rows/records';
import { WorkbenchDb } from '../../../src/app/persistence/db';
import { RowsRepo } from '../../../src/app/persistence/rowsRepo';
import { createInlineParser } from '../../../src/app/workers/rowsParser';
import { createRowsStore } from '../../../src/app/stores/rows';
import type * as RowsStoreModule from '../../../src/app/stores/rows';
import { useAlignment } from '../../../src/app/features/alignment/alignmentStore';
import { distributionText } from '../../../src/app/features/alignment/rowText';
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

const run: RowRun = storedRun({
  id: 'run-blind',
  fileName: 'tickets.csv',
  columns: ['id', 'text', 'human'],
  questions,
  rowCount: 3,
  totalTokens: 30,
  // The column "human" labels the department: its labels are never sent and never shown to a labeller.
  mapping: {
    mode: 'text',
    column: 'text',
    idColumn: 'id',
    labels: [{ column: 'human', question: 'department', levelBase: 0, values: {} }],
  },
});

const item = (n: number, text: string, extra: Partial<RowItem> = {}): RowItem => ({
  runId: run.id,
  number: n,
  line: n + 1,
  id: `t${n}`,
  data: { id: `t${n}`, text, human: '' },
  tokens: 10,
  ...extra,
});

let db: WorkbenchDb;
beforeEach(() => {
  db = new WorkbenchDb(freshDbName());
  useAlignment.setState({ view: 'figures', labeller: '', history: [], revealed: false, labelQuestion: null });
});
afterEach(async () => {
  db.close();
  await db.delete();
});

/** The run stored and answered by the reference, open in a rows store the screen reads. */
async function answeredRun() {
  await new RowsRepo(db).createRun(run, [
    item(1, 'I was charged twice, please refund me', {
      data: { id: 't1', text: 'I was charged twice, please refund me', human: 'billing' },
      labels: { department: 'billing' },
    }),
    // Another labeller, zoe, labelled this row before.
    item(2, 'The app crashes when I open settings', {
      labels: { department: 'technical' },
      annotations: { department: { zoe: 'technical' } },
    }),
    item(3, 'How much is the yearly plan?'),
  ]);
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
  expect(store.getState().progress).toMatchObject({ done: 3, pending: 0 });
  return store;
}

describe('labelling blind with a name', () => {
  it('keeps each label as the labeller’s own and never shows the judge’s answer or another labeller’s label', async () => {
    const store = await answeredRun();
    const judged = store
      .getState()
      .results()
      .map((r) => distributionText(r.response?.answers['department']));
    expect(judged.every((t) => /^\w+ \d\.\d\d/.test(t))).toBe(true);
    const user = userEvent.setup();
    render(<AlignmentScreen targetId="local" onOpenInWorkbench={() => {}} onOpenRows={() => {}} />);
    await user.click(await screen.findByTestId('align.view.label'));
    // The file's order (random is the default), so the rows come as the test wrote them.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'file');
    // Stored with the run before typing: the card is drawn anew for its order.
    await waitFor(() =>
      expect(screen.getByTestId('align.order.validity')).toHaveTextContent(/^File order: /),
    );

    // Without a name the view is as before: the judge's answer is one click away, and labelled rows are done.
    expect(screen.getByRole('checkbox', { name: /Show the judge’s answer/ })).toBeInTheDocument();
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent(/^2 of 3 labelled$/);

    const blind = () => {
      const view = screen.getByTestId('align.labelling');
      for (const text of judged) expect(document.body).not.toHaveTextContent(text);
      expect(screen.queryByRole('checkbox', { name: /judge/ })).toBeNull();
      expect(screen.queryByTestId('align.labelling.judge')).toBeNull();
      expect(view).not.toHaveTextContent('the judge:');
      // No label but this labeller's own is pressed: neither the column's nor zoe's.
      expect(within(view).queryAllByRole('button', { pressed: true })).toEqual([]);
    };

    await user.type(screen.getByRole('textbox', { name: 'Your name (labeller)' }), 'Ana{Enter}');
    expect(useAlignment.getState().labeller).toBe('Ana');
    // Every row is Ana's to label, the one the file's column labelled and the one zoe labelled too.
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent(/^0 of 3 labelled by Ana$/);
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('charged twice');
    blind();

    screen.getByTestId('align.labelling').focus();
    await user.keyboard('2');
    await waitFor(() =>
      expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent('1 of 3 labelled by Ana'),
    );
    expect(screen.getByTestId('align.labelling.last')).toHaveTextContent(/^Row t1: your label technical$/);
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('app crashes');
    blind();

    // Ana labels zoe's row, then undoes it: only Ana's label goes, zoe's stays.
    await user.keyboard('1');
    await waitFor(() =>
      expect(store.getState().results()[1]!.annotations).toEqual({
        department: { zoe: 'technical', Ana: 'billing' },
      }),
    );
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('yearly plan');
    await user.keyboard('{Backspace}');
    await waitFor(() =>
      expect(store.getState().results()[1]!.annotations).toEqual({ department: { zoe: 'technical' } }),
    );
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('app crashes');
    blind();

    await user.keyboard('3');
    await user.keyboard('1');
    await waitFor(() =>
      expect(screen.getByTestId('align.labelling.done')).toHaveTextContent(
        'Every row has a label by Ana for this question.',
      ),
    );
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent('3 of 3 labelled by Ana');
    for (const text of judged) expect(document.body).not.toHaveTextContent(text);

    // Each row keeps every annotator's label, and its label is their majority (a tie goes to the one listed first).
    const expected = [
      [{ department: 'billing' }, { department: { human: 'billing', Ana: 'technical' } }],
      [{ department: 'technical' }, { department: { zoe: 'technical', Ana: 'sales' } }],
      [{ department: 'billing' }, { department: { Ana: 'billing' } }],
    ];
    expect(
      store
        .getState()
        .results()
        .map((r) => [r.labels, r.annotations]),
    ).toEqual(expected);
    const reloaded = await new RowsRepo(db).loadItems(run.id);
    expect(reloaded.items.map((i) => [i.labels, i.annotations])).toEqual(expected);
    // The results export carries every annotator's labels beside the row's.
    const exported = await store.getState().exportRun('jsonl');
    expect(
      exported!.parts
        .join('')
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { annotations?: unknown }).annotations),
    ).toEqual(expected.map(([, annotations]) => annotations));
    // The label column still never reaches the state.
    expect(reloaded.items[0]!.data).toMatchObject({ human: 'billing' });
    expect(screen.queryByText(/human/)).toBeNull();
  });

  it('lets another labeller start afresh without undoing the first one’s labels', async () => {
    const store = await answeredRun();
    const user = userEvent.setup();
    render(<AlignmentScreen targetId="local" onOpenInWorkbench={() => {}} onOpenRows={() => {}} />);
    await user.click(await screen.findByTestId('align.view.label'));
    // The file's order (random is the default), so the rows come as the test wrote them.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'file');
    // Stored with the run before typing: the card is drawn anew for its order.
    await waitFor(() =>
      expect(screen.getByTestId('align.order.validity')).toHaveTextContent(/^File order: /),
    );
    const name = screen.getByRole('textbox', { name: 'Your name (labeller)' });
    await user.type(name, 'Ana{Enter}');
    screen.getByTestId('align.labelling').focus();
    await user.keyboard('3');
    await waitFor(() =>
      expect(store.getState().results()[0]!.annotations?.['department']).toMatchObject({ Ana: 'sales' }),
    );

    await user.clear(name);
    await user.type(name, 'Bo{Enter}');
    expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent(/^0 of 3 labelled by Bo$/);
    // Ana's label of this row is not Bo's: nothing is pressed, and Backspace has nothing of Bo's to undo.
    expect(screen.getByTestId('align.labelling.state')).toHaveTextContent('charged twice');
    expect(within(screen.getByTestId('align.labelling')).queryAllByRole('button', { pressed: true })).toEqual(
      [],
    );
    screen.getByTestId('align.labelling').focus();
    await user.keyboard('{Backspace}');
    await user.keyboard('1');
    await waitFor(() =>
      expect(store.getState().results()[0]!.annotations).toEqual({
        department: { human: 'billing', Ana: 'sales', Bo: 'billing' },
      }),
    );
    expect(store.getState().results()[0]!.labels).toEqual({ department: 'billing' });
  });
});
