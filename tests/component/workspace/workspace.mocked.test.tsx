// The workspace screen against the real workspace server on loopback (PGlite in a temporary folder), each person a
// browser with its own cookie: the owner starts it with one button and sees the owner link once, makes an invite link;
// a labeller opens the link, joins with a name, and labels the queue's rows with the keyboard, blind; the owner's
// figures follow the labels as they arrive, without a reload, and the owner settles a disagreement with a note; a
// queue in active order shows the estimate of its target as labels arrive, and the publish form's order fields.
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createInvite,
  createQueue,
  joinWorkspace,
  nextRow,
  putLabels,
  queueLabels,
} from '../../../src/client/workspace';
import { workspaceLinkOf } from '../../../src/core/workspace/links';
import { queueOf } from '../../unit/server/workspace/fixtures';
import { browserPerson, startWorkspace } from '../../helpers/workspace';
import type { BrowserPerson, TestWorkspace } from '../../helpers/workspace';

// The page's one connection to the workspace goes to the test server, as whoever the test says is at the keyboard.
const holder = vi.hoisted(() => ({ url: '', person: null as BrowserPerson | null }));
vi.mock('../../../src/app/queries/workspaceConnection', async () =>
  (await import('../../helpers/heldWorkspaceConnection')).heldWorkspaceConnection(holder),
);

const { WorkspaceScreen } = await import('../../../src/app/features/workspace/WorkspaceScreen');
const { useWorkspaceUi } = await import('../../../src/app/features/workspace/workspaceStore');

let ws: TestWorkspace;
let owner: BrowserPerson;
let ada: BrowserPerson;
let queueId: string;

beforeAll(async () => {
  ws = await startWorkspace();
  holder.url = ws.url;
  owner = browserPerson(ws.url);
  ada = browserPerson(ws.url);
}, 120_000);
afterAll(() => ws.close());
afterEach(() => cleanup());

function renderScreen(as: BrowserPerson) {
  holder.person = as;
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <WorkspaceScreen onOpenRows={() => {}} />
    </QueryClientProvider>,
  );
}

