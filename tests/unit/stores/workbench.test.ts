import { beforeEach, describe, expect, it } from 'vitest';
import { exampleDoc } from '../../../src/core/example';
import type { RunRecord } from '../../../src/core/session';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { exampleRequest, exampleResponse } from '../../helpers/fixtures';

const run = (id: string, extra: Partial<RunRecord> = {}): RunRecord => ({
  id,
  at: '2026-11-01T10:00:00.000Z',
  targetId: 'local',
  request: exampleRequest(),
  response: exampleResponse(),
  attempts: [],
  ...extra,
});

describe('workbench store', () => {
  beforeEach(() => useWorkbench.getState().hydrate(exampleDoc(), []));

  it('shows the last run of the main screen after a reload', () => {
    useWorkbench.getState().hydrate(exampleDoc(), [run('a'), run('b')]);
    expect(useWorkbench.getState().current?.id).toBe('b');
  });

  // Bug: a comparison column's run, saved last, was shown as the main screen's answer after a reload.
  it("never shows a comparison column's run as the main screen's answer", () => {
    useWorkbench.getState().hydrate(exampleDoc(), [run('single'), run('col-run', { columnId: 'c1' })]);
    expect(useWorkbench.getState().current?.id).toBe('single');
    useWorkbench.getState().hydrate(exampleDoc(), [run('col-run', { columnId: 'c1' })]);
    expect(useWorkbench.getState().current).toBeNull();
  });
});
