// The live cost: the token count follows the typing, it is the count the service bills, and the limits and the price
// per run are shown with it. Counted with the real tokenizer (jsdom has no workers: the inline counter runs).
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../../src/contract';
import { formatCost } from '../../../src/contract';
import { costBreakdown } from '../../../src/core/cost';
import { exampleDoc, EXAMPLE_REQUEST } from '../../../src/core/example';
import { CostMeter } from '../../../src/app/features/cost/CostMeter';
import { renderWorkbench } from '../lint/workbenchHarness';

const total = () => Number(screen.getByTestId('cost.total').textContent!.replace(/,/g, ''));

describe('live cost on the main screen', () => {
  it('moves the token count as the user types, and counts what the service bills', async () => {
    const user = userEvent.setup();
    const { stateBox } = renderWorkbench(exampleDoc());
    const expected = costBreakdown(EXAMPLE_REQUEST);
    await waitFor(() => expect(total()).toBe(expected.total));
    expect(screen.getByTestId('cost.state')).toHaveTextContent(String(expected.state));
    expect(screen.getByTestId('cost.perRun')).toHaveTextContent(
      `≈ ${formatCost(estimateCost(expected.total))}/run`,
    );

    const added = ' My account is locked too and nobody answers the phone.';
    // Caret at the end of the text, as after a click there. (No click: see the lint tests' note on jsdom.)
    stateBox().focus();
    stateBox().setSelectionRange(stateBox().value.length, stateBox().value.length);
    await user.type(stateBox(), added, { skipClick: true });
    const after = costBreakdown({ ...EXAMPLE_REQUEST, state: `${EXAMPLE_REQUEST.state}${added}` });
    await waitFor(() => expect(total()).toBe(after.total));
    expect(after.total).toBeGreaterThan(expected.total);
    expect(screen.getByTestId('cost.state')).toHaveTextContent(String(after.state));
  });

  it('lists each question’s tokens on demand, the longest one named', async () => {
    const user = userEvent.setup();
    renderWorkbench(exampleDoc());
    await screen.findByTestId('cost.total');
    await user.click(screen.getByRole('button', { name: 'Per question' }));
    const rows = within(screen.getByTestId('cost.questions')).getAllByTestId('cost.question');
    const expected = costBreakdown(EXAMPLE_REQUEST);
    expect(rows.map((r) => [r.dataset.name, r.querySelectorAll('td')[0]!.textContent])).toEqual(
      expected.questions.map((q) => [q.name, String(q.tokens)]),
    );
    expect(
      within(rows.find((r) => r.dataset.name === expected.longestQuestion)!).getByText('(longest)'),
    ).toBeInTheDocument();
  });
});

describe('CostMeter', () => {
  it('shows both limits, and says which one a long state passes', async () => {
    const request = { state: 'lorem ipsum '.repeat(17_000), questions: EXAMPLE_REQUEST.questions };
    const expected = costBreakdown(request);
    expect(expected.limits.statePlusLongest.over).toBe(true);
    render(<CostMeter request={request} />);
    const problem = await screen.findByTestId('cost.problem', {}, { timeout: 5000 });
    expect(problem).toHaveTextContent(
      `The state plus the longest question hold ${expected.statePlusLongest.toLocaleString()} tokens; the limit is 32,000.`,
    );
    const limit = within(screen.getByTestId('cost.limitStatePlusQuestion')).getByRole('meter');
    expect(limit).toHaveAttribute('aria-valuemax', '32000');
    expect(limit).toHaveAccessibleName(
      `State plus the longest question: ${expected.statePlusLongest.toLocaleString('en-US')} of 32,000 tokens`,
    );
    expect(screen.getByTestId('cost.limitRequest')).toHaveTextContent(
      `${Math.round(expected.limits.request.ratio * 100)}%`,
    );
  });

  it('prices a run of several requests (compare columns), and keeps the last count while the text does not parse', async () => {
    const request = { state: EXAMPLE_REQUEST.state, questions: EXAMPLE_REQUEST.questions };
    const expected = costBreakdown(request, { runs: 3 });
    const { rerender } = render(<CostMeter request={request} runs={3} runsLabel="3 columns" />);
    await waitFor(() =>
      expect(screen.getByTestId('cost.perRun')).toHaveTextContent(
        `≈ ${formatCost(expected.costTotal)}/run (3 columns × ${formatCost(expected.costPerRequest)})`,
      ),
    );
    rerender(<CostMeter request={null} runs={3} />);
    expect(screen.getByText(/Counts of the last text that parsed/)).toBeInTheDocument();
    expect(total()).toBe(expected.total);
  });
});
