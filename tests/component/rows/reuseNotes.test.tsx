// What the rows screen says about answers reused per question: the progress line and the row's message cell.
import { render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ProgressPanel } from '../../../src/app/features/rows/ProgressPanel';
import { ResultsTable } from '../../../src/app/features/rows/ResultsTable';
import type { ResultRow } from '../../../src/core/rows/results';
import { answerColumns } from '../../../src/core/rows/results';
import type { RunProgress } from '../../../src/core/rows/runTypes';

// jsdom lays nothing out: give the virtualised table a viewport so its rows render.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.testid === 'rows.table.scroll' ? 600 : 0;
    },
  });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});

const progress: RunProgress = {
  phase: 'finished',
  halt: null,
  total: 10,
  done: 7,
  reused: 3,
  reusedEarlier: 3,
  partlyReused: 7,
  invalid: 0,
  failed: 0,
  unknown: 0,
  pending: 0,
  inFlight: 0,
  billedTokens: 700,
  possiblyBilledTokens: 0,
  cost: 0,
  possiblyBilledCost: 0,
  ratePerMinute: 0,
  etaMs: null,
  serviceWaitMs: null,
};

it('says how many rows sent only the questions with no stored answer', () => {
  render(
    <ProgressPanel
      progress={progress}
      running={false}
      configuredRate={1200}
      onStart={vi.fn()}
      onPause={vi.fn()}
      onCancel={vi.fn()}
      onRetry={vi.fn()}
    />,
  );
  expect(screen.getByTestId('rows.reuse').textContent).toBe(
    '3 answers reused from earlier runs, not billed. 7 rows sent only the questions with no stored answer.',
  );
});

it("names a row's reused questions in its message cell", async () => {
  const questions = {
    urgent: { type: 'noul' as const, instructions: 'Urgent?' },
    calm: { type: 'noul' as const, instructions: 'Calm?' },
  };
  const row: ResultRow = {
    number: 1,
    line: 2,
    id: 'r1',
    data: { text: 'hi' },
    outcome: {
      status: 'done',
      at: 0,
      attempts: 1,
      possiblyBilledAttempts: 0,
      requeues: 0,
      reusedQuestions: ['calm'],
    },
  };
  render(<ResultsTable rows={[row]} visible={[0]} columns={answerColumns(questions)} inputColumns={[]} />);
  const cells = within(await screen.findByTestId('rows.table.row')).getAllByRole('cell');
  expect(cells.at(-1)?.textContent).toBe('Stored answers reused for calm');
});
