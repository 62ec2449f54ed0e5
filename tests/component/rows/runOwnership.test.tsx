// What the rows screen shows about who drives a run: live in another tab (Pause and Cancel reach it, no Resume, no
// Delete), interrupted (Resume with how far it got), and the main screen's line about an interrupted run.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { ProgressPanel } from '../../../src/app/features/rows/ProgressPanel';
import { ResumeNotice } from '../../../src/app/features/rows/ResumeNotice';
import { RunList } from '../../../src/app/features/rows/RunList';
import type { RunProgress } from '../../../src/core/rows/runTypes';
import type { RowRun } from '../../../src/core/rows/records';
import { useResumeOffer } from '../../../src/app/stores/resumeOffer';

const progress = (over: Partial<RunProgress> = {}): RunProgress => ({
  phase: 'idle',
  halt: null,
  total: 400,
  done: 121,
  reused: 0,
  reusedEarlier: 0,
  partlyReused: 0,
  invalid: 0,
  failed: 0,
  unknown: 0,
  pending: 279,
  inFlight: 0,
  billedTokens: 1000,
  possiblyBilledTokens: 0,
  cost: 0.001,
  possiblyBilledCost: 0,
  ratePerMinute: 0,
  etaMs: null,
  serviceWaitMs: null,
  ...over,
});
const handlers = () => ({ onStart: vi.fn(), onPause: vi.fn(), onCancel: vi.fn(), onRetry: vi.fn() });

it('a run driven in another tab: running there, Pause and Cancel reach it, Resume is refused', async () => {
  const on = handlers();
  render(
    <ProgressPanel
      progress={progress({ phase: 'running', unknown: 2 })}
      running={false}
      watching
      configuredRate={1200}
      {...on}
    />,
  );
  expect(screen.getByTestId('rows.status').textContent).toBe('Running in another tab');
  expect(screen.getByTestId('rows.status').getAttribute('data-owner')).toBe('elsewhere');
  expect(screen.getByTestId('rows.resume')).toHaveProperty('disabled', true);
  expect(screen.getByTestId('rows.retry.unknown')).toHaveProperty('disabled', true);
  await userEvent.click(screen.getByTestId('rows.pause'));
  await userEvent.click(screen.getByTestId('rows.cancel'));
  expect(on.onPause).toHaveBeenCalledOnce();
  expect(on.onCancel).toHaveBeenCalledOnce();
});

it('an interrupted run says how far it got, with Resume', () => {
  render(<ProgressPanel progress={progress()} running={false} configuredRate={1200} {...handlers()} />);
  expect(screen.getByTestId('rows.status').textContent).toBe(
    'Stopped at 121 of 400: Resume to send the other 279',
  );
  expect(screen.getByTestId('rows.resume')).toHaveProperty('disabled', false);
  expect(screen.getByTestId('rows.resume').textContent).toBe('Resume');
});

it('the run list tells a run driven in another tab from an interrupted one, and offers no Delete for it', () => {
  const run = (id: string, fileName: string): RowRun =>
    ({
      id,
      fileName,
      rowCount: 400,
      model: 'model-latest',
      createdAt: 0,
      status: 'running',
      halt: null,
    }) as RowRun;
  render(
    <RunList
      runs={[run('a', 'held.csv'), run('b', 'dead.csv')]}
      openId={null}
      running={false}
      heldElsewhere={['a']}
      busy={false}
      onOpen={vi.fn()}
      onDelete={vi.fn()}
    />,
  );
  const [held, dead] = screen.getAllByTestId('rows.run');
  expect(within(held!).getByTestId('rows.run.status').textContent).toBe('running in another tab');
  expect(within(held!).getByRole('button', { name: 'Delete the run of held.csv' })).toHaveProperty(
    'disabled',
    true,
  );
  expect(within(dead!).getByTestId('rows.run.status').textContent).toBe('interrupted');
  expect(within(dead!).getByRole('button', { name: 'Delete the run of dead.csv' })).toHaveProperty(
    'disabled',
    false,
  );
});

it('the main screen says in one line where an interrupted run stopped, and goes to it on request', async () => {
  useResumeOffer.setState({
    offer: { runId: 'r1', fileName: 'tickets.csv', settled: 121, total: 400 },
    pendingOpen: null,
  });
  const onOpen = vi.fn();
  render(<ResumeNotice onOpen={onOpen} />);
  expect(screen.getByTestId('rows.resumeNotice').textContent).toMatch(
    /^The run of tickets\.csv stopped at 121 of 400 when the page closed\./,
  );
  await userEvent.click(screen.getByTestId('rows.resumeNotice.open'));
  expect(onOpen).toHaveBeenCalledOnce();
  expect(useResumeOffer.getState().pendingOpen).toBe('r1');
});
