import { describe, expect, it } from 'vitest';
import type { EvaluateRequest, EvaluateResponse } from '../../../src/contract';
import {
  DEFAULT_THRESHOLD,
  addColumn,
  columnDraft,
  compareColumns,
  newComparison,
  pinColumn,
  recordColumnRun,
  removeColumn,
  updateColumn,
  pinSuggestion,
  sameQuestionsAndState,
  sortQuestions,
  topChoiceAgreementCounts,
} from '../../../src/core/compare';
import type { CompareColumnInput } from '../../../src/core/compare';
import { CompareSchema } from '../../../src/core/session';
import type { RunRecord, Session } from '../../../src/core/session';
import { exportFile, parseImportFile } from '../../../src/core/sessionFile';
import { decodeShareFragment, encodeShareFragment, sessionFromShared } from '../../../src/core/shareLink';
import { exampleDoc } from '../../../src/core/example';
import { exampleRequest } from '../../helpers/fixtures';
import { sampleSession } from '../../helpers/sessions';

const request = (model: string): EvaluateRequest => ({ ...exampleRequest(), model });

/** A response to the contract's example request with the given department, frustration and urgency answers. */
function response(
  model: string,
  department: Record<string, number>,
  chosen: string,
  frustration: Record<string, number>,
  score: number,
  urgent: number,
): EvaluateResponse {
  return {
    model,
    answers: {
      is_urgent: { type: 'noul', noul: urgent },
      department: { type: 'choice', choice: chosen, confidence: 0.5, probabilities: department },
      frustration: {
        type: 'score',
        score,
        confidence: 0.2,
        legend: {
          '0': 'Calm, just stating facts',
          '1': 'Frustrated but civil',
          '2': 'Angry or threatening to leave',
        },
        probabilities: frustration,
      },
    },
    usage: { input_tokens: 318 },
  };
}

const base = response(
  'model-1.12.0',
  { billing: 0.14, technical: 0.81, other: 0.05 },
  'technical',
  { '0': 0.12, '1': 0.34, '2': 0.54 },
  1.42,
  0.93,
);
const other = response(
  'model-1.14.0',
  { billing: 0.6, technical: 0.3, other: 0.1 },
  'billing',
  { '0': 0.1, '1': 0.4, '2': 0.5 },
  1.4,
  0.83,
);
const columns = (): CompareColumnInput[] => [
  { id: 'a', request: request('model-1.12.0'), response: base },
  { id: 'b', request: request('model-1.14.0'), response: other },
];

