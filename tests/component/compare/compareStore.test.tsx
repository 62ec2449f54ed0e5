import { beforeEach, describe, expect, it } from 'vitest';
import { exampleDoc } from '../../../src/core/example';
import type { RunRecord } from '../../../src/core/session';
import { CompareSchema } from '../../../src/core/session';
import { useCompare } from '../../../src/app/stores/compare';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { sampleRequest, sampleResponse } from '../../helpers/sessions';

const run = (id: string): RunRecord => ({
  id,
  at: '2026-03-01T10:00:00.000Z',
  targetId: 'local',
  request: sampleRequest,
  response: sampleResponse,
  latencyMs: 12,
  attempts: [{ attempt: 0, outcome: 200, durationMs: 12 }],
});

beforeEach(() => {
  useWorkbench.getState().hydrate(exampleDoc('local'), []);
  useCompare.setState({ compare: undefined, open: false });
  useCompare.getState().hydrate(undefined);
});

describe('compare store', () => {
  it('opens compare mode with a new comparison of the session target and model, and keeps it when reopened', () => {
    useCompare.getState().openCompare('local', 'model-1.12.0');
    const first = useCompare.getState().compare!;
    expect(CompareSchema.parse(first).columns.map((c) => c.model)).toEqual(['model-1.12.0', 'model-preview']);
    useCompare.getState().closeCompare();
    useCompare.getState().openCompare('local', 'model-latest');
    expect(useCompare.getState().open).toBe(true);
    expect(useCompare.getState().compare).toBe(first);
  });

  it('records a column run into the session history and as the column latest, without touching the single run', () => {
    useCompare.getState().openCompare('local', 'model-1.12.0');
    const { compare, sessionKey } = useCompare.getState();
    const columnId = compare!.columns[1]!.id;
    useCompare.getState().recordRun(sessionKey, columnId, run('run-a'));
    expect(useWorkbench.getState().runs.map((r) => r.id)).toEqual(['run-a']);
    expect(useWorkbench.getState().current).toBeNull();
    expect(useCompare.getState().compare!.runIds).toEqual({ [columnId]: 'run-a' });
  });

  it('does not save a run that finishes after another session was loaded', () => {
    useCompare.getState().openCompare('local', 'model-1.12.0');
    const { compare, sessionKey } = useCompare.getState();
    useCompare.getState().hydrate({ ...compare!, runIds: {} });
    useCompare.getState().recordRun(sessionKey, compare!.columns[0]!.id, run('late'));
    expect(useWorkbench.getState().runs).toEqual([]);
    expect(useCompare.getState().compare!.runIds).toEqual({});
  });
});
