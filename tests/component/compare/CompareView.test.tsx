import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChoiceAnswer, NoulAnswer, ScoreAnswer } from '../../../src/contract';
import { choiceMetrics, noulMetrics, scoreMetrics } from '../../../src/core/metrics';
import { exampleDoc } from '../../../src/core/example';
import type { Compare, RunRecord } from '../../../src/core/session';
import { CompareSchema } from '../../../src/core/session';
import { formatDistance, formatSigned } from '../../../src/app/features/compare/format';
import { useCompare } from '../../../src/app/stores/compare';
import type { RunningReference } from '../../../src/server/reference/serve';
import { CompareHost, referenceTarget, startReference, withQueryClient } from './harness';

let reference: RunningReference;
let slow: RunningReference;
beforeAll(async () => {
  reference = await startReference();
  // Every evaluation takes 5 s here, long enough to press Cancel while it is in flight.
  slow = await startReference({ faults: { p429: 0, p529: 0, timeout: 0, reset: 0, latency: [5000, 5000] } });
});
afterAll(async () => {
  await reference.close();
  await slow.close();
});

const twoVersions = (): Compare => ({
  columns: [
    { id: 'c1', targetId: 'local', model: 'model-1.12.0' },
    { id: 'c2', targetId: 'local', model: 'model-1.14.0' },
  ],
  threshold: 0.2,
  runIds: {},
});

/** Renders a host and returns a getter of the last saved state. */
function renderHost(initial: Compare, target = reference) {
  const saved: { compare: Compare; runs: RunRecord[] } = { compare: initial, runs: [] };
  render(
    withQueryClient(
      <CompareHost
        initial={initial}
        resolveTarget={referenceTarget(target)}
        onSaved={(compare, runs) => Object.assign(saved, { compare, runs })}
      />,
    ),
  );
  return saved;
}

const columnByIndex = (i: number) =>
  screen.getAllByTestId('compare.column').find((c) => c.dataset.columnIndex === String(i))!;

