// The alignment report carries "Can the judge replace a person?" for questions several annotators labelled: the trust
// figures on the report, flat keys for the CI gates, and a section in the Markdown and HTML reports.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { computeAlignment } from '../../../../src/core/alignment';
import { alignmentHtml, alignmentMarkdown, summariseReport } from '../../../../src/core/alignment/report';
import { majorityOf } from '../../../../src/core/labels';
import type { AlignRow } from '../../../../src/core/alignment';
import { seededRandom } from '../../../../src/contract/random';

const questions: Questions = {
  team: {
    type: 'choice',
    instructions: 'Which team?',
    criteria: { billing: null, technical: null, sales: null },
  },
};
const TEAMS = ['billing', 'technical', 'sales'];

/** 120 rows: the truth, three annotators who err 10% of the time, and a judge who errs `judgeError` of the time. */
function rows(judgeError: number, seed = 7): AlignRow[] {
  const random = seededRandom(seed);
  const noisy = (truth: number, rate: number): number =>
    random() < rate ? (truth + 1 + Math.floor(random() * 2)) % 3 : truth;
  return Array.from({ length: 120 }, (_, i) => {
    const truth = i % 3;
    const ann = ['ann_a', 'ann_b', 'ann_c'].map((name) => [name, TEAMS[noisy(truth, 0.1)]!] as const);
    const guess = noisy(truth, judgeError);
    const answer: Answer = {
      type: 'choice',
      choice: TEAMS[guess]!,
      confidence: 0.85,
      probabilities: Object.fromEntries(TEAMS.map((t, k) => [t, k === guess ? 0.9 : 0.05])),
    };
    return {
      id: `r${i + 1}`,
      // The row's label is the annotators' majority, as readRowLabels sets it.
      labels: { team: majorityOf(ann.map(([, v]) => v))! },
      annotations: { team: Object.fromEntries(ann) },
      answers: { team: answer },
    };
  });
}

describe('trust in the alignment report', () => {
  it('a judge as good as the annotators can replace one; a guessing judge cannot', () => {
    const good = computeAlignment(questions, rows(0.05));
    expect(good.questions.team!.trust!.annotators).toEqual(['ann_a', 'ann_b', 'ann_c']);
    expect(good.figures['team.alt_test.omega']!.value).toBeGreaterThanOrEqual(0.5);
    expect(good.questions.team!.trust!.altTest.verdict).toBe('can replace');
    const bad = computeAlignment(questions, rows(0.9));
    expect(bad.questions.team!.trust!.altTest.verdict).toBe('cannot replace');
    expect(bad.figures['team.alt_test.omega']!.value).toBeLessThan(0.5);
  });

  it('puts the ceiling, the threshold and the estimates under flat keys', () => {
    const report = computeAlignment(questions, rows(0.05));
    for (const key of [
      'team.alpha.nominal',
      'team.fleiss_kappa',
      'team.pairwise_kappa',
      'team.judge_majority_kappa',
      'team.guaranteed.coverage',
    ])
      expect(report.figures[key], key).toBeDefined();
    expect(report.figures['team.alpha.nominal']!.value).toBeGreaterThan(0.6);
  });

  it('writes the section into the kept report, its Markdown and its HTML', () => {
    const summary = summariseReport(computeAlignment(questions, rows(0.05)), {
      fileName: 'tickets.csv',
      model: 'm',
      targetId: 'local',
      rowCount: 120,
    });
    expect(summary.questions[0]!.trust?.altTest.verdict).toBe('can replace');
    const text = alignmentMarkdown(summary);
    expect(text).toContain('### Can the judge replace a person?');
    expect(text).toMatch(/people agree with each other at alpha 0\.\d\d/);
    expect(text).toContain('| ann\\_b | 120 |');
    expect(alignmentHtml(summary)).toContain('<h3>Can the judge replace a person?</h3>');
  });
});