describe('compareColumns', () => {
  it('lists questions in the baseline request order with the metrics of each column against the baseline', () => {
    const c = compareColumns(columns(), 0.2);
    expect(c.questions.map((q) => q.name)).toEqual(['is_urgent', 'department', 'frustration']);
    const [urgent, department, frustration] = c.questions;

    // noul: 0.83 - 0.93 = -0.10; disagreement |−0.10| = 0.10
    expect(urgent!.cells[1]!.metrics).toEqual({ kind: 'noul', yesDifference: expect.closeTo(-0.1, 12) });
    expect(urgent!.disagreement).toBeCloseTo(0.1, 12);
    expect(urgent!.flagged).toBe(false);

    // choice: (|0.14-0.6| + |0.81-0.3| + |0.05-0.1|) / 2 = (0.46 + 0.51 + 0.05) / 2 = 0.51; tops differ
    const m = department!.cells[1]!.metrics;
    expect(m?.kind).toBe('choice');
    if (m?.kind !== 'choice') return;
    expect(m.topChoiceAgrees).toBe(false);
    expect(m.totalVariation).toBeCloseTo(0.51, 12);
    expect(department!.disagreement).toBeCloseTo(0.51, 12);
    expect(department!.flagged).toBe(true);
    expect(department!.mostDifferentColumnId).toBe('b');

    // score: Δ = 1.40 - 1.42 = -0.02; TVD = (0.02 + 0.06 + 0.04) / 2 = 0.06
    const s = frustration!.cells[1]!.metrics;
    expect(s).toEqual({
      kind: 'score',
      scoreDifference: expect.closeTo(-0.02, 12),
      totalVariation: expect.closeTo(0.06, 12),
    });
    expect(frustration!.flagged).toBe(false);
    expect(c.flaggedCount).toBe(1);
  });

  it('gives the baseline no metrics against itself', () => {
    const c = compareColumns(columns(), 0.2);
    for (const q of c.questions) {
      expect(q.cells[0]!.metrics).toBeUndefined();
      expect(q.cells[0]!.answer).toBeDefined();
    }
  });

  it('orders choice options by the baseline probabilities, then criteria order, and shares it across columns', () => {
    const department = compareColumns(columns(), 0.2).questions[1]!;
    // baseline: technical 0.81 > billing 0.14 > other 0.05
    expect(department.labels).toEqual(['technical', 'billing', 'other']);
    expect(department.labelTexts).toEqual(['Bugs and integrations', 'Payments and refunds', null]);
    // largest probability anywhere is 0.81: 0.81 + 0.05 = 0.86, the shared axis ends at 0.9
    expect(department.probabilityMax).toBe(0.9);
  });

  it('breaks probability ties in criteria order', () => {
    const tied = response('m', { billing: 0.1, technical: 0.45, other: 0.45 }, 'technical', {}, 0, 0);
    const q = compareColumns([{ id: 'a', request: request('m'), response: tied }, { id: 'b' }], 0.2)
      .questions[1]!;
    expect(q.labels).toEqual(['technical', 'other', 'billing']);
    // 0.45 + 0.05 = 0.50 exactly: the axis ends at 0.5, not 0.6
    expect(q.probabilityMax).toBe(0.5);
  });

  it('keeps headroom past the longest bar, up to the end of the scale', () => {
    const at = (top: number) => {
      const rest = (1 - top) / 2;
      const answered = response('m', { billing: top, technical: rest, other: rest }, 'billing', {}, 0, 0);
      return compareColumns([{ id: 'a', request: request('m'), response: answered }, { id: 'b' }], 0.2)
        .questions[1]!.probabilityMax;
    };
    // 0.40 + 0.05 = 0.45 -> 0.5; 0.85 + 0.05 = 0.90 -> 0.9; 0.96 + 0.05 = 1.01 -> capped at 1
    expect(at(0.4)).toBe(0.5);
    expect(at(0.85)).toBe(0.9);
    expect(at(0.96)).toBe(1);
  });

  it('falls back to criteria order when no column answered, and appends labels only one side has', () => {
    const none = compareColumns([{ id: 'a', request: request('m') }, { id: 'b' }], 0.2).questions[1]!;
    expect(none.labels).toEqual(['billing', 'technical', 'other']);
    expect(none.disagreement).toBeNull();
    expect(none.flagged).toBe(false);

    const extra = response('m', { billing: 0.5, technical: 0.3, other: 0.1, spam: 0.1 }, 'billing', {}, 0, 0);
    const q = compareColumns(
      [
        { id: 'a', request: request('m'), response: base },
        { id: 'b', request: request('m'), response: extra },
      ],
      0.2,
    ).questions[1]!;
    expect(q.labels).toEqual(['technical', 'billing', 'other', 'spam']);
    // spam is 0 on the baseline: (|0.14-0.5| + |0.81-0.3| + |0.05-0.1| + |0-0.1|) / 2 = (0.36+0.51+0.05+0.1)/2 = 0.51
    expect(q.disagreement).toBeCloseTo(0.51, 12);
  });

  it('lays score levels out in level order with the legend texts and the level count for the shared axis', () => {
    const q = compareColumns(columns(), 0.2).questions[2]!;
    expect(q.labels).toEqual(['0', '1', '2']);
    expect(q.labelTexts).toEqual([
      'Calm, just stating facts',
      'Frustrated but civil',
      'Angry or threatening to leave',
    ]);
    expect(q.levelCount).toBe(3);
    // 0.54 is the largest level probability: 0.54 + 0.05 = 0.59, axis to 0.6
    expect(q.probabilityMax).toBe(0.6);
  });

  it('takes the largest disagreement over up to four columns and names the column', () => {
    const mild = response(
      'x',
      { billing: 0.2, technical: 0.75, other: 0.05 },
      'technical',
      { '0': 0.12, '1': 0.34, '2': 0.54 },
      1.42,
      0.5,
    );
    const c = compareColumns(
      [
        { id: 'a', request: request('1'), response: base },
        { id: 'b', request: request('2'), response: mild },
        { id: 'c', request: request('3'), response: other },
        { id: 'd', request: request('4') },
      ],
      0.3,
    );
    const [urgent, department] = c.questions;
    // noul: |0.5 - 0.93| = 0.43 (b) beats |0.83 - 0.93| = 0.10 (c)
    expect(urgent!.disagreement).toBeCloseTo(0.43, 12);
    expect(urgent!.mostDifferentColumnId).toBe('b');
    expect(urgent!.flagged).toBe(true);
    // choice: b: (0.06 + 0.06 + 0) / 2 = 0.06; c: 0.51
    expect(department!.cells[1]!.disagreement).toBeCloseTo(0.06, 12);
    expect(department!.disagreement).toBeCloseTo(0.51, 12);
    expect(department!.mostDifferentColumnId).toBe('c');
    // column d has not run: no answer, no metrics, no influence
    expect(department!.cells[3]).toEqual({ columnId: 'd', answer: undefined });
  });

  it('flags strictly above the threshold', () => {
    // department disagrees by exactly 0.51
    expect(compareColumns(columns(), 0.51).questions[1]!.flagged).toBe(false);
    expect(compareColumns(columns(), 0.5).questions[1]!.flagged).toBe(true);
  });

  it('reports columns whose run asked other questions, and leaves out answers of the wrong type', () => {
    const edited: EvaluateRequest = { ...request('m'), state: 'Another message' };
    const wrong: EvaluateResponse = {
      ...other,
      answers: {
        ...other.answers,
        is_urgent: { type: 'choice', choice: 'x', confidence: 1, probabilities: { x: 1 } },
      },
    };
    const c = compareColumns(
      [
        { id: 'a', request: request('m'), response: base },
        { id: 'b', request: edited, response: wrong },
      ],
      0.2,
    );
    expect(c.staleColumnIds).toEqual(['b']);
    expect(c.questions[0]!.cells[1]!.answer).toBeUndefined();
    expect(c.questions[0]!.disagreement).toBeNull();
  });

  it('has no disagreement when the baseline has no answer', () => {
    const c = compareColumns(
      [
        { id: 'a', request: request('m') },
        { id: 'b', request: request('m'), response: other },
      ],
      0,
    );
    expect(c.questions.every((q) => q.disagreement === null && !q.flagged)).toBe(true);
  });
});

