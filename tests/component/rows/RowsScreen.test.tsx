// The rows screen as a user drives it: pick a CSV, see its problems by line, check the estimate, run it against the
// real reference service over loopback, read the table, filter, export; then "reload" (a new store over the same
// IndexedDB) and find the run finished without a row being sent again.
import 'fake-indexeddb/auto';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EvaluateRequest } from '../../../src/contract';
import { abortableSleep, evaluate } from '../../../src/client';
import type { EvaluateFn } from '../../../src/core/rows/runner';
import { requestTokens } from '../../../src/core/tokens';
import { EXAMPLE_REQUEST, exampleDoc } from '../../../src/core/example';
import { newId } from '../../../src/core/ids';
import { WorkbenchDb } from '../../../src/app/persistence/db';
import { RowsRepo } from '../../../src/app/persistence/rowsRepo';
import { createInlineParser } from '../../../src/app/features/rows/rowsParser';
import { createRowsStore } from '../../../src/app/stores/rows';
import type * as RowsStoreModule from '../../../src/app/stores/rows';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { serveReference } from '../../../src/server/reference/serve';
import type { RunningReference } from '../../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';

// The screen reads the app's rows store; each test gives it a store over its own database and the test reference.
const holder = vi.hoisted(() => ({ store: null as unknown }));
vi.mock('../../../src/app/stores/rows', async (importOriginal) => {
  const original = await importOriginal<typeof RowsStoreModule>();
  const useRows = ((selector?: (s: unknown) => unknown) =>
    (holder.store as typeof original.useRows)(selector as never)) as unknown as typeof original.useRows;
  useRows.getState = () => (holder.store as typeof original.useRows).getState();
  return { ...original, useRows };
});
// Downloads are captured instead of handed to the browser.
const downloads = vi.hoisted(() => [] as { fileName: string; type: string; text: string }[]);
vi.mock('../../../src/app/platform/download', () => ({
  downloadParts: (fileName: string, type: string, parts: string[]) =>
    downloads.push({ fileName, type, text: parts.join('') }),
  downloadText: (fileName: string, text: string, type = 'application/json') =>
    downloads.push({ fileName, type, text }),
}));

const { RowsScreen } = await import('../../../src/app/features/rows/RowsScreen');

let reference: RunningReference;
beforeAll(async () => {
  reference = await serveReference({ rpm: 1e9, tps: 1e12 });
});
afterAll(() => reference.close());

let dbName = '';
let db: WorkbenchDb;
const sent: unknown[] = [];
const counting: EvaluateFn = (target, request: EvaluateRequest, options) => {
  sent.push(request.state);
  return evaluate(target, request, options);
};

function makeStore() {
  db = new WorkbenchDb(dbName);
  const store = createRowsStore({
    repo: new RowsRepo(db),
    parser: createInlineParser,
    evaluate: counting,
    clock: { now: () => Date.now(), sleep: abortableSleep },
    targetFor: () => ({ baseUrl: reference.url, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } }),
    newId,
    flushMs: 20,
  });
  holder.store = store;
  return store;
}

// jsdom lays nothing out: give the virtualised lists a viewport so their rows render.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.testid === 'rows.table.scroll' || this.dataset.testid === 'rows.issues.list'
        ? 600
        : 0;
    },
  });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});