describe('the workspace screen', () => {
  it('starts with one button, shows the owner link once, and makes an invite link', async () => {
    const user = userEvent.setup();
    renderScreen(owner);
    await user.click(await screen.findByTestId('workspace.start.button'));
    const link = await screen.findByTestId('workspace.ownerLink.value');
    expect(workspaceLinkOf(new URL((link as HTMLInputElement).value).hash)?.kind).toBe('owner');
    expect(await screen.findByTestId('workspace.me')).toHaveTextContent('You are Owner, the owner.');
    await user.click(screen.getByRole('button', { name: 'I have kept it' }));
    expect(screen.queryByTestId('workspace.ownerLink')).toBeNull();

    await user.type(screen.getByTestId('workspace.invite.note'), 'Ada');
    await user.click(screen.getByTestId('workspace.invite.create'));
    const invite = (await screen.findByTestId('workspace.invite.link')) as HTMLInputElement;
    expect(workspaceLinkOf(new URL(invite.value).hash)?.kind).toBe('invite');
    // With no run open on the rows screen, publishing says where the rows come from.
    expect(screen.getByTestId('workspace.publish.none')).toHaveTextContent(
      'Open a run on the rows screen first',
    );
  });

  it('joins from an invite link with a name, and labels the queue blind with the keyboard', async () => {
    queueId = (await createQueue(owner.conn, queueOf(3, { overlap: { perRow: 2, share: 1 } }))).queue.id;
    const invite = await createInvite(owner.conn, { note: 'Ada' });
    history.replaceState(null, '', `/${new URL(invite.link).hash}`);
    const user = userEvent.setup();
    renderScreen(ada);
    await user.type(await screen.findByTestId('workspace.join.name'), 'Ada');
    await user.click(screen.getByTestId('workspace.join.button'));
    expect(await screen.findByTestId('workspace.me')).toHaveTextContent('You are Ada, a labeller.');
    // The invite's token leaves the address once used.
    expect(location.hash).toBe('');

    await user.click(await screen.findByTestId('workspace.queue.Tickets.label'));
    const card = await screen.findByTestId('workspace.label');
    expect(within(card).getByTestId('workspace.label.state')).toHaveTextContent(/^ticket number \d$/);
    expect(screen.getByTestId('workspace.label.progress')).toHaveTextContent(/^0 of 6/);
    await user.keyboard('1');
    // The row's second question comes next, then the next row; progress counts the queue's row-labellings (3 rows, 2 people each).
    await waitFor(() => expect(screen.getByTestId('workspace.label')).toHaveTextContent('harmful'));
    await user.keyboard('n');
    await waitFor(() => expect(screen.getByTestId('workspace.label.progress')).toHaveTextContent(/^1 of 6/));
    // Blind: nothing of the judge's answers (its labels carry a confidence of 0.9 and 0.8) is ever on the page.
    expect(document.body.textContent).not.toMatch(/0\.9|0\.8|judge/i);
    const stored = (await queueLabels(owner.conn, queueId)).labels;
    expect(stored.map((l) => `${l.name} ${l.question}`).sort()).toEqual(['Ada harmful', 'Ada tone']);
  });

  it('shows the owner figures that follow the labels live, and settles a disagreement with a note', async () => {
    const user = userEvent.setup();
    renderScreen(owner);
    act(() => useWorkspaceUi.getState().openQueue(queueId, 'figures'));
    expect(await screen.findByTestId('workspace.figures.labels')).toHaveTextContent(
      /^2 labels so far on 3 rows\. Every figure below used the settled label where the owner set one, else the majority\./,
    );
    await waitFor(() => expect(screen.getByTestId('workspace.figures.live')).toHaveTextContent('Live'));

    // Bo joins and labels Ada's row the other way, while the owner's page stays open.
    const bo = browserPerson(ws.url);
    const token = workspaceLinkOf(new URL((await createInvite(owner.conn, {})).link).hash)!.token;
    await joinWorkspace(bo.conn, token, 'Bo');
    const adaRow = (await queueLabels(owner.conn, queueId)).labels[0]!.row;
    let row = (await nextRow(bo.conn, queueId)).row!.index;
    const both = (at: number, tone: string) => [
      { row: at, question: 'tone', value: tone, clientId: `bo-${at}-tone` },
      { row: at, question: 'harmful', value: false, clientId: `bo-${at}-harmful` },
    ];
    while (row !== adaRow) {
      await putLabels(bo.conn, queueId, both(row, 'calm'));
      row = (await nextRow(bo.conn, queueId)).row!.index;
    }
    // Ada said calm and no; Bo says angry and no: one disagreement.
    await putLabels(bo.conn, queueId, both(row, 'angry'));

    await waitFor(
      () => expect(screen.getByTestId('workspace.adjudicate.count')).toHaveTextContent('1 disagreement'),
      {
        timeout: 10_000,
      },
    );
    expect(screen.getByTestId('workspace.figures.labeller.Bo')).toBeInTheDocument();

    const key = `r${adaRow}`;
    await user.selectOptions(screen.getByTestId(`workspace.adjudicate.${key}.tone.value`), 'calm');
    await user.type(screen.getByTestId(`workspace.adjudicate.${key}.tone.note`), 'the ticket is polite');
    await user.click(screen.getByTestId(`workspace.adjudicate.${key}.tone.save`));
    expect(await screen.findByTestId(`workspace.adjudicate.${key}.tone.settled`)).toHaveTextContent(
      'settled: calm (“the ticket is polite”)',
    );
  });

  it('shows a queue in active order with the estimate of its target as labels arrive', async () => {
    const yes = (i: number) => [0.05, 0.5, 0.95, 0.3][i % 4]!;
    const base = queueOf(40);
    const active = (
      await createQueue(owner.conn, {
        ...base,
        name: 'Active',
        rows: base.rows.map((r, i) => ({
          ...r,
          judge: {
            ...r.judge,
            harmful: {
              label: yes(i) >= 0.5,
              confidence: Math.max(yes(i), 1 - yes(i)),
              probabilities: [1 - yes(i), yes(i)],
            },
          },
        })),
        order: { kind: 'active', question: 'harmful', target: { kind: 'share', level: 'yes' }, budget: 20 },
      })
    ).queue.id;
    renderScreen(owner);
    act(() => useWorkspaceUi.getState().openQueue(active, 'figures'));
    expect(await screen.findByTestId('workspace.figures.active')).toHaveTextContent(
      'Rows go out in active order: the estimate shows from two labels given in that order.',
    );
    for (let k = 0; k < 6; k++) {
      const row = (await nextRow(ada.conn, active)).row!.index;
      await putLabels(ada.conn, active, [
        { row, question: 'tone', value: 'calm', clientId: `act-${row}-t` },
        { row, question: 'harmful', value: yes(row) >= 0.5, clientId: `act-${row}-h` },
      ]);
    }
    await waitFor(
      () =>
        expect(screen.getByTestId('workspace.figures.active')).toHaveTextContent(
          /Share of “yes”: 0\.\d{3} \(95% CI [01]\.\d{3} to [01]\.\d{3}\) from 6 labels in active order/,
        ),
      { timeout: 10_000 },
    );
    expect(screen.getByTestId('workspace.figures.active')).toHaveTextContent(
      /Active order: ±\d\.\d{3} with 6 labels/,
    );
  });
});

describe('the order a queue is published in', () => {
  it('offers random order first, then active order on a question, a target and a budget', async () => {
    const user = userEvent.setup();
    const orders: unknown[] = [];
    const { QueueOrderFields } = await import('../../../src/app/features/workspace/QueueOrderFields');
    const { QUESTIONS } = await import('../../unit/server/workspace/fixtures');
    function Harness() {
      const [order, setOrder] = useState<Parameters<typeof QueueOrderFields>[0]['order']>({
        kind: 'random',
        seed: 1,
      });
      return (
        <QueueOrderFields
          questions={QUESTIONS}
          rows={50}
          order={order}
          setOrder={(o) => {
            orders.push(o);
            setOrder(o);
          }}
        />
      );
    }
    render(<Harness />);
    expect(screen.getByRole('combobox', { name: 'Order' })).toHaveDisplayValue(
      'Random: every figure stays valid',
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'active');
    expect(orders.at(-1)).toEqual({
      kind: 'active',
      question: 'tone',
      target: { kind: 'share', level: 'calm' },
      budget: 50,
      floor: 0.2,
      seed: 1,
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question' }), 'harmful');
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Estimate' }),
      'agreement of the judge with people',
    );
    expect(orders.at(-1)).toMatchObject({ question: 'harmful', target: { kind: 'agreement' } });
    expect(screen.getByTestId('workspace.publish.order')).toHaveTextContent(
      'The ceiling, the alt-test and the threshold need a random sample',
    );
  });
});
