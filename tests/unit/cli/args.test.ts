// The command line's pure parts: --map entries and the mapping they make (labels, ids and metadata never in the
// state), gates and their checks, and the results file read back (newest line wins, a cut-off line listed).
import { describe, expect, it } from 'vitest';
import { checkGates, parseGate } from '../../../src/cli/gates';
import {
  InputError,
  defaultLabelsLine,
  mappingFor,
  parseMapSpec,
  withDefaultLabels,
} from '../../../src/cli/inputs';
import type { Figure } from '../../../src/core/alignment';
import { headerLine, readResults, resultLine, resumeMismatch } from '../../../src/core/rows/resultsFile';
import type { ResultsHeader } from '../../../src/core/rows/resultsFile';

const COLUMNS = ['id', 'message', 'channel', 'human_department', 'batch'];

describe('--map', () => {
  it('keeps label, id and metadata columns out of a whole-row state', () => {
    const spec = parseMapSpec(['label.department=human_department', 'meta=batch']);
    expect(mappingFor(spec, COLUMNS, true)).toEqual({
      mode: 'columns',
      columns: ['message', 'channel'],
      idColumn: 'id',
    });
  });

  it("reads a column named like a question as its label by default, through the app's own rule", () => {
    const columns = ['id', 'message', 'department', 'is_urgent'];
    const { spec, defaulted } = withDefaultLabels(parseMapSpec([]), columns, true, [
      'department',
      'is_urgent',
    ]);
    expect(defaulted).toEqual([
      { column: 'department', question: 'department' },
      { column: 'is_urgent', question: 'is_urgent' },
    ]);
    expect(mappingFor(spec, columns, true)).toEqual({
      mode: 'columns',
      columns: ['message'],
      idColumn: 'id',
    });
    expect(defaultLabelsLine(defaulted)).toMatch(
      /^"department", "is_urgent" are named like questions, so read as their human labels and never sent/,
    );
    // Named in the state, or another column given as the question's label: the user said otherwise.
    const chosen = withDefaultLabels(
      parseMapSpec(['columns=message,department', 'label.is_urgent=message']),
      columns,
      true,
      ['department', 'is_urgent'],
    );
    expect(chosen.defaulted).toEqual([]);
  });

  it('takes one column as text, or chosen columns, with an id', () => {
    expect(mappingFor(parseMapSpec(['text=message']), COLUMNS, true)).toEqual({
      mode: 'text',
      column: 'message',
      idColumn: 'id',
    });
    expect(mappingFor(parseMapSpec(['columns=message,channel', 'id=batch']), COLUMNS, true)).toEqual({
      mode: 'columns',
      columns: ['message', 'channel'],
      idColumn: 'batch',
    });
  });

  it('refuses a label column used as the state, a missing column and an entry it does not know', () => {
    expect(() =>
      mappingFor(parseMapSpec(['text=human_department', 'label.d=human_department']), COLUMNS, true),
    ).toThrow(/cannot be both the state and a label/);
    expect(() => mappingFor(parseMapSpec(['text=body']), COLUMNS, true)).toThrow(/no column "body"/);
    expect(() => parseMapSpec(['state=message'])).toThrow(InputError);
  });
});

const figure = (value: number | null, lo: number | null, hi: number | null): Figure => ({
  value,
  lo,
  hi,
  n: 100,
  method: 'test',
  ...(value === null && { undefinedReason: 'one class only' }),
});

