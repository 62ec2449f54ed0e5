// Results: flattened answer columns, filters, aggregates and both exports (with every annotator's labels), read back
// with a real CSV parser.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { EvaluateResponse, Questions } from '../../../../src/contract';
import type { ResultRow } from '../../../../src/core/rows/results';
import { exportJsonl } from '../../../../src/core/rows/exportJsonl';
import type { ResultsHeader } from '../../../../src/core/rows/resultsFile';
import {
  RESULTS_FORMAT,
  RESULTS_VERSION,
  headerLine,
  readResults,
  resultLine,
} from '../../../../src/core/rows/resultsFile';
import {
  NO_FILTER,
  aggregate,
  answerColumns,
  exportCsv,
  exportInputColumns,
  filterRows,
  histogram,
  leftOutLines,
} from '../../../../src/core/rows/results';

const questions: Questions = {
  dept: {
    type: 'choice',
    instructions: 'Team?',
    criteria: { billing: 'Money', technical: 'Bugs', other: null },
  },
  mood: { type: 'score', instructions: 'Mood?', criteria: ['calm', 'annoyed', 'angry'] },
  urgent: { type: 'noul', instructions: 'Urgent?' },
};

const response = (choice: string, conf: number, score: number, yes: number): EvaluateResponse => ({
  model: 'model-1.13.0',
  answers: {
    dept: {
      type: 'choice',
      choice,
      confidence: conf,
      probabilities: { billing: 0.1, technical: 0.1, other: 0.1, [choice]: 0.8 },
    },
    mood: {
      type: 'score',
      score,
      confidence: conf,
      legend: { 0: 'calm', 1: 'annoyed', 2: 'angry' },
      probabilities: { 0: 0.2, 1: 0.5, 2: 0.3 },
    },
    urgent: { type: 'noul', noul: yes },
  },
  usage: { input_tokens: 120, output_tokens: 0 },
});

const done = (number: number, text: string, r: EvaluateResponse): ResultRow => ({
  number,
  line: number + 1,
  id: `t${number}`,
  data: { id: `t${number}`, text },
  outcome: {
    status: 'done',
    at: 0,
    attempts: 1,
    possiblyBilledAttempts: 0,
    requeues: 0,
    latencyMs: 12.4,
    model: r.model,
    inputTokens: 120,
    answerKey: 'k',
  },
  response: r,
});

const rows: ResultRow[] = [
  done(1, 'charged twice', response('billing', 0.9, 1.1, 0.8)),
  done(2, 'app crashes', response('technical', 0.3, 0.2, 0.1)),
  {
    number: 3,
    line: 4,
    id: 't3',
    data: { id: 't3', text: '=HYPERLINK("x")' },
    outcome: {
      status: 'invalid',
      at: 0,
      attempts: 1,
      possiblyBilledAttempts: 0,
      requeues: 0,
      error: {
        kind: 'validation',
        message: 'The request failed validation (422).',
        fieldErrors: [],
        possiblyBilled: false,
      },
    },
  },
  { number: 4, line: 5, id: 't4', data: { id: 't4', text: 'not yet' } },
];

describe('answer columns', () => {
  it('gives each question its columns, in question order', () => {
    expect(answerColumns(questions).map((c) => c.key)).toEqual([
      'dept.label',
      'dept.p',
      'dept.confidence',
      'mood.score',
      'mood.level',
      'mood.confidence',
      'urgent.yes',
    ]);
  });
});

