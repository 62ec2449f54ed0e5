// The main screen's earlier runs: listed, each opens as it was, and a cancelled re-run does not hide the last good
// answer. The store is arranged directly (a session's runs, as a reload restores them).
import { TargetInfoSchema } from '../../../src/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AnswersPane } from '../../../src/app/features/answers/AnswersPane';
import { createQueryClient } from '../../../src/app/queryClient';
import { targetsQueryOptions } from '../../../src/app/queries/targets';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { exampleDoc } from '../../../src/core/example';
import type { RunRecord } from '../../../src/core/session';
import { sampleRequest, sampleResponse } from '../../helpers/sessions';

const good: RunRecord = {
  id: 'run-good',
  at: '2026-03-01T10:01:00.000Z',
  targetId: 'local',
  request: sampleRequest,
  response: sampleResponse,
  latencyMs: 40,
  attempts: [{ attempt: 0, outcome: 200, durationMs: 40 }],
};
const cancelled: RunRecord = {
  id: 'run-cancelled',
  at: '2026-03-01T10:05:00.000Z',
  targetId: 'local',
  request: { ...sampleRequest, model: 'model-preview' },
  error: {
    kind: 'cancelled',
    message: 'Cancelled before the service answered.',
    fieldErrors: [],
    possiblyBilled: true,
  },
  attempts: [{ attempt: 0, outcome: 'cancelled', durationMs: 900 }],
};

function renderPane() {
  const client = createQueryClient();
  // The target list as the proxy serves it, seeded: this test is about the pane, not the network.
  client.setQueryData(targetsQueryOptions().queryKey, [
    TargetInfoSchema.parse({
      id: 'local',
      label: 'Local reference',
      kind: 'local',
      preset: 'local',
      host: 'in-process',
      evaluatePath: '/v1/evaluate',
      inputPrice: 0.042,
    }),
  ]);
  return render(
    <QueryClientProvider client={client}>
      <AnswersPane onReveal={() => {}} />
    </QueryClientProvider>,
  );
}

beforeEach(() => useWorkbench.getState().hydrate(exampleDoc(), [good, cancelled]));
afterEach(() => act(() => useWorkbench.getState().hydrate(exampleDoc(), [])));

it('keeps the last good answer on screen under a cancelled re-run, with the attempt named', async () => {
  renderPane();
  const note = screen.getByTestId('answers.lastAttempt');
  expect(note).toHaveTextContent(/^Last attempt: cancelled\. The answer below is the last good one, from /);
  // Another model's answer on the same target says plainly whose it is.
  expect(note).toHaveTextContent(/, by model-latest \(this attempt asked model-preview\)\.Cancelled/);
  expect(screen.getByTestId('answers.status')).toHaveAttribute('data-status', 'cancelled');
  // The good run's answers, one card per question, are still there.
  // The cards load lazily (the charts' chunk): the first import takes a while.
  const cards = await screen.findAllByTestId('answers.card', {}, { timeout: 15_000 });
  expect(cards).toHaveLength(Object.keys(sampleRequest.questions).length);
  expect(within(screen.getByTestId('answers.summary')).getByText(/model-latest/)).toBeInTheDocument();
}, 20_000);

it('lists the earlier runs newest first and opens one as it was', async () => {
  const user = userEvent.setup();
  renderPane();
  const history = screen.getByTestId('answers.history');
  const options = within(history).getAllByRole('option');
  expect(options.map((o) => o.getAttribute('value'))).toEqual(['run-cancelled', 'run-good']);
  expect(options[0]).toHaveTextContent(/^Latest: .* · model-preview · cancelled$/);
  expect(options[1]).toHaveTextContent(/ · model-latest · answered$/);

  await user.selectOptions(history, 'run-good');
  expect(useWorkbench.getState().current?.id).toBe('run-good');
  expect(screen.getByTestId('answers.status')).toHaveAttribute('data-status', 'succeeded');
  expect(screen.queryByTestId('answers.lastAttempt')).toBeNull();
  expect(await screen.findAllByTestId('answers.card')).toHaveLength(
    Object.keys(sampleRequest.questions).length,
  );

  await user.selectOptions(history, 'run-cancelled');
  expect(screen.getByTestId('answers.lastAttempt')).toBeInTheDocument();
});

it('shows no picker for a single run, and a failed first run has no good answer to fall back on', () => {
  act(() => useWorkbench.getState().hydrate(exampleDoc(), [cancelled]));
  renderPane();
  expect(screen.queryByTestId('answers.history')).toBeNull();
  expect(screen.queryByTestId('answers.lastAttempt')).toBeNull();
  expect(screen.queryByTestId('answers.card')).toBeNull();
});
