import { beforeEach, describe, expect, it } from 'vitest';
import { exampleDoc } from '../../../../src/core/example';
import type { RunRecord } from '../../../../src/core/session';
import { useWorkbench } from '../../../../src/app/stores/workbench';
import { exampleRequest, exampleResponse } from '../../../helpers/fixtures';

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

  // Bug: applying a quick fix went through hydrate, which put the last saved run back on screen.
  it('edits the document without touching the runs or the answer on screen', () => {
    useWorkbench.getState().hydrate(exampleDoc(), [run('a')]);
    useWorkbench.getState().startRun({ id: 'live', at: 'now', targetId: 'local', body: exampleRequest() });
    useWorkbench.getState().editDoc((doc) => ({ ...doc, model: 'model-1.14.0' }));
    const state = useWorkbench.getState();
    expect(state.doc.model).toBe('model-1.14.0');
    expect(state.current?.id).toBe('live');
    expect(state.runs.map((r) => r.id)).toEqual(['a']);
  });
});
