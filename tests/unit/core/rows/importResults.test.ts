// A results file of the command line read into a run of the rows screen: the newest line of a row wins, bad lines are
// kept out and told in one sentence, labels come from the columns the command line read them from, answers are kept.
import { describe, expect, it } from 'vitest';
import type { EvaluateResponse, Questions } from '../../../../src/contract';
import { runFromResults, unreadableSentence } from '../../../../src/core/rows/importResults';
import { RowItemSchema, RowRunSchema, StoredAnswerSchema } from '../../../../src/core/rows/records';
import type { RowOutcome } from '../../../../src/core/rows/records';
import { headerLine, readResults, resultLine, RESULTS_FORMAT } from '../../../../src/core/rows/resultsFile';
import type { ResultsHeader } from '../../../../src/core/rows/resultsFile';

const questions: Questions = {
  department: {
    type: 'choice',
    instructions: 'Which team?',
    criteria: { billing: 'Money', technical: 'Bugs', other: null },
  },
  urgent: { type: 'noul', instructions: 'Urgent?' },
};

const header: ResultsHeader = {
  format: RESULTS_FORMAT,
  version: 1,
  createdAt: '2026-11-20T10:00:00.000Z',
  rowsFile: 'tickets.csv',
  columns: ['ticket', 'message', 'human_department'],
  targetId: 'local',
  model: 'model-1.13.0',
  questions,
  mapping: { mode: 'columns', columns: ['message'], idColumn: 'ticket' },
  labels: { department: 'human_department' },
};

const response = (choice: string): EvaluateResponse => ({
  model: 'model-1.13.0',
  answers: {
    department: { type: 'choice', choice, confidence: 0.8, probabilities: { [choice]: 0.9 } },
    urgent: { type: 'noul', noul: 0.2 },
  },
  usage: { input_tokens: 40 },
});

const outcome = (status: RowOutcome['status'], over: Partial<RowOutcome> = {}): RowOutcome => ({
  status,
  at: 1,
  attempts: 1,
  possiblyBilledAttempts: status === 'unknown' ? 1 : 0,
  requeues: 0,
  ...over,
});

const data = (i: number, label: string) => ({
  ticket: `t${i}`,
  message: `message ${i}`,
  human_department: label,
});

const text = [
  headerLine(header),
  resultLine({
    number: 1,
    line: 2,
    id: 't1',
    data: data(1, 'Billing'),
    outcome: outcome('done', { answerKey: 'k1', model: 'model-1.13.0', inputTokens: 40, latencyMs: 12 }),
    response: response('billing'),
  }),
  // Row 2 was in flight when the process was killed; the resumed run retried it and answered it: the newer line wins.
  resultLine({
    number: 2,
    line: 3,
    id: 't2',
    data: data(2, 'technical'),
    outcome: outcome('unknown', {
      error: { kind: 'interrupted', message: 'in flight', fieldErrors: [], possiblyBilled: true },
    }),
  }),
  '{"row":3,"row_id":"t3","line":4,"status":"do',
  resultLine({
    number: 2,
    line: 3,
    id: 't2',
    data: data(2, 'technical'),
    outcome: outcome('done', { answerKey: 'k2', model: 'model-1.13.0', inputTokens: 41 }),
    response: response('technical'),
  }),
  '{"row":4,"status":"sideways"}',
  resultLine({
    number: 5,
    line: 6,
    id: 't5',
    data: data(5, ''),
    outcome: outcome('invalid', {
      error: {
        kind: 'validation',
        message: 'The service refused this row (422).',
        status: 422,
        fieldErrors: [],
        possiblyBilled: false,
      },
    }),
  }),
  '',
].join('\n');

