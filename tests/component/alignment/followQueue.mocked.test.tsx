// The owner's alignment screen following a team workspace queue, against the real workspace server on loopback: the
// picker lists the owner's queues (and says why there is nothing to follow in a browser that is not the owner); once
// a queue is followed, each person's labels arrive in the run as their own annotations, and a label given after that
// arrives without a reload, through the queue's events.
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createInvite,
  createQueue,
  joinWorkspace,
  nextRow,
  putLabels,
  startWorkspace as startAsOwner,
} from '../../../src/client/workspace';
import { applyLabelEdits } from '../../../src/core/labels/labelEdits';
import type { LabelEdit } from '../../../src/core/labels/columns';
import type { RowRun } from '../../../src/core/rows/records';
import type { ResultRow } from '../../../src/core/rows/results';
import { workspaceLinkOf } from '../../../src/core/workspace/links';
import type { RowsState } from '../../../src/app/stores/rows';
import { QUESTIONS, queueOf } from '../../unit/server/workspace/fixtures';
import { browserPerson, startWorkspace } from '../../helpers/workspace';
import type { BrowserPerson, TestWorkspace } from '../../helpers/workspace';

// The page's one connection to the workspace goes to the test server, as whoever the test says is at the keyboard.
const holder = vi.hoisted(() => ({ url: '', person: null as BrowserPerson | null }));
vi.mock('../../../src/app/queries/workspaceConnection', async () =>
  (await import('../../helpers/heldWorkspaceConnection')).heldWorkspaceConnection(holder),
);

const { FollowQueue } = await import('../../../src/app/features/alignment/FollowQueue');
const { useFollowQueue } = await import('../../../src/app/features/alignment/followQueueStore');

let ws: TestWorkspace;
let owner: BrowserPerson;
let ada: BrowserPerson;
let queueId: string;

beforeAll(async () => {
  ws = await startWorkspace();
  holder.url = ws.url;
  owner = browserPerson(ws.url);
  ada = browserPerson(ws.url);
  await startAsOwner(owner.conn);
  queueId = (await createQueue(owner.conn, { ...queueOf(4), name: 'Tone check' })).queue.id;
  const token = workspaceLinkOf(new URL((await createInvite(owner.conn, {})).link).hash)!.token;
  await joinWorkspace(ada.conn, token, 'Ada');
}, 120_000);
afterAll(() => ws.close());
afterEach(() => {
  cleanup();
  useFollowQueue.setState({ byRun: {}, picking: false });
});

/** Ada labels the next row she is handed, with both questions. */
async function adaLabels(tone: string): Promise<string> {
  const row = (await nextRow(ada.conn, queueId)).row!;
  await putLabels(ada.conn, queueId, [
    { row: row.index, question: 'tone', value: tone, clientId: `${row.key}-tone` },
    { row: row.index, question: 'harmful', value: false, clientId: `${row.key}-harmful` },
  ]);
  return row.key;
}

/** The run the queue was published from (keys r0..r3 are the rows' ids), and a rows store that applies label edits. */
function runAndRows() {
  let results: ResultRow[] = Array.from({ length: 4 }, (_, i) => ({
    number: i,
    line: i + 2,
    id: `r${i}`,
    data: { id: `r${i}`, text: `ticket number ${i}` },
  }));
  const saved: LabelEdit[][] = [];
  const run = { id: 'run-1', questions: QUESTIONS } as unknown as RowRun;
  const rows = {
    resultsVersion: 0,
    results: () => results,
    setLabels: async (edits: readonly LabelEdit[]) => {
      saved.push([...edits]);
      results = results.map((r) => {
        const mine = edits.filter((e) => e.number === r.number);
        return mine.length ? { ...r, ...applyLabelEdits(r, mine) } : r;
      });
    },
  } as unknown as RowsState;
  return { run, rows, saved, results: () => results };
}

function renderFollow(as: BrowserPerson, run: RowRun, rows: RowsState) {
  holder.person = as;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <FollowQueue run={run} rows={rows} />
    </QueryClientProvider>,
  );
}

describe('following a workspace queue on the alignment screen', () => {
  it('says a browser that is not the owner has nothing to follow', async () => {
    const { run, rows } = runAndRows();
    renderFollow(ada, run, rows);
    await userEvent.click(screen.getByTestId('align.follow.open'));
    expect(await screen.findByTestId('align.follow.none')).toHaveTextContent(
      'Only the workspace’s owner reads its labels here',
    );
  });

  it('pulls each person’s labels into the run, then a new label without a reload', async () => {
    const first = await adaLabels('angry');
    const { run, rows, saved, results } = runAndRows();
    renderFollow(owner, run, rows);
    await userEvent.click(screen.getByTestId('align.follow.open'));
    await screen.findByRole('option', { name: 'Tone check (4 rows)' });
    await userEvent.selectOptions(screen.getByTestId('align.follow.queue'), queueId);
    const status = await screen.findByTestId('align.follow.status');
    await waitFor(() =>
      expect(status).toHaveTextContent(
        'Following “Tone check” (live): 2 labels from 1 person (Ada) in this run, each their own.',
      ),
    );
    const row = results().find((r) => r.id === first)!;
    expect(row.annotations).toEqual({ tone: { Ada: 'angry' }, harmful: { Ada: false } });
    expect(row.labels).toEqual({ tone: 'angry', harmful: false });

    // A label given while the screen is open arrives through the queue's events.
    const second = await adaLabels('calm');
    await waitFor(() => expect(status).toHaveTextContent('4 labels from 1 person (Ada)'), {
      timeout: 10_000,
    });
    expect(results().find((r) => r.id === second)!.annotations).toEqual({
      tone: { Ada: 'calm' },
      harmful: { Ada: false },
    });
    // Only what changed was written the second time.
    expect(saved.at(-1)!.map((e) => e.number)).toEqual([Number(second.slice(1)), Number(second.slice(1))]);
  });
});
