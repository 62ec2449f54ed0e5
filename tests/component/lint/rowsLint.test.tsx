// The rubric checks on the rows screen: the session's questions linted for a file run, fixes applied to the session.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RowsLint } from '../../../src/app/features/rows/RowsLint';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { exampleDoc } from '../../../src/core/example';

describe('RowsLint', () => {
  it('lists the questions’ findings for a file run (the state left out) and applies a fix to the session', async () => {
    const user = userEvent.setup();
    const questions = {
      tone: { type: 'score', instructions: 'How angry is `customer`?', criteria: ['1', '2', '3'] },
      count: { type: 'noul', instructions: 'Does the message say how many orders failed?' },
    };
    useWorkbench
      .getState()
      .hydrate(
        { ...exampleDoc(), model: 'model-1.13', questionsText: JSON.stringify(questions, null, 2) },
        [],
      );
    render(<RowsLint />);
    const items = screen.getAllByTestId('rows.lintItem');
    // No missing-field finding: each row brings its own state. The product-line id is flagged in every mode.
    expect(items.map((i) => i.dataset.source)).toEqual([
      'model/product-line',
      'score/numeric-level',
      'question/exact-quantity',
    ]);

    await user.click(
      within(items.find((i) => i.dataset.source === 'score/numeric-level')!).getByTestId('lint.fix'),
    );
    expect(JSON.parse(useWorkbench.getState().doc.questionsText).tone.criteria).not.toContain('1');
    expect(screen.getAllByTestId('rows.lintItem').map((i) => i.dataset.source)).not.toContain(
      'score/numeric-level',
    );
  });

  it('leaves the alias warning to the plan panel, and shows nothing for a clean rubric', () => {
    // The example session names an alias: a file run's lint finds it, the plan panel already says it.
    useWorkbench.getState().hydrate({ ...exampleDoc(), model: 'model-latest' }, []);
    const { container } = render(<RowsLint />);
    expect(container).toBeEmptyDOMElement();
  });
});