describe('filters', () => {
  const columns = answerColumns(questions);
  it('filters by status, low confidence, thresholds and text', () => {
    expect(filterRows(rows, NO_FILTER, columns)).toEqual([0, 1, 2, 3]);
    expect(filterRows(rows, { ...NO_FILTER, status: 'answered' }, columns)).toEqual([0, 1]);
    expect(filterRows(rows, { ...NO_FILTER, status: 'problems' }, columns)).toEqual([2]);
    expect(filterRows(rows, { ...NO_FILTER, status: 'pending' }, columns)).toEqual([3]);
    expect(filterRows(rows, { ...NO_FILTER, lowConfidenceBelow: 0.5 }, columns)).toEqual([1]);
    expect(
      filterRows(
        rows,
        { ...NO_FILTER, thresholds: [{ column: 'urgent.yes', op: '>=', value: 0.5 }] },
        columns,
      ),
    ).toEqual([0]);
    expect(
      filterRows(rows, { ...NO_FILTER, thresholds: [{ column: 'mood.score', op: '<', value: 1 }] }, columns),
    ).toEqual([1]);
    expect(filterRows(rows, { ...NO_FILTER, text: 'CRASH' }, columns)).toEqual([1]);
    expect(filterRows(rows, { ...NO_FILTER, text: 'validation' }, columns)).toEqual([2]);
  });
});

describe('aggregates', () => {
  it('bins values in equal bins and puts the maximum in the last one', () => {
    expect(histogram([0, 0.05, 0.1, 0.95, 1, 1.2, Number.NaN], 0, 1, 10).map((b) => b.count)).toEqual([
      2, 1, 0, 0, 0, 0, 0, 0, 0, 2,
    ]);
  });

  it('counts choices per label (every label, in criteria order) and bins scores, P(yes) and confidence', () => {
    const [dept, mood, urgent] = aggregate(rows, questions);
    expect(dept).toMatchObject({
      type: 'choice',
      answered: 2,
      counts: [
        { label: 'billing', count: 1 },
        { label: 'technical', count: 1 },
        { label: 'other', count: 0 },
      ],
    });
    if (dept?.type !== 'choice' || mood?.type !== 'score' || urgent?.type !== 'noul')
      throw new Error('kinds');
    expect(dept.confidence[9]!.count).toBe(1);
    expect(dept.confidence[3]!.count).toBe(1);
    expect(mood.scores.map((b) => [b.x0, b.x1])).toEqual([
      [0, 0.5],
      [0.5, 1],
      [1, 1.5],
      [1.5, 2],
    ]);
    expect(mood.scores.map((b) => b.count)).toEqual([1, 0, 1, 0]);
    expect(urgent.yes[8]!.count).toBe(1);
    expect(urgent.yes[1]!.count).toBe(1);
    expect(dept.refused).toBe(0);
  });

  it('counts a refused question apart from the answered rows (issue 29 sweep: rows x refusals)', () => {
    const refusing = rows.map((r) =>
      r.response
        ? {
            ...r,
            response: {
              ...r.response,
              answers: {
                ...r.response.answers,
                dept: { type: 'refusal' as const, question_type: 'choice' as const },
              },
            },
          }
        : r,
    );
    const [dept] = aggregate(refusing, questions);
    expect(dept).toMatchObject({ type: 'choice', answered: 0, refused: 2 });
  });
});

