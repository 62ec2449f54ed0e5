// Labelling in active order on the alignment screen: a run of 60 tickets answered by the real reference over loopback,
// a real rows store over fake-indexeddb. The labeller picks active order and a target; the card serves the rows in
// the order the design gives, the estimate shows once two labels are in with what random order would give, the page
// says which figures the order is valid for, and the order is stored with the run (a new store finds it).
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Questions } from '../../../src/contract';
import { abortableSleep, evaluate } from '../../../src/client';
import { newId } from '../../../src/core/ids';
import { activeEstimateOf, plannedOrder } from '../../../src/core/alignment/labelOrder';
import { hashText } from '../../../src/core/robustness/random';
import type { RowItem, RowRun } from '../../../src/core/rows/records';
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

const questions: Questions = { urgent: { type: 'noul', instructions: 'Is `text` urgent?' } };
const TEXTS = [
  'Urgent: the site is down, fix it now',
  'Whenever you have time, a small question',
  'My payment failed, please help',
  'Thanks, all good',
];
const run: RowRun = storedRun({
  id: 'run-active',
  fileName: 'tickets.csv',
  columns: ['id', 'text'],
  questions,
  rowCount: 60,
  totalTokens: 600,
  mapping: { mode: 'text', column: 'text', idColumn: 'id' },
});
const items: RowItem[] = Array.from({ length: 60 }, (_, i) => ({
  runId: run.id,
  number: i + 1,
  line: i + 2,
  id: `t${i + 1}`,
  data: { id: `t${i + 1}`, text: `${TEXTS[i % TEXTS.length]} (#${i + 1})` },
  tokens: 10,
}));

let db: WorkbenchDb;
beforeEach(() => {
  db = new WorkbenchDb(freshDbName());
  useAlignment.setState({ view: 'figures', labeller: '', history: [], revealed: false, labelQuestion: null });
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const storeOver = () =>
  createRowsStore({
    repo: new RowsRepo(db),
    parser: createInlineParser,
    evaluate,
    clock: { now: () => Date.now(), sleep: abortableSleep },
    targetFor: () => ({ baseUrl: reference.url, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } }),
    newId,
    flushMs: 20,
  });

describe('labelling in active order', () => {
  it('serves the design’s order, shows the estimate beside random order’s, and keeps the order with the run', async () => {
    await new RowsRepo(db).createRun(run, items);
    const store = storeOver();
    holder.store = store;
    await store.getState().openRunById(run.id);
    await store.getState().start();
    expect(store.getState().progress).toMatchObject({ done: 60, pending: 0 });

    const user = userEvent.setup();
    render(<AlignmentScreen targetId="local" onOpenInWorkbench={() => {}} onOpenRows={() => {}} />);
    await user.click(await screen.findByTestId('align.view.label'));
    // Random until the person picks another order: every agreement figure holds for its labels.
    expect(screen.getByTestId('align.order.validity')).toHaveTextContent(/^Random order: every figure /);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'active');
    await waitFor(() => expect(store.getState().openRun?.labelOrders?.['urgent']?.kind).toBe('active'));
    expect(screen.getByTestId('align.order.validity')).toHaveTextContent(
      /^Active order: valid for the estimate below.*Kappa, alpha and the alt-test need a random sample/,
    );
    expect(screen.getByRole('combobox', { name: 'Estimate' })).toHaveDisplayValue('share of “yes”');
    expect(screen.getByTestId('align.active.estimate')).toHaveTextContent(
      /from two labels given in this order/,
    );

    // The card serves the rows in the design's order: the first four are the first four of the plan.
    const order = store.getState().openRun!.labelOrders!['urgent']!;
    expect(order).toMatchObject({ kind: 'active', budget: 60, floor: 0.2, seed: hashText(run.id) });
    const planned = plannedOrder(
      store
        .getState()
        .results()
        .map((r) => ({ number: r.number, answer: r.response?.answers['urgent'] })),
      questions['urgent']!,
      order,
    ).numbers;
    const card = screen.getByTestId('align.labelling');
    for (const number of planned.slice(0, 4)) {
      expect(screen.getByTestId('align.labelling.state')).toHaveTextContent(`(#${number})`);
      card.focus();
      await user.keyboard(number % 4 === 1 ? 'y' : 'n');
      await waitFor(() => expect(store.getState().results()[number - 1]!.labels).toHaveProperty('urgent'));
    }
    await waitFor(() =>
      expect(screen.getByTestId('align.labelling.progress')).toHaveTextContent(/^4 of 60 labelled$/),
    );
    await waitFor(() =>
      expect(screen.getByTestId('align.active.estimate')).toHaveTextContent(
        /^Share of “yes”: 0\.\d{3} \(95% CI 0\.\d{3} to [01]\.\d{3}\) from 4 labels in active order/,
      ),
    );
    expect(screen.getByTestId('align.active.random')).toHaveTextContent(
      /^Random order with 4 labels: ±\d\.\d{3} with the judge \(PPI\+\+\), ±\d\.\d{3} without it \(classical\); this order: ±\d\.\d{3}\.$/,
    );
    expect(screen.getByTestId('align.active.saving')).toHaveTextContent(
      /^Active order: ±\d\.\d{3} with 4 labels/,
    );

    // The export carries each label's probability of having been asked, as the page weighed it.
    const expected = activeEstimateOf(
      store
        .getState()
        .results()
        .map((r) => ({
          number: r.number,
          answer: r.response?.answers['urgent'],
          label: r.labels?.['urgent'],
        })),
      questions['urgent']!,
      order,
    )!.probabilities;
    expect([...expected.keys()].sort((a, b) => a - b)).toEqual(
      [...planned.slice(0, 4)].sort((a, b) => a - b),
    );
    const lines = (await store.getState().exportRun('jsonl'))!.parts.join('').trimEnd().split('\n');
    const exported = lines.flatMap((l, i) => {
      const p = (JSON.parse(l) as { label_probabilities?: { urgent: number } }).label_probabilities;
      return p ? [[i + 1, p.urgent]] : [];
    });
    expect(exported).toEqual([...expected].sort((a, b) => a[0] - b[0]));
    const csv = (await store.getState().exportRun('csv'))!.parts.join('');
    expect(csv.split('\r\n')[0]).toContain('label.urgent,label_probability.urgent');

    // A budget outside the rows is refused in a sentence, and the order is what the run keeps.
    const budget = screen.getByRole('textbox', { name: 'Label budget' });
    await user.clear(budget);
    await user.type(budget, '500{Enter}');
    expect(budget).toHaveAttribute('title', 'A whole number from 2 to 60.');
    const reloaded = await new RowsRepo(db).getRun(run.id);
    expect(reloaded?.labelOrders?.['urgent']).toEqual(order);
  });
});