describe('sameQuestionsAndState', () => {
  it('ignores the model and key order, not content', () => {
    const a = request('model-1.12.0');
    const reordered: EvaluateRequest = {
      model: 'model-1.14.0',
      questions: Object.fromEntries(Object.entries(a.questions).reverse()),
      state: a.state,
    };
    expect(sameQuestionsAndState(a, reordered)).toBe(true);
    expect(sameQuestionsAndState(a, { ...a, state: 'other' })).toBe(false);
  });
});

describe('sortQuestions', () => {
  it('sorts by disagreement, largest first, unanswered last, ties in question order', () => {
    const c = compareColumns(columns(), 0.2);
    // department 0.51, is_urgent 0.10, frustration 0.06
    expect(sortQuestions(c.questions, 'disagreement').map((q) => q.name)).toEqual([
      'department',
      'is_urgent',
      'frustration',
    ]);
    const sorted = sortQuestions(c.questions, 'disagreement');
    expect(sortQuestions(sorted, 'question').map((q) => q.name)).toEqual([
      'is_urgent',
      'department',
      'frustration',
    ]);

    const partial = compareColumns([columns()[0]!, { id: 'b', request: request('m') }], 0.2).questions;
    expect(sortQuestions(partial, 'disagreement').map((q) => q.name)).toEqual([
      'is_urgent',
      'department',
      'frustration',
    ]);
  });
});

describe('topChoiceAgreementCounts', () => {
  it('counts choice questions where each column kept the baseline top choice', () => {
    const c = compareColumns([...columns(), { id: 'c', request: request('m'), response: base }], 0.2);
    expect(topChoiceAgreementCounts(c)).toEqual({
      b: { agree: 0, of: 1, refused: 0 },
      c: { agree: 1, of: 1, refused: 0 },
    });
  });
});