describe('export', () => {
  it('writes a CSV with one line per row: ids, status, model, usage, answers and the input', () => {
    const text = exportCsv(rows, questions, exportInputColumns(rows, ['id', 'text']), 2).join('');
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(4);
    expect(parsed.meta.fields?.slice(0, 9)).toEqual([
      'row_id',
      'line',
      'status',
      'error',
      'model',
      'input_tokens',
      'latency_ms',
      'attempts',
      'possibly_billed_attempts',
    ]);
    expect(parsed.data[0]).toMatchObject({
      row_id: 't1',
      line: '2',
      status: 'done',
      model: 'model-1.13.0',
      input_tokens: '120',
      latency_ms: '12',
      'dept.label': 'billing',
      'dept.p': '0.8',
      'mood.level': '1',
      'urgent.yes': '0.8',
      'input.text': 'charged twice',
    });
    expect(parsed.data[2]).toMatchObject({
      status: 'invalid',
      error: 'The request failed validation (422).',
      'dept.label': '',
    });
    // A cell that looks like a formula cannot run when the file is opened in a spreadsheet.
    expect(parsed.data[2]!['input.text']).toBe(`'=HYPERLINK("x")`);
    expect(parsed.data[3]).toMatchObject({ status: 'pending', row_id: 't4' });
  });

  it('writes JSONL with the full answers, usage and input', () => {
    const lines = exportJsonl(rows, 3)
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({
      row_id: 't1',
      status: 'done',
      model: 'model-1.13.0',
      usage: { input_tokens: 120, billed_input_tokens: 120 },
      answers: { dept: { choice: 'billing' } },
      input: { text: 'charged twice' },
    });
    expect(lines[2]).toMatchObject({ status: 'invalid', error: { kind: 'validation' }, answers: null });
  });

  it('says in JSONL which answers were reused instead of asked, and a results file reads it back', () => {
    const partly: ResultRow = {
      ...done(1, 'charged twice', response('billing', 0.9, 1.1, 0.8)),
      outcome: {
        ...done(1, '', response('billing', 0.9, 1.1, 0.8)).outcome!,
        reusedQuestions: ['dept', 'urgent'],
      },
    };
    const line = JSON.parse(exportJsonl([partly]).join('')) as Record<string, unknown>;
    expect(line['reused_questions']).toEqual(['dept', 'urgent']);
    expect(JSON.parse(exportJsonl([rows[0]!]).join(''))).not.toHaveProperty('reused_questions');
    const header: ResultsHeader = {
      format: RESULTS_FORMAT,
      version: RESULTS_VERSION,
      createdAt: '2026-01-01T00:00:00Z',
      rowsFile: 'rows.csv',
      columns: ['id', 'text'],
      targetId: 'local',
      model: 'model-1.13.0',
      questions,
      mapping: { mode: 'text', column: 'text', idColumn: 'id' },
      labels: {},
    };
    const read = readResults(`${headerLine(header)}\n${resultLine(partly)}\n`);
    expect(read.ok && read.results.rows[0]?.outcome.reusedQuestions).toEqual(['dept', 'urgent']);
  });

  it('exports non-object rows under a `value` column', () => {
    const plain: ResultRow[] = [{ number: 1, line: 1, id: '1', data: 'just text' }];
    expect(exportInputColumns(plain, [])).toEqual(['value']);
    expect(exportCsv(plain, questions, ['value']).join('')).toMatch(/just text/);
  });
});

describe('exports that join back to the source', () => {
  const leftOut = [
    { line: 3, kind: 'malformed', reason: 'Malformed CSV: 3 fields, but the header has 2.' },
    { line: 7, kind: 'empty', reason: 'Empty row: nothing to evaluate.' },
    { line: 1, kind: 'malformed', reason: 'The header line is malformed.' },
  ];

  it('puts every left-out line in line order with its reason, one CSV line per input line', () => {
    const text = exportCsv(rows, questions, ['id', 'text'], 2, leftOut).join('');
    const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true }).data;
    expect(parsed.map((r) => [r.line, r.status])).toEqual([
      ['1', 'left_out'],
      ['2', 'done'],
      ['3', 'done'],
      ['3', 'left_out'],
      ['4', 'invalid'],
      ['5', 'pending'],
      ['7', 'left_out'],
    ]);
    expect(parsed[3]!.error).toBe('Malformed CSV: 3 fields, but the header has 2.');
    expect(parsed[3]!['dept.label']).toBe('');
  });

  it('does the same in JSON Lines, and leaves both exports as they were without left-out lines', () => {
    const lines = exportJsonl(rows, 3, leftOut)
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; status: string; reason?: string });
    expect(lines.map((l) => [l.line, l.status])).toEqual([
      [1, 'left_out'],
      [2, 'done'],
      [3, 'done'],
      [3, 'left_out'],
      [4, 'invalid'],
      [5, 'pending'],
      [7, 'left_out'],
    ]);
    expect(lines[6]!.reason).toBe('Empty row: nothing to evaluate.');
    expect(exportJsonl(rows, 3)).toEqual(exportJsonl(rows, 3, []));
    expect(exportCsv(rows, questions, ['id'], 2).join('')).toBe(
      exportCsv(rows, questions, ['id'], 2, []).join(''),
    );
  });

  it("takes a run's skipped issues as left-out lines: warnings still run, two reasons for a line make one line", () => {
    const issues = [
      { line: 9, kind: 'too_large', severity: 'skip' as const, reason: 'Too large: 70000 input tokens.' },
      { line: 4, kind: 'duplicate_id', severity: 'warn' as const, reason: 'The id "a" was already used.' },
      { line: 3, kind: 'malformed', severity: 'skip' as const, reason: 'Lines 3-5 were read as one field.' },
      { line: 3, kind: 'malformed', severity: 'skip' as const, reason: 'The quote is never closed.' },
    ];
    expect(leftOutLines(issues)).toEqual([
      {
        line: 3,
        kind: 'malformed',
        reason: 'Lines 3-5 were read as one field. The quote is never closed.',
      },
      { line: 9, kind: 'too_large', reason: 'Too large: 70000 input tokens.' },
    ]);
    expect(leftOutLines([])).toEqual([]);
  });
});

