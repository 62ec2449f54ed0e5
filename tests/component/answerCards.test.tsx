import { describe, expect, it } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AnswerCard } from '../../src/app/components/answers';
import { CHART } from '../../src/app/components/answers/chartTheme';
import { BAR_ROW_HEIGHT } from '../../src/core/answerSeries';
import type { Answer } from '../../src/contract';

const tableRows = (card: HTMLElement): string[][] =>
  within(within(card).getByTestId('answers.table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''));

const bars = (card: HTMLElement) =>
  card.querySelectorAll('.recharts-bar-rectangle path, .recharts-bar-rectangle rect');

describe('choice card', () => {
  const answer: Answer = {
    type: 'choice',
    choice: 'technical',
    confidence: 0.72,
    probabilities: { billing: 0.14, technical: 0.81, other: 0.05 },
  };
  const criteria = { billing: 'Payments and refunds', technical: 'Bugs and integrations', other: null };

  it('draws every option sorted by probability, the chosen one highlighted, with exact numbers in text', () => {
    render(<AnswerCard name="department" answer={answer} question={{ type: 'choice', criteria }} />);
    const card = screen.getByRole('region', { name: 'department' });
    expect(within(card).getByTestId('answers.choice')).toHaveTextContent('technical');
    expect(within(card).getByTestId('answers.confidence')).toHaveTextContent('0.72');
    expect(tableRows(card)).toEqual([
      ['technical (chosen)', '0.81', 'Bugs and integrations'],
      ['billing', '0.14', 'Payments and refunds'],
      ['other', '0.05', ''],
    ]);
    const drawn = bars(card);
    expect(drawn).toHaveLength(3);
    expect(drawn[0]!.getAttribute('fill')).toBe(CHART.chosen);
    expect(drawn[1]!.getAttribute('fill')).toBe(CHART.bar);
    expect([...card.querySelectorAll('.chart-value')].map((t) => t.textContent)).toEqual([
      '0.81',
      '0.14',
      '0.05',
    ]);
  });

  it('says when labels tie at the top and keeps criteria order among them', () => {
    const tie: Answer = {
      type: 'choice',
      choice: 'b',
      confidence: 0.1,
      probabilities: { a: 0.2, b: 0.4, c: 0.4 },
    };
    render(<AnswerCard name="t" answer={tie} question={{ criteria: { b: null, c: null, a: null } }} />);
    expect(screen.getByTestId('answers.tie')).toHaveTextContent('Tie at the top: b, c (0.40 each)');
    expect(tableRows(screen.getByTestId('answers.card')).map((r) => r[0])).toEqual(['b (chosen)', 'c', 'a']);
  });

  it('shows the top 20 of 255 options, then all of them in a scrolling chart; the table always has all', async () => {
    const labels = Array.from({ length: 255 }, (_, i) => `category_${String(i).padStart(3, '0')}`);
    const probabilities = Object.fromEntries(
      labels.map((l, i) => [l, i === 200 ? 0.49 : i < 51 ? 0.01 : 0.0]),
    );
    const big: Answer = { type: 'choice', choice: 'category_200', confidence: 0.49, probabilities };
    render(<AnswerCard name="taxonomy" answer={big} />);
    const card = screen.getByTestId('answers.card');
    expect(bars(card).length).toBeLessThanOrEqual(20);
    expect(tableRows(card)).toHaveLength(255);
    expect(tableRows(card)[0]).toEqual(['category_200 (chosen)', '0.49', '']);
    const toggle = within(card).getByRole('button', { name: 'Show all 255 options (235 more)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Show the top 20');
    const chart = within(card).getByTestId('answers.chart');
    expect(chart).toHaveClass('answer-chart--scroll');
    // The scroll height is that of all 255 rows; the scale is drawn once, under the window.
    const rows = chart.querySelector<HTMLElement>('.answer-chart__rows')!;
    expect(rows.style.height).toBe(`${255 * BAR_ROW_HEIGHT}px`);
    expect(within(card).getByTestId('answers.axis')).toBeInTheDocument();
    const drawnLabels = (): string[] =>
      [...chart.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')].map(
        (t) =>
          [...t.childNodes]
            .filter((n) => n.nodeType === Node.TEXT_NODE)
            .map((n) => n.textContent)
            .join(''),
      );
    // Only the blocks in and next to the window are drawn, most probable first.
    expect(drawnLabels()[0]).toBe('category_200');
    expect(drawnLabels().length).toBeGreaterThanOrEqual(20);
    expect(drawnLabels().length).toBeLessThan(255);
    // Scrolled to the end, the last options are drawn, zero-probability ones included.
    act(() => {
      chart.scrollTop = 255 * BAR_ROW_HEIGHT;
      chart.dispatchEvent(new Event('scroll'));
    });
    expect(drawnLabels()).toContain('category_254');
    const top = [...chart.querySelectorAll<HTMLElement>('.answer-chart__block')].map((b) =>
      parseFloat(b.style.top),
    );
    expect(Math.max(...top)).toBe(240 * BAR_ROW_HEIGHT);
  });

  it('rounds to two decimals for display, never showing raw floats', () => {
    const odd: Answer = {
      type: 'choice',
      choice: 'x',
      confidence: 0.3333333,
      probabilities: { x: 0.6666666, y: 0.3333334 },
    };
    render(<AnswerCard name="r" answer={odd} />);
    const card = screen.getByTestId('answers.card');
    expect(tableRows(card).map((r) => r[1])).toEqual(['0.67', '0.33']);
    expect(within(card).getByTestId('answers.confidence')).toHaveTextContent('0.33');
    expect(card.textContent).not.toMatch(/0\.666/);
  });
});

describe('score card', () => {
  const answer: Answer = {
    type: 'score',
    score: 1.42,
    confidence: 0.13,
    legend: {
      '0': 'Calm, just stating facts',
      '1': 'Frustrated but civil',
      '2': 'Angry or threatening to leave',
    },
    probabilities: { '0': 0.12, '1': 0.34, '2': 0.54 },
  };

  it('draws one bar per level in level order, labelled by the legend, with the expected score marked', () => {
    render(<AnswerCard name="frustration" answer={answer} />);
    const card = screen.getByRole('region', { name: 'frustration' });
    expect(within(card).getByTestId('answers.score')).toHaveTextContent('1.42');
    expect(within(card).getByText('expected level on 0–2')).toBeInTheDocument();
    expect(tableRows(card)).toEqual([
      ['0', '0.12', 'Calm, just stating facts'],
      ['1', '0.34', 'Frustrated but civil'],
      ['2', '0.54', 'Angry or threatening to leave'],
    ]);
    expect(bars(card)).toHaveLength(3);
    const ticks = [
      ...card.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value'),
    ].map(
      // The tick's <title> holds the full label for hover; the drawn text is the text node.
      (t) =>
        [...t.childNodes]
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .map((n) => n.textContent)
          .join(''),
    );
    expect(ticks).toEqual([
      '0 · Calm, just stating facts',
      '1 · Frustrated but civil',
      '2 · Angry or threatening to leave',
    ]);
    expect(card.querySelector('.recharts-reference-line')).not.toBeNull();
    expect(within(card).getByText('◂ 1.42')).toBeInTheDocument();
    expect(within(card).getByTestId('answers.confidence')).toHaveTextContent('0.13');
  });

  it('places the expected marker between levels, proportionally on the 0..n-1 axis', () => {
    render(<AnswerCard name="s" answer={answer} />);
    const card = screen.getByTestId('answers.card');
    const tickY = [
      ...card.querySelectorAll('.recharts-yAxis-tick-lines .recharts-cartesian-axis-tick-line'),
    ].map((l) => Number(l.getAttribute('y1')));
    const line = card.querySelector('.recharts-reference-line line')!;
    const y = Number(line.getAttribute('y1'));
    // 1.42 lies 42% of the way from level 1 to level 2.
    expect(y).toBeCloseTo(tickY[1]! + 0.42 * (tickY[2]! - tickY[1]!), 0);
  });
});

describe('noul card', () => {
  it('shows the probability of yes, the 0.5 line and the criteria texts', () => {
    render(
      <AnswerCard
        name="is_urgent"
        answer={{ type: 'noul', noul: 0.93 }}
        question={{
          type: 'noul',
          criteria: { true: 'Explicitly time-sensitive', false: 'No urgency expressed' },
        }}
      />,
    );
    const card = screen.getByRole('region', { name: 'is_urgent' });
    expect(within(card).getByTestId('answers.noul')).toHaveTextContent('0.93');
    expect(within(card).getByText(/leans yes/)).toBeInTheDocument();
    expect(within(card).getByText('Explicitly time-sensitive')).toBeInTheDocument();
    expect(within(card).getByText('No urgency expressed')).toBeInTheDocument();
    expect(tableRows(card)).toEqual([
      ['yes', '0.93'],
      ['no', '0.07'],
    ]);
    expect(card.querySelector('.recharts-reference-line')).not.toBeNull();
    expect(bars(card)[0]!.getAttribute('fill')).toBe(CHART.yes);
  });

  it('a no-leaning answer is drawn in the quiet colour and says so', () => {
    render(<AnswerCard name="n" answer={{ type: 'noul', noul: 0.5 }} />);
    expect(screen.getByText(/undecided/)).toBeInTheDocument();
    expect(bars(screen.getByTestId('answers.card'))[0]!.getAttribute('fill')).toBe(CHART.no);
  });
});

describe('refusal card', () => {
  it('says the question was refused, with no chart, no table and no number', () => {
    const answer: Answer = { type: 'refusal', question_type: 'choice' };
    render(
      <AnswerCard name="department" answer={answer} question={{ type: 'choice', criteria: { a: null } }} />,
    );
    const card = screen.getByRole('region', { name: 'department' });
    expect(card).toHaveAttribute('data-kind', 'refusal');
    expect(within(card).getByRole('note')).toHaveTextContent(
      'The model declined to answer the choice question “department”: this is a refusal, not a probability.',
    );
    expect(within(card).queryByTestId('answers.table')).toBeNull();
    expect(within(card).queryByTestId('answers.confidence')).toBeNull();
    expect(bars(card)).toHaveLength(0);
    expect(card.textContent).not.toMatch(/\d\.\d/);
  });
});

describe('server confidence beside the recomputed one', () => {
  it('shows what the server said when its formula gave another figure', () => {
    const answer: Answer = {
      type: 'choice',
      choice: 'technical',
      confidence: 0.72,
      probabilities: { billing: 0.14, technical: 0.81, other: 0.05 },
      reported: { confidence: 0.91 },
    };
    render(<AnswerCard name="department" answer={answer} question={{ type: 'choice', criteria: {} }} />);
    expect(screen.getByTestId('answers.serverConfidence')).toHaveTextContent('(server said 0.91)');
    expect(screen.getByTestId('answers.confidence')).toHaveTextContent('0.72');
  });
});
