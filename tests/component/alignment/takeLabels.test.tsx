// Taking the labels a session keeps onto the open run, as the alignment screen wires it: a real rows store over
// fake-indexeddb, the button reached and pressed with the keyboard, labels the run lacks stored through the store (each
// annotator's as theirs), the ones left out counted in the sentence, and a "reload" (a new repo over the same
// database) finding them stored.
import 'fake-indexeddb/auto';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Questions } from '../../../src/contract';
import { abortableSleep } from '../../../src/client';
import { planLabelTake } from '../../../src/core/alignment/sessionLabels';
import type { LabelledRow } from '../../../src/core/alignment/sessionLabels';
import { newId } from '../../../src/core/ids';
import { DEFAULT_PACING } from '../../../src/core/rows/pacer';
import { storedRun } from '../../helpers/fixtures';
import type { RowItem, RowRun } from '../../../src/core/rows/records';
import { WorkbenchDb } from '../../../src/app/persistence/db';
import { RowsRepo } from '../../../src/app/persistence/rowsRepo';
import { createInlineParser } from '../../../src/app/workers/rowsParser';
import { TakeLabels } from '../../../src/app/features/alignment/TakeLabels';
import { createRowsStore } from '../../../src/app/stores/rows';
import { freshDbName } from '../../unit/app/persistence/dbHelpers';

const questions: Questions = {
  department: { type: 'choice', criteria: { billing: null, technical: null } },
  is_urgent: { type: 'noul' },
};

const run: RowRun = storedRun({
  id: 'run-1',
  fileName: 'tickets.csv',
  questions,
  pacing: DEFAULT_PACING,
  rowCount: 3,
  totalTokens: 30,
  status: 'finished',
});

const item = (n: number, labels?: RowItem['labels']): RowItem => ({
  runId: run.id,
  number: n,
  line: n + 1,
  id: `t${n}`,
  data: { id: `t${n}`, text: `ticket ${n}` },
  tokens: 10,
  ...(labels ? { labels } : {}),
});

const opened: WorkbenchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

async function openRun() {
  const db = new WorkbenchDb(freshDbName());
  opened.push(db);
  await new RowsRepo(db).createRun(run, [item(1), item(2, { is_urgent: true }), item(3)]);
  const store = createRowsStore({
    repo: new RowsRepo(db),
    parser: createInlineParser,
    evaluate: () => Promise.reject(new Error('nothing is sent in this test')),
    clock: { now: () => Date.now(), sleep: abortableSleep },
    targetFor: () => ({ baseUrl: 'http://127.0.0.1:9', headers: {} }),
    newId,
  });
  await store.getState().openRunById(run.id);
  return { db, store };
}

type Store = Awaited<ReturnType<typeof openRun>>['store'];

/** The screen's wiring of the button: the plan over the open run's rows, recomputed as they change. */
function Harness({ store, kept }: { store: Store; kept: LabelledRow[] }) {
  const version = store((s) => s.resultsVersion);
  const open = store((s) => s.openRun)!;
  const plan = useMemo(() => {
    void version;
    return planLabelTake(kept, store.getState().results(), open.questions);
  }, [kept, open, store, version]);
  return (
    <TakeLabels
      plan={plan}
      keptRows={kept.length}
      fileName="tickets.csv"
      onTake={(changes) => store.getState().setLabels(changes)}
    />
  );
}

describe('take labels from the session', () => {
  it('stores the labels the run lacks from the keyboard, counts those left out, and keeps them after a reload', async () => {
    const { db, store } = await openRun();
    const kept: LabelledRow[] = [
      { id: 't1', labels: { department: 'billing', is_urgent: false } },
      { id: 't2', labels: { is_urgent: true } },
      // "sales" is no label of the department question any more.
      { id: 't3', labels: { department: 'sales' } },
      { id: 't9', labels: { is_urgent: true } },
    ];
    const user = userEvent.setup();
    render(<Harness store={store} kept={kept} />);
    const button = screen.getByRole('button', { name: 'Take 2 labels from the session' });
    expect(screen.getByTestId('align.take.sentence')).toHaveTextContent(
      'The session keeps labels of 4 rows of tickets.csv. 1 of them matches no row of this run by id. 1 label no longer fits the questions',
    );

    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');

    const done = await screen.findByRole('status');
    expect(done).toHaveTextContent('Stored 2 labels from the session on this run.');
    expect(done).toHaveFocus();
    expect(screen.queryByRole('button', { name: /Take \d+ label/ })).toBeNull();
    expect(
      store
        .getState()
        .results()
        .map((r) => r.labels),
    ).toEqual([{ department: 'billing', is_urgent: false }, { is_urgent: true }, undefined]);
    const reloaded = await new RowsRepo(db).loadItems(run.id);
    expect(reloaded.items.map((i) => i.labels)).toEqual([
      { department: 'billing', is_urgent: false },
      { is_urgent: true },
      undefined,
    ]);
  });

  it("stores each annotator's label as theirs, and the run's own label beside them", async () => {
    const { db, store } = await openRun();
    const kept: LabelledRow[] = [
      { id: 't1', labels: { department: 'technical' }, annotations: { department: { ana: 'technical' } } },
      // The run's t2 has a label of its own, given without a name: it stays, as "unnamed".
      { id: 't2', labels: { is_urgent: false }, annotations: { is_urgent: { ana: false, bo: false } } },
    ];
    const user = userEvent.setup();
    render(<Harness store={store} kept={kept} />);
    await user.click(screen.getByRole('button', { name: 'Take 3 labels from the session' }));
    await screen.findByRole('status');
    const expected = [
      [{ department: 'technical' }, { department: { ana: 'technical' } }],
      [{ is_urgent: false }, { is_urgent: { unnamed: true, ana: false, bo: false } }],
      [undefined, undefined],
    ];
    expect(
      store
        .getState()
        .results()
        .map((r) => [r.labels, r.annotations]),
    ).toEqual(expected);
    const reloaded = await new RowsRepo(db).loadItems(run.id);
    expect(reloaded.items.map((i) => [i.labels, i.annotations])).toEqual(expected);
  });

  it('offers nothing when the run already has every label the session keeps', async () => {
    const { store } = await openRun();
    const { container } = render(
      <Harness store={store} kept={[{ id: 't2', labels: { is_urgent: true } }]} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