describe('human labels in the exports', () => {
  const labelled: ResultRow[] = [
    { ...rows[0]!, labels: { dept: 'technical', mood: 2, urgent: false } },
    { ...rows[1]!, labels: { urgent: true } },
    rows[2]!,
  ];

  it('writes a label.<question> column per labelled question: the label, the level number, yes/no', () => {
    const text = exportCsv(labelled, questions, ['text']).join('');
    const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true });
    expect(parsed.meta.fields).toEqual(expect.arrayContaining(['label.dept', 'label.mood', 'label.urgent']));
    expect(parsed.data.map((r) => [r['label.dept'], r['label.mood'], r['label.urgent']])).toEqual([
      ['technical', '2', 'no'],
      ['', '', 'yes'],
      ['', '', ''],
    ]);
  });

  it('writes each row’s labels by question in JSON Lines, and none for a row without', () => {
    const lines = exportJsonl(labelled)
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { labels?: unknown });
    expect(lines.map((l) => l.labels)).toEqual([
      { dept: 'technical', mood: 2, urgent: false },
      { urgent: true },
      undefined,
    ]);
  });

  const annotated: ResultRow[] = [
    {
      ...rows[0]!,
      labels: { dept: 'technical', urgent: true },
      annotations: { dept: { ana: 'technical', bo: 'billing', cy: 'technical' } },
    },
    { ...rows[1]!, labels: { dept: 'billing' }, annotations: { dept: { bo: 'billing' } } },
    rows[2]!,
  ];

  it("writes each annotator's label as label.<question>.<annotator> after the majority, empty where none", () => {
    const text = exportCsv(annotated, questions, ['text']).join('');
    const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true });
    const fields = parsed.meta.fields!;
    expect(fields.filter((f) => f.startsWith('label.'))).toEqual([
      'label.dept',
      'label.urgent',
      'label.dept.ana',
      'label.dept.bo',
      'label.dept.cy',
    ]);
    expect(
      parsed.data.map((r) => ['dept', 'dept.ana', 'dept.bo', 'dept.cy'].map((k) => r[`label.${k}`])),
    ).toEqual([
      ['technical', 'technical', 'billing', 'technical'],
      ['billing', '', 'billing', ''],
      ['', '', '', ''],
    ]);
  });

  it("writes every annotator's labels in JSON Lines beside the row's", () => {
    const lines = exportJsonl(annotated)
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { labels?: unknown; annotations?: unknown });
    expect(lines.map((l) => [l.labels, l.annotations])).toEqual([
      [{ dept: 'technical', urgent: true }, { dept: { ana: 'technical', bo: 'billing', cy: 'technical' } }],
      [{ dept: 'billing' }, { dept: { bo: 'billing' } }],
      [undefined, undefined],
    ]);
  });
});