describe('CompareView against the reference service', () => {
  it('runs both columns in parallel and shows the metrics the core computes from their responses', async () => {
    const user = userEvent.setup();
    const saved = renderHost(twoVersions());
    await user.click(screen.getByTestId('compare.runAll'));
    await waitFor(() => expect(columnByIndex(1).dataset.phase).toBe('answered'), { timeout: 10_000 });
    await waitFor(() => expect(columnByIndex(0).dataset.phase).toBe('answered'));

    // Both runs were saved, each as its column's latest, with the versions each column pinned.
    expect(saved.runs).toHaveLength(2);
    const byModel = new Map(saved.runs.map((r) => [r.request.model, r]));
    const base = byModel.get('model-1.12.0')!.response!;
    const other = byModel.get('model-1.14.0')!.response!;
    expect(base.model).toBe('model-1.12.0');
    expect(other.model).toBe('model-1.14.0');
    expect(Object.values(saved.compare.runIds).sort()).toEqual(saved.runs.map((r) => r.id).sort());
    expect(CompareSchema.safeParse(saved.compare).success).toBe(true);

    const question = (name: string) =>
      screen.getAllByTestId('compare.question').find((q) => q.dataset.question === name)!;

    const dep = choiceMetrics(
      base.answers.department as ChoiceAnswer,
      other.answers.department as ChoiceAnswer,
    );
    const depRow = within(question('department'));
    expect(depRow.getByTestId('compare.metric.tvd')).toHaveTextContent(formatDistance(dep.totalVariation));
    expect(depRow.getByTestId('compare.metric.jsd')).toHaveTextContent(formatDistance(dep.jensenShannon));
    expect(depRow.getByTestId('compare.metric.topChoice').dataset.agrees).toBe(String(dep.topChoiceAgrees));

    const fr = scoreMetrics(
      base.answers.frustration as ScoreAnswer,
      other.answers.frustration as ScoreAnswer,
    );
    const frRow = within(question('frustration'));
    // The level texts are listed once for the row, lowest first.
    expect(
      within(frRow.getByTestId('compare.levels'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['0 Calm, just stating facts', '1 Frustrated but civil', '2 Angry or threatening to leave']);
    expect(frRow.getByTestId('compare.metric.scoreDelta')).toHaveTextContent(
      formatSigned(fr.scoreDifference),
    );
    expect(frRow.getByTestId('compare.metric.tvd')).toHaveTextContent(formatDistance(fr.totalVariation));

    const ur = noulMetrics(base.answers.is_urgent as NoulAnswer, other.answers.is_urgent as NoulAnswer);
    expect(within(question('is_urgent')).getByTestId('compare.metric.yesDelta')).toHaveTextContent(
      formatSigned(ur.yesDifference),
    );

    // Flags follow the threshold: one question per disagreement above 0.2.
    const expectedFlags = [dep.totalVariation, fr.totalVariation, Math.abs(ur.yesDifference)].filter(
      (d) => d > 0.2,
    );
    expect(screen.getByTestId('compare.flaggedCount')).toHaveTextContent(
      `${expectedFlags.length} of 3 questions flagged`,
    );
  });

  it('flags by an adjustable threshold and sorts by disagreement', async () => {
    const user = userEvent.setup();
    const saved = renderHost(twoVersions());
    await user.click(screen.getByTestId('compare.runAll'));
    await waitFor(() => expect(screen.getAllByTestId('compare.metrics')).toHaveLength(3), {
      timeout: 10_000,
    });

    const threshold = screen.getByTestId('compare.threshold');
    await user.clear(threshold);
    await user.type(threshold, '0');
    // Every question whose columns differ at all is above 0.
    const rows = () => screen.getAllByTestId('compare.question');
    const disagreements = rows().map((r) => Number(r.dataset.disagreement));
    expect(saved.compare.threshold).toBe(0);
    expect(rows().filter((r) => r.dataset.flagged === 'true')).toHaveLength(
      disagreements.filter((d) => d > 0).length,
    );

    await user.clear(threshold);
    await user.type(threshold, '1');
    expect(saved.compare.threshold).toBe(1);
    expect(screen.queryAllByTestId('compare.flag')).toHaveLength(0);

    await user.selectOptions(screen.getByTestId('compare.sort'), 'disagreement');
    const sorted = rows().map((r) => Number(r.dataset.disagreement));
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    await user.selectOptions(screen.getByTestId('compare.sort'), 'question');
    expect(rows().map((r) => r.dataset.question)).toEqual(['is_urgent', 'department', 'frustration']);
  });

  it('offers to pin an alias column to the version it resolved to, in one click, keeping its answers', async () => {
    const user = userEvent.setup();
    const saved = renderHost({
      ...twoVersions(),
      columns: [
        { id: 'c1', targetId: 'local', model: 'model-1.12.0' },
        { id: 'c2', targetId: 'local', model: 'model-preview' },
      ],
    });
    const alias = within(columnByIndex(1));
    expect(alias.getByTestId('compare.aliasNotice')).toHaveTextContent('model-preview is an alias');
    expect(alias.queryByTestId('compare.pin')).toBeNull();
    await user.click(alias.getByTestId('compare.runColumn'));
    const pin = await alias.findByTestId('compare.pin', {}, { timeout: 10_000 });
    expect(pin).toHaveTextContent('Pin model-1.14.0');
    await user.click(pin);
    expect(saved.compare.columns[1]!.model).toBe('model-1.14.0');
    expect(saved.compare.runIds.c2).toBe(saved.runs[0]!.id);
    expect(within(columnByIndex(1)).queryByTestId('compare.aliasNotice')).toBeNull();
    expect(columnByIndex(1).dataset.phase).toBe('answered');
  });

  it('cancels one column while it is in flight and saves the run as cancelled', async () => {
    const user = userEvent.setup();
    const saved = renderHost(twoVersions(), slow);
    const col = within(columnByIndex(0));
    await user.click(col.getByTestId('compare.runColumn'));
    expect(columnByIndex(0).dataset.phase).toBe('running');
    expect(screen.getByTestId('compare.runAll')).toBeDisabled();
    await user.click(col.getByTestId('compare.cancelColumn'));
    await waitFor(() => expect(columnByIndex(0).dataset.phase).toBe('cancelled'));
    expect(saved.runs).toHaveLength(1);
    expect(saved.runs[0]!.error?.kind).toBe('cancelled');
    expect(saved.compare.runIds.c1).toBe(saved.runs[0]!.id);
    expect(columnByIndex(1).dataset.phase).toBe('idle');
  });

  it('shows a failed column with the service sentence and compares nothing for it', async () => {
    const user = userEvent.setup();
    renderHost({
      ...twoVersions(),
      columns: [
        { id: 'c1', targetId: 'local', model: 'model-1.12.0' },
        { id: 'c2', targetId: 'local', model: 'model-9.9.9' },
      ],
    });
    await user.click(screen.getByTestId('compare.runAll'));
    await waitFor(() => expect(columnByIndex(1).dataset.phase).toBe('failed'), { timeout: 10_000 });
    expect(within(columnByIndex(1)).getByTestId('compare.columnStatus')).toHaveTextContent('422');
    await waitFor(() => expect(columnByIndex(0).dataset.phase).toBe('answered'));
    expect(screen.queryAllByTestId('compare.metrics')).toHaveLength(0);
    expect(screen.getByTestId('compare.flaggedCount')).toHaveTextContent('0 of 3 questions flagged');
  });

  it('blocks running a column whose model id cannot be sent, and says why', () => {
    renderHost({
      ...twoVersions(),
      columns: [
        { id: 'c1', targetId: 'local', model: 'model-1.12.0' },
        { id: 'c2', targetId: 'local', model: 'model-1.13' },
      ],
    });
    expect(within(columnByIndex(1)).getByTestId('compare.runColumn')).toBeDisabled();
    expect(within(columnByIndex(0)).getByTestId('compare.runColumn')).toBeEnabled();
    expect(screen.getByTestId('compare.runAll')).toBeDisabled();
    expect(screen.getByTestId('compare.runAll')).toHaveAttribute(
      'title',
      expect.stringContaining('product line'),
    );
  });

  it('adds columns up to four and removes them down to two', async () => {
    const user = userEvent.setup();
    const saved = renderHost(twoVersions());
    expect(screen.queryAllByTestId('compare.removeColumn')).toHaveLength(0);
    await user.click(screen.getByTestId('compare.addColumn'));
    await user.click(screen.getByTestId('compare.addColumn'));
    expect(screen.getAllByTestId('compare.column')).toHaveLength(4);
    expect(screen.getByTestId('compare.addColumn')).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Remove Column 2' }));
    expect(saved.compare.columns.map((c) => c.model)).toEqual([
      'model-1.12.0',
      'model-1.14.0',
      'model-1.14.0',
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove Column 3' }));
    expect(screen.queryAllByTestId('compare.removeColumn')).toHaveLength(0);
  });
});

describe('CompareView running columns together', () => {
  it('has every column in flight at once after Run all, and Cancel all stops them all', async () => {
    const user = userEvent.setup();
    const saved = renderHost(twoVersions(), slow);
    await user.click(screen.getByTestId('compare.runAll'));
    expect(screen.getAllByTestId('compare.column').map((c) => c.dataset.phase)).toEqual([
      'running',
      'running',
    ]);
    expect(screen.getByTestId('compare.cancelAll')).toBeEnabled();
    await user.click(screen.getByTestId('compare.cancelAll'));
    await waitFor(() =>
      expect(screen.getAllByTestId('compare.column').map((c) => c.dataset.phase)).toEqual([
        'cancelled',
        'cancelled',
      ]),
    );
    expect(saved.runs.map((r) => r.error?.kind)).toEqual(['cancelled', 'cancelled']);
  });

  it('runs every column with Ctrl+Enter from inside the view', async () => {
    const user = userEvent.setup();
    renderHost(twoVersions(), slow);
    await user.click(screen.getByTestId('compare.threshold'));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(screen.getAllByTestId('compare.column').map((c) => c.dataset.phase)).toEqual([
      'running',
      'running',
    ]);
    await user.click(screen.getByTestId('compare.cancelAll'));
    await waitFor(() => expect(screen.getByTestId('compare.cancelAll')).toBeDisabled());
  });

  it('lets the workbench run every column through the store while the view is on screen', async () => {
    const user = userEvent.setup();
    renderHost(twoVersions(), slow);
    const runAll = useCompare.getState().runAll;
    expect(runAll).not.toBeNull();
    act(() => runAll!());
    expect(screen.getAllByTestId('compare.column').map((c) => c.dataset.phase)).toEqual([
      'running',
      'running',
    ]);
    await user.click(screen.getByTestId('compare.cancelAll'));
    await waitFor(() => expect(screen.getByTestId('compare.cancelAll')).toBeDisabled());
    cleanup();
    expect(useCompare.getState().runAll).toBeNull();
  });

  it('says when the editors changed since the columns ran', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      withQueryClient(<CompareHost initial={twoVersions()} resolveTarget={referenceTarget(reference)} />),
    );
    await user.click(screen.getByTestId('compare.runAll'));
    await waitFor(() => expect(screen.getAllByTestId('compare.metrics')).toHaveLength(3), {
      timeout: 10_000,
    });
    expect(screen.queryByTestId('compare.edited')).toBeNull();
    const edited = { ...exampleDoc('local'), stateText: 'Thanks, all sorted now.' };
    rerender(
      withQueryClient(
        <CompareHost initial={twoVersions()} doc={edited} resolveTarget={referenceTarget(reference)} />,
      ),
    );
    expect(await screen.findByTestId('compare.edited')).toHaveTextContent('changed since these answers');
  });
});