beforeEach(() => {
  dbName = `rows-screen-${Math.random().toString(36).slice(2)}`;
  sent.length = 0;
  downloads.length = 0;
  useWorkbench.getState().hydrate(exampleDoc('local'));
  makeStore();
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const TICKETS = [
  ['t1', 'I was charged twice for my order, please refund me today'],
  ['t2', 'The app crashes every time I open settings'],
  ['t3', 'Thanks, all sorted now'],
  ['t4', 'My payouts have been failing for three days, this is the third time I write'],
  ['t5', 'Where do I change my invoice address?'],
];
const CSV = [
  'id,text',
  ...TICKETS.slice(0, 2).map(([id, text]) => `${id},"${text}"`),
  'broken,"never closed,x',
].join('\n');
// A clean file, and one with an empty row (line 4) and a row with too many fields (line 6).
const CLEAN = ['id,text', ...TICKETS.map(([id, text]) => `${id},"${text}"`)].join('\n') + '\n';
const quoted = ([id, text]: string[]) => `${id},"${text}"`;
const MESSY = [
  'id,text',
  quoted(TICKETS[0]!),
  quoted(TICKETS[1]!),
  ',',
  quoted(TICKETS[2]!),
  'x,y,z',
  quoted(TICKETS[3]!),
].join('\n');

const file = (text: string, name = 'tickets.csv') => new File([text], name, { type: 'text/csv' });

async function pick(user: ReturnType<typeof userEvent.setup>, text: string, name?: string) {
  await user.upload(screen.getByTestId('rows.file'), file(text, name));
  await screen.findByTestId('rows.preview');
}

describe('RowsScreen', () => {
  it('lists every line that will not be sent with its line number and reason, before the run', async () => {
    const user = userEvent.setup();
    render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    await pick(user, MESSY);
    expect(screen.getByTestId('rows.summary')).toHaveTextContent(
      '4 rows read, 2 line(s) not read as rows (listed below).',
    );
    const issues = await screen.findAllByTestId('rows.issue');
    expect(issues.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/^line 4empty/),
      expect.stringMatching(/^line 6malformed.*3 fields, but the header has 2/),
    ]);
    // The broken CSV of an unclosed quote is reported too.
    await pick(user, CSV, 'broken.csv');
    await waitFor(() =>
      expect(screen.getAllByTestId('rows.issue').map((i) => i.textContent)).toEqual([
        expect.stringMatching(/^line 4malformed.*never closed/),
      ]),
    );
  });

  it('estimates the tokens and cost of the whole file with the reference tokenizer, and warns about an alias', async () => {
    const user = userEvent.setup();
    render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    await pick(user, CLEAN);
    // The suggested mapping: `text` as the state, rows named by `id`.
    await waitFor(() => expect(screen.getByTestId('rows.plan.rows')).toHaveTextContent('5'));
    const expected = TICKETS.reduce(
      (n, [, text]) => n + requestTokens({ state: text!, questions: EXAMPLE_REQUEST.questions }).total,
      0,
    );
    expect(screen.getByTestId('rows.plan.tokens')).toHaveTextContent(expected.toLocaleString('en-US'));
    expect(screen.getByTestId('rows.plan.alias')).toHaveTextContent('model-latest is an alias');
    act(() => useWorkbench.getState().setModel('model-1.13.0'));
    await waitFor(() => expect(screen.queryByTestId('rows.plan.alias')).toBeNull());

    // Mapping the whole row (id left out) changes what is sent, and so the estimate.
    await user.click(
      within(screen.getByTestId('rows.mapping.mode')).getByLabelText('Whole row as named fields'),
    );
    const asFields = TICKETS.reduce(
      (n, [, text]) =>
        n + requestTokens({ state: { text: text! }, questions: EXAMPLE_REQUEST.questions }).total,
      0,
    );
    await waitFor(() =>
      expect(screen.getByTestId('rows.plan.tokens')).toHaveTextContent(asFields.toLocaleString('en-US')),
    );
    expect(screen.getByTestId('rows.samples')).toHaveTextContent('"text": "I was charged twice');

    // A budget cap below the whole file says how many rows it covers.
    const cap = screen.getByTestId('rows.budget');
    await user.type(cap, '0.0000001{Enter}');
    expect(screen.getByTestId('rows.plan.budget')).toHaveTextContent('covers about 0 of 5 rows');
  });

  it('runs the file, shows every answer, filters, exports one line per input row, and survives a reload', async () => {
    const user = userEvent.setup();
    act(() => useWorkbench.getState().setModel('model-1.13.0'));
    const { unmount } = render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    await pick(user, CLEAN);
    await waitFor(() => expect(screen.getByTestId('rows.start')).toBeEnabled());
    await user.click(screen.getByTestId('rows.start'));

    await waitFor(() => expect(screen.getByTestId('rows.status')).toHaveAttribute('data-phase', 'finished'), {
      timeout: 10_000,
    });
    expect(screen.getByTestId('rows.count.done')).toHaveAttribute('data-value', '5');
    expect(sent).toHaveLength(5);
    const tableRows = await screen.findAllByTestId('rows.table.row');
    expect(tableRows.map((r) => r.getAttribute('data-row-id'))).toEqual(['t1', 't2', 't3', 't4', 't5']);
    // The reference's judge puts a double charge in billing.
    expect(
      within(tableRows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toContain('billing');

    await user.selectOptions(screen.getByTestId('rows.filter.status'), 'problems');
    await waitFor(() => expect(screen.getByTestId('rows.filter.shown')).toHaveTextContent('0 of 5 rows'));
    await user.selectOptions(screen.getByTestId('rows.filter.status'), 'all');

    await user.click(within(screen.getByTestId('rows.tabs')).getByLabelText('Charts'));
    expect(await screen.findAllByTestId('rows.chart.card')).toHaveLength(3);

    await user.click(screen.getByTestId('rows.export.csv'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    const csv = Papa.parse<Record<string, string>>(downloads[0]!.text.replace(/^\ufeff/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(downloads[0]!.fileName).toBe('tickets-results.csv');
    expect(csv.data.map((r) => [r.row_id, r['input.text']])).toEqual(TICKETS);
    expect(
      csv.data.every((r) => r.status === 'done' && r.model === 'model-1.13.0' && Number(r.input_tokens) > 0),
    ).toBe(true);
    await user.click(screen.getByTestId('rows.export.jsonl'));
    await waitFor(() => expect(downloads).toHaveLength(2));
    const lines = downloads[1]!.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row_id: string; answers: Record<string, unknown> });
    expect(lines.map((l) => l.row_id)).toEqual(TICKETS.map(([id]) => id));
    expect(Object.keys(lines[0]!.answers).sort()).toEqual(['department', 'frustration', 'is_urgent']);

    // Reload: a new store over the same database. The run is listed, opens finished, and nothing is sent again.
    unmount();
    db.close();
    makeStore();
    render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    const run = await screen.findByTestId('rows.run');
    expect(within(run).getByTestId('rows.run.status')).toHaveTextContent('finished');
    await user.click(within(run).getByRole('button', { name: 'tickets.csv' }));
    await waitFor(() => expect(screen.getByTestId('rows.count.done')).toHaveAttribute('data-value', '5'));
    // Finished after the reload too: it says so, and offers nothing to start, pause or cancel.
    expect(screen.getByTestId('rows.status')).toHaveTextContent('Finished');
    expect(screen.queryByTestId('rows.resume')).toBeNull();
    expect(screen.queryByTestId('rows.pause')).toBeNull();
    expect(screen.queryByTestId('rows.cancel')).toBeNull();
    expect(sent).toHaveLength(5);

    // The same file again with the pinned model: every answer is reused, nothing is sent, nothing billed.
    await user.click(screen.getByTestId('rows.new'));
    await pick(user, CLEAN);
    await waitFor(() => expect(screen.getByTestId('rows.start')).toBeEnabled());
    await user.click(screen.getByTestId('rows.start'));
    await waitFor(() => expect(screen.getByTestId('rows.status')).toHaveAttribute('data-phase', 'finished'), {
      timeout: 10_000,
    });
    expect(screen.getByTestId('rows.count.reused')).toHaveAttribute('data-value', '5');
    expect(screen.getByTestId('rows.cost')).toHaveTextContent(/^\$0\.00/);
    expect(sent).toHaveLength(5);
    // A ceiling for a real server, storage and rendering on a busy machine, not a speed expectation.
  }, 30_000);
});