describe('a refusal in a comparison (issue 29 item 1)', () => {
  const refusing: EvaluateResponse = {
    ...base,
    answers: {
      ...base.answers,
      department: { type: 'refusal', question_type: 'choice' },
      is_urgent: { type: 'refusal', question_type: 'noul' },
    },
  };
  const c = compareColumns(
    [
      { id: 'a', request: request('m'), response: base },
      { id: 'b', request: request('m'), response: refusing },
    ],
    0.2,
  );

  it("keeps the refusal as the refusing column's answer and measures nothing against it", () => {
    const department = c.questions.find((q) => q.name === 'department')!;
    expect(department.cells[1]!.answer).toEqual({ type: 'refusal', question_type: 'choice' });
    expect(department.cells[1]!.metrics).toBeUndefined();
    expect(department.disagreement).toBeNull();
    expect(department.flagged).toBe(false);
    expect(department.refusedColumnIds).toEqual(['b']);
    expect(c.questions.find((q) => q.name === 'frustration')!.refusedColumnIds).toEqual([]);
  });

  it('counts refusals apart: per column, and in the top-choice agreement, never as a disagreement', () => {
    expect(c.refusedCounts).toEqual({ b: 2 });
    expect(topChoiceAgreementCounts(c)).toEqual({ b: { agree: 0, of: 0, refused: 1 } });
  });
});

describe('pinSuggestion', () => {
  it('offers the resolved version for an alias column only', () => {
    expect(pinSuggestion('model-preview', 'model-1.14.0')).toBe('model-1.14.0');
    expect(pinSuggestion('model-latest', undefined)).toBeNull();
    expect(pinSuggestion('model-1.12.0', 'model-1.12.0')).toBeNull();
    // a resolved id that is not versioned is no pin
    expect(pinSuggestion('model-latest', 'model-latest')).toBeNull();
  });
});

describe('comparison edits', () => {
  const ids = () => {
    let n = 0;
    return () => `col-${++n}`;
  };

  it('starts with the session model and another model of the same target, at the default threshold', () => {
    const c = newComparison('local', 'model-latest', ids());
    expect(CompareSchema.parse(c)).toEqual({
      columns: [
        { id: 'col-1', targetId: 'local', model: 'model-latest' },
        { id: 'col-2', targetId: 'local', model: 'model-preview' },
      ],
      threshold: DEFAULT_THRESHOLD,
      runIds: {},
    });
    expect(newComparison('local', 'model-preview', ids()).columns[1]!.model).toBe('model-latest');
  });

  it('puts the other judge in the second column when the target also answers from a model file', () => {
    expect(newComparison('local', 'model-1.13.0', ids(), 'local-qwen').columns.map((c) => c.model)).toEqual([
      'model-1.13.0',
      'local-qwen',
    ]);
    expect(newComparison('local', 'local-qwen', ids(), 'local-qwen').columns[1]!.model).toBe('model-latest');
    expect(newComparison('local', 'local-qwen@0123456789ab', ids(), 'local-qwen').columns[1]!.model).toBe(
      'model-latest',
    );
  });

  it('adds up to four columns and removes down to two, with their run ids', () => {
    const make = ids();
    let c = recordColumnRun(newComparison('local', 'model-1.12.0', make), 'col-2', 'run-9');
    c = addColumn(addColumn(c, make), make);
    expect(c.columns.map((col) => col.id)).toEqual(['col-1', 'col-2', 'col-3', 'col-4']);
    expect(c.columns[3]).toEqual({ id: 'col-4', targetId: 'local', model: 'model-preview' });
    expect(addColumn(c, make)).toBe(c);
    c = removeColumn(c, 'col-2');
    expect(c.runIds).toEqual({});
    c = removeColumn(removeColumn(c, 'col-3'), 'col-4');
    expect(c.columns).toHaveLength(2);
    expect(CompareSchema.safeParse(c).success).toBe(true);
  });

  it('forgets a column run when its model or target changes, but not when it is pinned to the version it ran', () => {
    let c = recordColumnRun(newComparison('local', 'model-latest', ids()), 'col-1', 'run-1');
    expect(updateColumn(c, 'col-1', { model: 'model-latest' })).toBe(c);
    expect(pinColumn(c, 'col-1', 'model-1.13.0')).toEqual({
      ...c,
      columns: [{ ...c.columns[0], model: 'model-1.13.0' }, c.columns[1]],
    });
    c = updateColumn(c, 'col-1', { model: 'model-1.12.0' });
    expect(c.columns[0]!.model).toBe('model-1.12.0');
    expect(c.runIds).toEqual({});
  });

  it('records runs only for columns it has', () => {
    const c = newComparison('local', 'model-latest', ids());
    expect(recordColumnRun(c, 'nope', 'run-1')).toBe(c);
    expect(recordColumnRun(c, 'col-2', 'run-1').runIds).toEqual({ 'col-2': 'run-1' });
  });
});

