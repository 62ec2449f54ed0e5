// The answer cards as the comparison uses them: one option order and one probability axis for every column.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChoiceAnswer } from '../../../src/contract';
import { ChoiceCard } from '../../../src/app/components/answers';
import { choiceSeries } from '../../../src/core/answerSeries';

const criteria = { billing: 'Payments', technical: 'Bugs', other: null };
const answer = (choice: string, probabilities: Record<string, number>): ChoiceAnswer => ({
  type: 'choice',
  choice,
  confidence: 0.5,
  probabilities,
});

describe('choiceSeries with a shared order', () => {
  it('draws bars in the given order, keeps ranks by probability, and puts unknown labels last by rank', () => {
    const s = choiceSeries(answer('billing', { billing: 0.6, technical: 0.3, other: 0.1 }), criteria, {
      order: ['technical', 'billing'],
    });
    expect(s.all.map((b) => [b.label, b.rank])).toEqual([
      ['technical', 2],
      ['billing', 1],
      ['other', 3],
    ]);
    expect(s.tiedAtTop).toEqual([]);
  });

  it('still reports a tie at the top by probability', () => {
    const s = choiceSeries(answer('billing', { billing: 0.45, technical: 0.45, other: 0.1 }), criteria, {
      order: ['other', 'technical', 'billing'],
    });
    expect(s.tiedAtTop).toEqual(['billing', 'technical']);
  });
});

describe('ChoiceCard in a comparison', () => {
  it('lists options in the shared order in its text equivalent, with ids unique per card', () => {
    const order = ['technical', 'billing', 'other'];
    render(
      <>
        <ChoiceCard
          name="department"
          answer={answer('technical', { billing: 0.14, technical: 0.81, other: 0.05 })}
          criteria={criteria}
          optionOrder={order}
          probabilityMax={0.9}
        />
        <ChoiceCard
          name="department"
          answer={answer('billing', { billing: 0.6, technical: 0.3, other: 0.1 })}
          criteria={criteria}
          optionOrder={order}
          probabilityMax={0.9}
        />
      </>,
    );
    const tables = screen.getAllByTestId('answers.table');
    expect(tables).toHaveLength(2);
    for (const table of tables) {
      const firstCells = within(table)
        .getAllByRole('rowheader')
        .map((c) => c.textContent?.replace(' (chosen)', ''));
      expect(firstCells).toEqual(order);
    }
    expect(tables[0]!.id).not.toBe(tables[1]!.id);
    expect(within(tables[1]!).getByRole('rowheader', { name: 'billing (chosen)' })).toBeInTheDocument();
  });
});