describe('runFromResults', () => {
  const read = readResults(text, 1_000);
  if (!read.ok) throw new Error(read.message);
  const imported = runFromResults(read.results, {
    runId: 'run-1',
    now: 2_000,
    tokensOf: () => 33,
  });

  it('makes a finished run of the settled rows, with the header’s questions, model, target and mapping', () => {
    expect(RowRunSchema.parse(imported.run)).toEqual(imported.run);
    expect(imported.run).toMatchObject({
      id: 'run-1',
      fileName: 'tickets.csv',
      format: 'csv',
      columns: header.columns,
      targetId: 'local',
      model: 'model-1.13.0',
      questions,
      status: 'finished',
      rowCount: 3,
      createdAt: Date.parse(header.createdAt),
      updatedAt: 2_000,
      totalTokens: 40 + 41 + 33,
    });
    expect(imported.run.mapping).toMatchObject({
      mode: 'columns',
      columns: ['message'],
      labels: [{ column: 'human_department', question: 'department' }],
    });
  });

  it('keeps the newest line of each row, its outcome and labels, and leaves the bad lines out', () => {
    for (const item of imported.items) RowItemSchema.parse(item);
    expect(imported.items.map((i) => [i.number, i.line, i.id, i.outcome?.status])).toEqual([
      [1, 2, 't1', 'done'],
      [2, 3, 't2', 'done'],
      [5, 6, 't5', 'invalid'],
    ]);
    expect(imported.items.map((i) => i.labels)).toEqual([
      { department: 'billing' },
      { department: 'technical' },
      undefined,
    ]);
    expect(imported.items[2]!.outcome?.error?.status).toBe(422);
    expect(read.results.unreadable.map((u) => u.line)).toEqual([4, 6]);
  });

  it('keeps every answer under its key, so the run shows it and later runs reuse it', () => {
    expect(imported.answers.map((a) => StoredAnswerSchema.parse(a))).toEqual([
      { key: 'k1', targetId: 'local', model: 'model-1.13.0', response: response('billing'), at: 1_000 },
      { key: 'k2', targetId: 'local', model: 'model-1.13.0', response: response('technical'), at: 1_000 },
    ]);
    expect(imported.items[0]!.outcome?.answerKey).toBe('k1');
  });

  it('says which lines could not be read in one sentence', () => {
    expect(unreadableSentence('results.jsonl', read.results.unreadable)).toBe(
      '2 line(s) of results.jsonl could not be read and are left out (line 4: The line is not complete JSON (was the run stopped mid-write?); line 6: ' +
        read.results.unreadable[1]!.reason.replace(/\.$/, '') +
        ').',
    );
    expect(unreadableSentence('results.jsonl', [])).toBeNull();
  });

  it('refuses a file that is not a results file, in one sentence', () => {
    const foreign = readResults('{"id":"t1","message":"hello"}\n');
    expect(foreign).toEqual({
      ok: false,
      message: expect.stringMatching(/^This is not a results file of Evaluate Workbench/),
    });
  });
});

describe('labels given in the app, through a results file', () => {
  // Row 1's department label came from its column; the rest were given in the labelling view (in no column).
  const labelledText = [
    headerLine(header),
    resultLine({
      number: 1,
      line: 2,
      id: 't1',
      data: data(1, 'Billing'),
      outcome: outcome('done', { answerKey: 'k1', model: 'model-1.13.0' }),
      response: response('billing'),
      labels: { department: 'billing', urgent: true },
    }),
    resultLine({
      number: 2,
      line: 3,
      id: 't2',
      data: data(2, ''),
      outcome: outcome('done', { answerKey: 'k2', model: 'model-1.13.0' }),
      response: response('technical'),
      // "sales" is no label of the header's department question: it is not taken.
      labels: { department: 'sales', urgent: false },
    }),
    '',
  ].join('\n');

  it('reads each line’s labels back and stores them on the run’s rows, leaving out a label that fits no question', () => {
    const read = readResults(labelledText, 1_000);
    if (!read.ok) throw new Error(read.message);
    expect(read.results.rows.map((r) => r.labels)).toEqual([
      { department: 'billing', urgent: true },
      { department: 'sales', urgent: false },
    ]);
    const imported = runFromResults(read.results, { runId: 'run-2', now: 2_000 });
    for (const item of imported.items) RowItemSchema.parse(item);
    expect(imported.items.map((i) => i.labels)).toEqual([
      { department: 'billing', urgent: true },
      { urgent: false },
    ]);
  });

  it('refuses a line whose labels are not label values', () => {
    const bad = `${headerLine(header)}\n${JSON.stringify({
      ...JSON.parse(
        resultLine({ number: 1, line: 2, id: 't1', data: data(1, ''), outcome: outcome('done') }),
      ),
      labels: { urgent: { yes: 1 } },
    })}\n`;
    const read = readResults(bad);
    if (!read.ok) throw new Error(read.message);
    expect(read.results.rows).toEqual([]);
    expect(read.results.unreadable.map((u) => u.line)).toEqual([2]);
  });
});
