// The rows screen as a user drives it: pick a CSV, see its problems by line, check the estimate, run it against the
// real reference service over loopback, read the table, filter, export; then "reload" (a new store over the same
// IndexedDB) and find the run finished without a row being sent again.
import 'fake-indexeddb/auto';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EvaluateRequest } from '../../../src/contract';
import { TargetInfoSchema } from '../../../src/contract/targets';
import { abortableSleep, evaluate } from '../../../src/client';
import type { EvaluateFn } from '../../../src/core/rows/runTypes';
import { requestTokens } from '../../../src/contract/tokens';
import { EXAMPLE_REQUEST, exampleDoc } from '../../../src/core/example';
import { newId } from '../../../src/core/ids';
import { dedupKey } from '../../../src/core/rows/dedup';
import { headerLine, resultLine, RESULTS_FORMAT } from '../../../src/core/rows/resultsFile';
import { WorkbenchDb } from '../../../src/app/persistence/db';
import { RowsRepo } from '../../../src/app/persistence/rowsRepo';
import { createInlineParser } from '../../../src/app/workers/rowsParser';
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
  it('maps columns named like the questions as their labels when a file is picked, and undoes it on request', async () => {
    const store = makeStore();
    const file = new File(['id,message,department,is_urgent\nt1,Refund me,billing,yes\n'], 'named.csv', {
      type: 'text/csv',
    });
    await store.getState().pickFile(file, Object.keys(EXAMPLE_REQUEST.questions));
    expect(store.getState().mapping?.labels?.map((l) => [l.column, l.question])).toEqual([
      ['is_urgent', 'is_urgent'],
      ['department', 'department'],
    ]);
    expect(store.getState().defaultLabels).toHaveLength(2);
    store.getState().keepLabelsInState();
    expect(store.getState().mapping?.labels).toEqual([]);
    expect(store.getState().defaultLabels).toEqual([]);
  });

  it('sends label-named columns in the state after "Send them in the state instead" (they were neither labels nor sent)', async () => {
    const user = userEvent.setup();
    act(() => useWorkbench.getState().setModel('model-1.13.0'));
    render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    const labelled = [
      'id,text,department,is_urgent',
      't1,"I was charged twice, refund me",billing,yes',
      't2,"The app crashes on start",technical,no',
    ].join('\n');
    await pick(user, labelled, 'labelled.csv');
    // Read as labels by default, with the one text column as the state.
    const line = await screen.findByTestId('rows.labels.defaulted');
    expect(line).toHaveTextContent('is_urgent, department are named like questions');
    await waitFor(() => expect(screen.getByTestId('rows.samples')).toHaveTextContent('I was charged twice'));
    expect(screen.getByTestId('rows.samples')).not.toHaveTextContent('department');

    await user.click(screen.getByTestId('rows.labels.defaulted.undo'));
    // The state is the row as named fields now: the sample shows both columns beside the text.
    const mode = screen.getByTestId('rows.mapping.mode');
    expect(within(mode).getByLabelText('Whole row as named fields')).toBeChecked();
    await waitFor(() =>
      expect(screen.getByTestId('rows.samples')).toHaveTextContent('"department": "billing"'),
    );
    expect(screen.getByTestId('rows.samples')).toHaveTextContent('"is_urgent": "yes"');

    await waitFor(() => expect(screen.getByTestId('rows.start')).toBeEnabled());
    await user.click(screen.getByTestId('rows.start'));
    await waitFor(() => expect(screen.getByTestId('rows.status')).toHaveAttribute('data-phase', 'finished'), {
      timeout: 10_000,
    });
    // What reached the reference service: every column but the id, the label-named ones included.
    expect(sent).toEqual([
      { text: 'I was charged twice, refund me', department: 'billing', is_urgent: 'yes' },
      { text: 'The app crashes on start', department: 'technical', is_urgent: 'no' },
    ]);
    expect(screen.getByTestId('rows.count.done')).toHaveAttribute('data-value', '2');
  });

  it('says the cost is unknown on a target that states no price (it showed "Cost so far $0.00")', async () => {
    const user = userEvent.setup();
    act(() => useWorkbench.getState().setModel('model-1.13.0'));
    const unpriced = TargetInfoSchema.parse({
      id: 'unpriced',
      label: 'Unpriced server',
      kind: 'direct',
      host: '127.0.0.1',
      evaluatePath: '/v1/evaluate',
      inputPrice: null,
    });
    render(<RowsScreen targetId="unpriced" targetLabel="Unpriced server" target={unpriced} />);
    await pick(user, CLEAN);
    await waitFor(() => expect(screen.getByTestId('rows.plan.cost')).toHaveTextContent(/^unknown/));
    await waitFor(() => expect(screen.getByTestId('rows.start')).toBeEnabled());
    await user.click(screen.getByTestId('rows.start'));
    await waitFor(() => expect(screen.getByTestId('rows.status')).toHaveAttribute('data-phase', 'finished'), {
      timeout: 10_000,
    });
    expect(Number(screen.getByTestId('rows.tokens').textContent?.replace(/,/g, ''))).toBeGreaterThan(0);
    expect(screen.getByTestId('rows.cost')).toHaveTextContent(/^unknown \(the target states no price\)$/);
    expect(screen.getByTestId('rows.cost')).not.toHaveTextContent('$');
  });

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
    expect(screen.getByTestId('rows.reuse')).toHaveTextContent(
      '5 answers reused from earlier runs, not billed.',
    );
    expect(screen.getByTestId('rows.cost')).toHaveTextContent(/^\$0\.00/);
    expect(sent).toHaveLength(5);
    // A ceiling for a real server, storage and rendering on a busy machine, not a speed expectation.
  }, 30_000);

  it('exports one line per input line with the lines left out: a stray quote, a too-large row, a refused row', async () => {
    const user = userEvent.setup();
    // Nested deeper than the service takes (64 levels): the planner sends it, the service refuses it with a 422.
    let nested: unknown = 'deep';
    for (let i = 0; i < 70; i++) nested = { a: nested };
    const input = [
      JSON.stringify({ id: 'j1', text: TICKETS[0]![1] }),
      '{"id":"j2","text":"The refund never came}',
      JSON.stringify({ id: 'j3', text: 'word '.repeat(40_000) }),
      JSON.stringify({ id: 'j4', text: nested }),
      '',
      JSON.stringify({ id: 'j6', text: TICKETS[1]![1] }),
    ];
    render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    await pick(user, `${input.join('\n')}\n`, 'mixed.jsonl');
    await user.click(
      within(screen.getByTestId('rows.mapping.mode')).getByLabelText('Whole row as named fields'),
    );
    await waitFor(() => expect(screen.getByTestId('rows.plan.rows')).toHaveTextContent('3'), {
      timeout: 10_000,
    });
    await user.click(screen.getByTestId('rows.start'));
    await waitFor(() => expect(screen.getByTestId('rows.status')).toHaveAttribute('data-phase', 'finished'), {
      timeout: 10_000,
    });
    expect(screen.getByTestId('rows.count.done')).toHaveAttribute('data-value', '2');
    expect(screen.getByTestId('rows.count.invalid')).toHaveAttribute('data-value', '1');

    // Without the option, the sent rows only; with it, every line of the file in order, each once.
    await user.click(screen.getByTestId('rows.export.jsonl'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.text.trim().split('\n')).toHaveLength(3);
    const option = screen.getByTestId('rows.export.leftOut');
    expect(option.closest('label')).toHaveTextContent('with the 3 line(s) left out');
    await user.click(option);
    await user.click(screen.getByTestId('rows.export.jsonl'));
    await waitFor(() => expect(downloads).toHaveLength(2));
    const lines = downloads[1]!.text
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { line: number; status: string; reason?: string; error?: { status: number } },
      );
    expect(lines.map((l) => [l.line, l.status])).toEqual([
      [1, 'done'],
      [2, 'left_out'],
      [3, 'left_out'],
      [4, 'invalid'],
      [5, 'left_out'],
      [6, 'done'],
    ]);
    expect(lines).toHaveLength(input.length);
    expect(lines[2]!.reason).toMatch(/^Too large/);
    expect(lines[3]!.error!.status).toBe(422);

    await user.click(screen.getByTestId('rows.export.csv'));
    await waitFor(() => expect(downloads).toHaveLength(3));
    const csv = Papa.parse<Record<string, string>>(downloads[2]!.text.replace(/^\ufeff/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(csv.errors).toEqual([]);
    expect(csv.data.map((r) => [r.line, r.status, r.row_id])).toEqual([
      ['1', 'done', 'j1'],
      ['2', 'left_out', ''],
      ['3', 'left_out', ''],
      ['4', 'invalid', 'j4'],
      ['5', 'left_out', ''],
      ['6', 'done', 'j6'],
    ]);
    expect(csv.data[4]!.error).not.toBe('');
  }, 30_000);

  it('opens a results file of the command line as a finished run, with its labels, and says which lines it left out', async () => {
    const user = userEvent.setup();
    const questions = EXAMPLE_REQUEST.questions;
    const model = 'model-1.13.0';
    const target = { baseUrl: reference.url, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } };
    // The lines the command line writes, with answers the reference gave for each row.
    const lines = [
      headerLine({
        format: RESULTS_FORMAT,
        version: 1,
        createdAt: new Date().toISOString(),
        rowsFile: 'tickets.csv',
        columns: ['id', 'text', 'human'],
        targetId: 'local',
        model,
        questions,
        mapping: { mode: 'text', column: 'text', idColumn: 'id' },
        labels: { department: 'human' },
      }),
    ];
    for (const [i, [id, text]] of TICKETS.slice(0, 3).entries()) {
      const result = await evaluate(target, { state: text!, model, questions }, {});
      const key = await dedupKey({ targetId: 'local', model, state: text!, questions });
      lines.push(
        resultLine({
          number: i + 1,
          line: i + 2,
          id: id!,
          data: { id: id!, text: text!, human: i === 0 ? 'billing' : 'technical' },
          outcome: {
            status: 'done',
            at: Date.now(),
            attempts: 1,
            possiblyBilledAttempts: 0,
            requeues: 0,
            answerKey: key,
            model: result.response.model,
            inputTokens: result.response.usage.input_tokens,
          },
          response: result.response,
        }),
      );
    }
    lines.splice(3, 0, '{"row":9,"row_id":"cut');
    const { unmount } = render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    // A file of rows picked here by mistake is refused in one sentence.
    const rowsFile = TICKETS.map(([id, text]) => JSON.stringify({ id, text })).join('\n');
    await user.upload(screen.getByTestId('rows.resultsFile'), file(rowsFile, 'tickets.jsonl'));
    await waitFor(() =>
      expect(screen.getByTestId('rows.message')).toHaveTextContent(
        'tickets.jsonl: This is not a results file of Evaluate Workbench',
      ),
    );
    await user.upload(
      screen.getByTestId('rows.resultsFile'),
      new File([`${lines.join('\n')}\n`], 'results.jsonl', { type: 'application/x-ndjson' }),
    );
    await waitFor(() => expect(screen.getByTestId('rows.run.title')).toHaveTextContent('tickets.csv'));
    expect(screen.getByTestId('rows.message')).toHaveTextContent(
      "Opened results.jsonl, the command line's results for tickets.csv: 3 row(s). 1 line(s) of results.jsonl could not be read and are left out (line 4: The line is not complete JSON",
    );
    expect(screen.getByTestId('rows.count.done')).toHaveAttribute('data-value', '3');
    expect(screen.getByTestId('rows.status')).toHaveTextContent('Finished');
    const tableRows = await screen.findAllByTestId('rows.table.row');
    expect(tableRows.map((r) => r.getAttribute('data-row-id'))).toEqual(['t1', 't2', 't3']);
    expect(
      within(tableRows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toContain('billing');
    // The labels the command line read from `human` are the run's labels, for the alignment view.
    expect(
      (holder.store as ReturnType<typeof makeStore>)
        .getState()
        .results()
        .map((r) => r.labels),
    ).toEqual([{ department: 'billing' }, { department: 'technical' }, { department: 'technical' }]);
    await user.click(within(screen.getByTestId('rows.tabs')).getByLabelText('Charts'));
    expect(await screen.findAllByTestId('rows.chart.card')).toHaveLength(3);
    expect(sent).toHaveLength(0);

    // Stored as if made here: after a reload it is listed and opens with its answers, and they are reused.
    unmount();
    db.close();
    makeStore();
    render(<RowsScreen targetId="local" targetLabel="Local reference" />);
    const run = await screen.findByTestId('rows.run');
    expect(within(run).getByTestId('rows.run.status')).toHaveTextContent('finished');
    act(() => useWorkbench.getState().setModel(model));
    await pick(user, ['id,text', ...TICKETS.slice(0, 3).map(quoted)].join('\n'));
    await waitFor(() => expect(screen.getByTestId('rows.start')).toBeEnabled());
    await user.click(screen.getByTestId('rows.start'));
    await waitFor(() => expect(screen.getByTestId('rows.status')).toHaveAttribute('data-phase', 'finished'), {
      timeout: 10_000,
    });
    expect(screen.getByTestId('rows.count.reused')).toHaveAttribute('data-value', '3');
    expect(sent).toHaveLength(0);
  }, 30_000);
});