describe('gates', () => {
  it('parses question.metric=value and refuses anything else', () => {
    expect(parseGate('min', 'department.kappa=0.7')).toEqual({
      key: 'department.kappa',
      kind: 'min',
      bound: 0.7,
    });
    expect(() => parseGate('max', 'mae<0.4')).toThrow(/question\.metric=value/);
  });

  it('compares the figure, or with --strict the end of its interval, and fails a missing or undefined one', () => {
    const figures = new Map([
      ['department.kappa', figure(0.74, 0.66, 0.81)],
      ['frustration.mae', figure(0.38, 0.31, 0.45)],
      ['urgent.auroc', figure(null, null, null)],
    ]);
    const gates = [
      parseGate('min', 'department.kappa=0.7'),
      parseGate('max', 'frustration.mae=0.4'),
      parseGate('min', 'urgent.auroc=0.8'),
      parseGate('min', 'tone.kappa=0.5'),
    ];
    expect(checkGates(gates, figures).map((g) => g.passed)).toEqual([true, true, false, false]);
    expect(checkGates(gates, figures, { strict: true }).map((g) => g.passed)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    const [, , undefinedGate, missing] = checkGates(gates, figures);
    expect(undefinedGate!.message).toBe('urgent.auroc is undefined (one class only), so it cannot be ≥ 0.8.');
    expect(missing!.message).toMatch(
      /^tone\.kappa: no such figure for this run \(figures: department\.kappa/,
    );
  });
});

const HEADER: ResultsHeader = {
  format: 'evaluate-workbench/results',
  version: 1,
  createdAt: '2026-11-23T00:00:00.000Z',
  rowsFile: 'rows.csv',
  columns: ['message'],
  targetId: 'local',
  model: 'model-1.13.0',
  questions: { urgent: { type: 'noul', instructions: 'Urgent?' } },
  mapping: { mode: 'text', column: 'message', idColumn: null },
  labels: {},
};

describe('results file', () => {
  it('reads the newest line of each row back, and lists a line cut off mid-write', () => {
    const row = (status: 'unknown' | 'done') =>
      resultLine({
        number: 1,
        line: 2,
        id: '1',
        data: { message: 'help' },
        outcome: {
          status,
          at: 1,
          attempts: 1,
          possiblyBilledAttempts: status === 'unknown' ? 1 : 0,
          requeues: 0,
        },
        ...(status === 'done' && {
          response: {
            model: 'model-1.13.0',
            answers: { urgent: { type: 'noul', noul: 0.8 } },
            usage: { input_tokens: 5, output_tokens: 0 },
          },
        }),
      });
    const text = [headerLine(HEADER), row('unknown'), row('done'), '{"row":2,"row_id"'].join('\n');
    const read = readResults(text);
    if (!read.ok) throw new Error(read.message);
    expect(read.results.rows).toHaveLength(1);
    expect(read.results.rows[0]!.outcome.status).toBe('done');
    expect(read.results.rows[0]!.response!.answers.urgent).toEqual({ type: 'noul', noul: 0.8 });
    expect(read.results.unreadable).toEqual([
      { line: 4, reason: expect.stringMatching(/not complete JSON/) },
    ]);
  });

  it('refuses a file that is not a results file, and a resume with other settings', () => {
    expect(readResults('{"row":1}')).toEqual({
      ok: false,
      message: expect.stringMatching(/not a results file/),
    });
    expect(resumeMismatch(HEADER, { ...HEADER, model: 'model-1.14.0' })).toMatch(
      /the model \(model-1\.13\.0, now model-1\.14\.0\)/,
    );
    expect(resumeMismatch(HEADER, { ...HEADER, createdAt: 'later' })).toBeNull();
  });
});

describe('the results store', () => {
  it('finds a line by its key past 4 GB into the file, before and after the table grows', async () => {
    const { AnswerIndex } = await import('../../../src/cli/resultsStore');
    const index = new AnswerIndex(4);
    const offsets = [10, 2 ** 32 - 1, 2 ** 32 + 5, 2 ** 40 + 7];
    offsets.forEach((offset, i) => index.add(`key-${i}`, offset));
    offsets.forEach((offset, i) => expect(index.candidates(`key-${i}`)).toContain(offset));
    // Past its load the table doubles: every offset, small or wide, moves with it.
    for (let i = 4; i < 3000; i++) index.add(`key-${i}`, 2 ** 33 + i);
    offsets.forEach((offset, i) => expect(index.candidates(`key-${i}`)).toContain(offset));
    expect(index.candidates('key-2999')).toContain(2 ** 33 + 2999);
    expect(index.size).toBe(3000);
  });

  it('finds an answer written in this run by its place in the file, and writes reused rows with that answer', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { AnswerIndex, openResults, ResultsStore } = await import('../../../src/cli/resultsStore');
    const dir = mkdtempSync(join(tmpdir(), 'ew-store-'));
    try {
      const out = join(dir, 'r.jsonl');
      const index = new AnswerIndex(2);
      openResults(out, HEADER, 2, index);
      const sources = new Map([
        [1, { number: 1, line: 2, id: 'a', data: { message: 'help' } }],
        [2, { number: 2, line: 3, id: 'b', data: { message: 'help' } }],
      ]);
      const store = new ResultsStore(out, index, 'local');
      store.setSources(sources);
      const response = {
        model: 'model-1.13.0',
        answers: { urgent: { type: 'noul' as const, noul: 0.75 } },
        usage: { input_tokens: 7, output_tokens: 0 },
      };
      const done = { status: 'done' as const, at: 1, attempts: 1, possiblyBilledAttempts: 0, requeues: 0 };
      await store.saveAnswered(
        1,
        { ...done, answerKey: 'k1' },
        { key: 'k1', targetId: 'local', model: 'model-1.13.0', response, at: 1 },
      );
      const found = await store.findAnswers(['k1', 'nope']);
      expect(found.get('k1')?.response).toEqual(response);
      expect([...found.keys()]).toEqual(['k1']);
      await store.saveOutcome(2, { ...done, status: 'reused', answerKey: 'k1', inputTokens: 0 });
      store.close();
      const read = readResults(readFileSync(out, 'utf8'));
      if (!read.ok) throw new Error(read.message);
      expect(read.results.rows.map((r) => [r.id, r.outcome.status, r.response?.answers])).toEqual([
        ['a', 'done', response.answers],
        ['b', 'reused', response.answers],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
