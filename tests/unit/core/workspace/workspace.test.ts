// The workspace's pure parts: a run's rows as a queue (the state as sent, the judge's answer as a label with its
// confidence, rows with no state left out), the server's ratings as TrustData, and the links a person opens.
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import type { ResultRow } from '../../../../src/core/rows/results';
import type { RowMapping } from '../../../../src/core/rows/mapping';
import { MISSING } from '../../../../src/core/trust/ratings';
import { judgeAnswerOf, publishedRows } from '../../../../src/core/workspace/publish';
import { trustDataFromWire } from '../../../../src/core/workspace/trustWire';
import { workspaceLinkOf } from '../../../../src/core/workspace/links';

const questions: Questions = {
  department: { type: 'choice', criteria: { billing: 'Payments', technical: 'Bugs' } },
  urgent: { type: 'noul' },
  severity: { type: 'score', criteria: ['low', 'mid', 'high'] },
};
const mapping: RowMapping = { mode: 'text', column: 'text', idColumn: 'id', labels: [] };
const row = (n: number, text: string, response?: ResultRow['response']): ResultRow => ({
  number: n,
  line: n + 1,
  id: `t${n}`,
  data: { id: `t${n}`, text },
  ...(response ? { response } : {}),
});

describe('publishing a run', () => {
  it('reads each answer as a label with its top probability and its probabilities', () => {
    expect(
      judgeAnswerOf(
        {
          type: 'choice',
          choice: 'technical',
          confidence: 0.7,
          probabilities: { billing: 0.3, technical: 0.7 },
        },
        questions.department!,
      ),
    ).toEqual({ label: 'technical', confidence: 0.7, probabilities: [0.3, 0.7] });
    expect(judgeAnswerOf({ type: 'noul', noul: 0.2 }, questions.urgent!)).toEqual({
      label: false,
      confidence: 0.8,
      probabilities: [0.8, 0.2],
    });
    expect(
      judgeAnswerOf(
        {
          type: 'score',
          score: 2,
          confidence: 0.6,
          legend: {},
          probabilities: { '0': 0.1, '1': 0.3, '2': 0.6 },
        },
        questions.severity!,
      ),
    ).toEqual({ label: 2, confidence: 0.6, probabilities: [0.1, 0.3, 0.6] });
    expect(judgeAnswerOf({ type: 'refusal' }, questions.urgent!)).toBeUndefined();
  });

  it('sends each row’s state and key, and leaves out rows with no state', () => {
    const plan = publishedRows(
      [
        row(0, 'refund please', {
          model: 'm',
          answers: { urgent: { type: 'noul', noul: 0.9 } },
          usage: { input_tokens: 3 },
        }),
        row(1, '   '),
        row(2, 'app crashes'),
      ],
      mapping,
      questions,
    );
    expect(plan.leftOut).toBe(1);
    expect(plan.rows.map((r) => [r.key, r.state])).toEqual([
      ['t0', 'refund please'],
      ['t2', 'app crashes'],
    ]);
    expect(plan.rows[0]!.judge).toEqual({
      urgent: { label: true, confidence: 0.9, probabilities: [expect.closeTo(0.1, 12), 0.9] },
    });
    expect(plan.rows[1]!.judge).toEqual({});
  });
});

describe('the figures’ wire', () => {
  it('becomes TrustData with missing ratings and answers read as missing', () => {
    const data = trustDataFromWire({
      type: 'choice',
      classes: ['a', 'b'],
      annotators: ['Ada', 'Bo'],
      ratings: [0, 1, -1, 1, 7, 0],
      judge: [0, -1, 1],
      confidence: [0.9, null, 0.6],
    });
    expect([...data.ratings]).toEqual([0, 1, MISSING, 1, MISSING, 0]);
    expect([...data.judge]).toEqual([0, MISSING, 1]);
    expect(Number.isNaN(data.confidence[1])).toBe(true);
  });

  it('refuses ratings that do not fill rows by people, in a sentence', () => {
    expect(() =>
      trustDataFromWire({
        type: 'noul',
        classes: ['no', 'yes'],
        annotators: ['Ada'],
        ratings: [1],
        judge: [1, 0],
        confidence: [1, 1],
      }),
    ).toThrow('The workspace sent 1 ratings for 2 rows and 1 people.');
  });
});

describe('links', () => {
  const token = 'A'.repeat(43);
  it('reads an invite and an owner link from the fragment', () => {
    expect(workspaceLinkOf(`#workspace-invite=${token}`)).toEqual({ kind: 'invite', token });
    expect(workspaceLinkOf(`#workspace-owner=${token}`)).toEqual({ kind: 'owner', token });
  });
  it('takes anything else for no link', () => {
    expect(workspaceLinkOf('#workspace-invite=short')).toBeNull();
    expect(workspaceLinkOf(`#share=${token}`)).toBeNull();
    expect(workspaceLinkOf('')).toBeNull();
  });
});
