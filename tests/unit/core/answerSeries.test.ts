import { describe, expect, it } from 'vitest';
import { formatCost } from '../../../src/contract';
import {
  BAR_ROW_HEIGHT,
  CHOICE_TOP,
  barChartHeight,
  choiceSeries,
  describe as describeText,
  formatFixed2,
  formatLatency,
  formatPercent,
  noulSeries,
  scoreSeries,
} from '../../../src/core/answerSeries';
import type { ChoiceAnswer, ScoreAnswer } from '../../../src/contract';

const choice = (probabilities: Record<string, number>, chosen: string): ChoiceAnswer => ({
  type: 'choice',
  choice: chosen,
  confidence: 0.5,
  probabilities,
});

describe('choiceSeries', () => {
  it('sorts by probability, highlights the chosen label and carries descriptions', () => {
    const s = choiceSeries(choice({ billing: 0.14, technical: 0.81, other: 0.05 }, 'technical'), {
      billing: 'Payments and refunds',
      technical: 'Bugs and integrations',
      other: null,
    });
    expect(s.all.map((b) => [b.label, b.probability, b.chosen, b.rank])).toEqual([
      ['technical', 0.81, true, 1],
      ['billing', 0.14, false, 2],
      ['other', 0.05, false, 3],
    ]);
    expect(s.all[1]!.description).toBe('Payments and refunds');
    expect(s.all[2]!.description).toBe('');
    expect(s.tiedAtTop).toEqual([]);
    expect(s.hidden).toBe(0);
  });

  it('breaks ties in the order the criteria were written, and reports a tie at the top', () => {
    const s = choiceSeries(choice({ c: 0.4, a: 0.2, b: 0.4 }, 'b'), { b: null, c: null, a: null });
    expect(s.all.map((x) => x.label)).toEqual(['b', 'c', 'a']);
    expect(s.tiedAtTop).toEqual(['b', 'c']);
  });

  it('without criteria, ties keep the answer order', () => {
    const s = choiceSeries(choice({ x: 0.5, y: 0.5 }, 'x'));
    expect(s.all.map((b) => b.label)).toEqual(['x', 'y']);
  });

  it('shows the top 20 of 255 options until asked for all', () => {
    const probabilities = Object.fromEntries(
      Array.from({ length: 255 }, (_, i) => [`label_${i}`, i === 254 ? 0.5 : 0.5 / 254]),
    );
    const s = choiceSeries(choice(probabilities, 'label_254'));
    expect(s.shown).toHaveLength(CHOICE_TOP);
    expect(s.hidden).toBe(235);
    expect(s.shown[0]!.label).toBe('label_254');
    expect(s.shown[1]!.label).toBe('label_0');
    const all = choiceSeries(choice(probabilities, 'label_254'), undefined, { showAll: true });
    expect(all.shown).toHaveLength(255);
    expect(all.hidden).toBe(0);
  });
});

describe('scoreSeries', () => {
  const answer: ScoreAnswer = {
    type: 'score',
    score: 1.42,
    confidence: 0.13,
    legend: { '0': 'Calm', '1': 'Frustrated', '2': 'Angry' },
    probabilities: { '2': 0.54, '0': 0.12, '1': 0.34 },
  };

  it('keeps level order (not probability order), labels from the legend, marks the most likely level', () => {
    const s = scoreSeries(answer);
    expect(s.bars.map((b) => [b.level, b.label, b.probability, b.mostLikely])).toEqual([
      [0, 'Calm', 0.12, false],
      [1, 'Frustrated', 0.34, false],
      [2, 'Angry', 0.54, true],
    ]);
    expect(s.expected).toBe(1.42);
    expect(s.maxLevel).toBe(2);
  });

  it('orders ten levels numerically, not as strings', () => {
    const probabilities = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(i), 0.1]));
    const s = scoreSeries(
      { ...answer, legend: {}, probabilities },
      Array.from({ length: 10 }, (_, i) => `L${i}`),
    );
    expect(s.bars.map((b) => b.level)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(s.bars[9]!.label).toBe('L9');
    expect(s.bars.filter((b) => b.mostLikely).map((b) => b.level)).toEqual([0]);
  });

  it('writes object legends as text and names unlabelled levels', () => {
    const s = scoreSeries({ ...answer, legend: { '0': { text: 'calm' } } });
    expect(s.bars[0]!.label).toBe('{"text":"calm"}');
    expect(s.bars[1]!.label).toBe('Level 1');
  });
});

describe('noulSeries', () => {
  it('gives yes, no, the side of 0.5 and the criteria texts', () => {
    expect(noulSeries({ type: 'noul', noul: 0.93 }, { true: 'Urgent', false: 'Calm' })).toEqual({
      yes: 0.93,
      no: 0.07,
      leaning: 'yes',
      yesMeans: 'Urgent',
      noMeans: 'Calm',
    });
    expect(noulSeries({ type: 'noul', noul: 0.5 }).leaning).toBe('undecided');
    expect(noulSeries({ type: 'noul', noul: 0.2 }).leaning).toBe('no');
    expect(noulSeries({ type: 'noul', noul: 0.2 }).yesMeans).toBe('');
  });
});

describe('formatting', () => {
  it('two decimals, halves rounded up despite binary error', () => {
    expect(formatFixed2(0.81)).toBe('0.81');
    expect(formatFixed2(1)).toBe('1.00');
    expect(formatFixed2(1.005)).toBe('1.01');
    expect(formatFixed2(0.285)).toBe('0.29');
    expect(formatFixed2(-0.001)).toBe('0.00');
  });

  it('percent, latency, cost', () => {
    expect(formatPercent(0.004)).toBe('<1%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.815)).toBe('82%');
    expect(formatLatency(412.4)).toBe('412 ms');
    expect(formatLatency(1240)).toBe('1.24 s');
    expect(formatCost(318 * 0.042e-6)).toBe('$0.000013');
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.5)).toBe('$0.50');
    expect(formatCost(12.345)).toBe('$12.35');
    expect(formatCost(1234.5)).toBe('$1,234.50');
  });

  it('chart height grows with the rows', () => {
    expect(barChartHeight(255) - barChartHeight(20)).toBe(235 * BAR_ROW_HEIGHT);
  });

  it('describe', () => {
    expect(describeText(null)).toBe('');
    expect(describeText(['a', 1])).toBe('["a",1]');
  });
});