describe('a comparison travels with its session', () => {
  const comparedSession = (): Session => {
    const s = sampleSession({ runs: [] });
    const runA: RunRecord = {
      id: 'run-a',
      at: '2026-03-01T10:01:00.000Z',
      targetId: 'local',
      request: request('model-1.12.0'),
      response: base,
      latencyMs: 10,
      attempts: [],
    };
    const runB: RunRecord = { ...runA, id: 'run-b', request: request('model-1.14.0'), response: other };
    return {
      ...s,
      runs: [runA, runB],
      compare: {
        columns: [
          { id: 'a', targetId: 'local', model: 'model-1.12.0' },
          { id: 'b', targetId: 'local', model: 'model-1.14.0' },
        ],
        threshold: 0.3,
        runIds: { a: 'run-a', b: 'run-b' },
      },
    };
  };

  /** The comparison as the view computes it from a session. */
  const computed = (s: Session) =>
    compareColumns(
      s.compare!.columns.map((c) => {
        const run = s.runs.find((r) => r.id === s.compare!.runIds[c.id]);
        return { id: c.id, request: run?.request, response: run?.response };
      }),
      s.compare!.threshold,
    );

  it('through an export file and back', () => {
    const original = comparedSession();
    const parsed = parseImportFile(exportFile([original]));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const imported = parsed.sessions[0]!;
    expect(imported.compare).toEqual(original.compare);
    expect(computed(imported)).toEqual(computed(original));
    // department disagrees by 0.51 > 0.3: the flag comes back too
    expect(
      computed(imported)
        .questions.filter((q) => q.flagged)
        .map((q) => q.name),
    ).toEqual(['department']);
  });

  it('through a share link with its runs, which replay without a request', () => {
    const original = comparedSession();
    const decoded = decodeShareFragment(encodeShareFragment(original, { includeRuns: true }));
    expect(decoded?.ok).toBe(true);
    if (!decoded?.ok) return;
    const opened = sessionFromShared(decoded.shared, 'new-id');
    expect(opened.compare).toEqual(original.compare);
    expect(opened.runs.every((r) => r.replayed)).toBe(true);
    expect(computed(opened)).toEqual(computed(original));
  });

  it('through a share link without runs: columns and threshold, no run ids', () => {
    const decoded = decodeShareFragment(encodeShareFragment(comparedSession(), { includeRuns: false }));
    if (!decoded?.ok) throw new Error('the link did not open');
    expect(decoded.shared.compare).toEqual({ ...comparedSession().compare, runIds: {} });
    expect(decoded.shared.runs).toEqual([]);
  });
});

describe('columnDraft', () => {
  it('sends the session request with the column model', () => {
    const d = columnDraft(exampleDoc('local'), 'model-1.14.0');
    expect(d.problem).toBeNull();
    expect(d.request?.model).toBe('model-1.14.0');
    expect(Object.keys(d.request!.questions)).toEqual(['is_urgent', 'department', 'frustration']);
  });

  it('says why a column cannot run: its model id, or the editors', () => {
    expect(columnDraft(exampleDoc('local'), 'model-1.13').problem).toMatch(/product line/);
    const broken = { ...exampleDoc('local'), questionsText: '{ "a": ' };
    const d = columnDraft(broken, 'model-1.14.0');
    expect(d.request).toBeNull();
    expect(d.problem).toMatch(/^In the questions: /);
  });
});
