import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import { connectLayout, workbenchBinding } from '../../../../src/app/features/sessions/connect';
import { useLayout } from '../../../../src/app/stores/layout';
import { useWorkbench } from '../../../../src/app/stores/workbench';
import type { SessionContent } from '../../../../src/app/stores/sessions';
import { sampleSession } from '../../../helpers/sessions';
import { freshDbName } from './dbHelpers';

const db = new WorkbenchDb(freshDbName());
afterEach(() => vi.useRealTimers());

describe('layout kept in the meta table', () => {
  it('restores the saved layout and saves changes after the drag settles', async () => {
    const repo = new SessionsRepo(db);
    await repo.setMeta('layout', { columns: { editors: 40, answers: 60 }, questionsView: 'form', junk: 1 });
    const stop = await connectLayout(repo);
    expect(useLayout.getState()).toMatchObject({
      columns: { editors: 40, answers: 60 },
      questionsView: 'form',
    });

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    useLayout.getState().setEditors({ state: 30, questions: 70 });
    useLayout.getState().setEditors({ state: 35, questions: 65 });
    await vi.advanceTimersByTimeAsync(300);
    vi.useRealTimers();
    await vi.waitFor(async () =>
      expect(await repo.getMeta('layout', z.unknown())).toEqual({
        columns: { editors: 40, answers: 60 },
        editors: { state: 35, questions: 65 },
        questionsView: 'form',
      }),
    );
    stop();
  });

  it('ignores a saved layout of the wrong shape', async () => {
    const repo = new SessionsRepo(db);
    useLayout.setState({ columns: undefined, questionsView: 'json' });
    await repo.setMeta('layout', { columns: 'wide', questionsView: 'cards' });
    const stop = await connectLayout(repo);
    expect(useLayout.getState()).toMatchObject({ columns: undefined, questionsView: 'json' });
    stop();
  });
});

describe('workbench binding', () => {
  it('loads a session into the workbench store and reports the user’s changes', () => {
    const binding = workbenchBinding();
    const seen: SessionContent[] = [];
    const stop = binding.subscribe((content) => seen.push(content));
    const session = sampleSession();
    binding.load(session);
    expect(useWorkbench.getState().doc).toEqual(session.doc);
    expect(useWorkbench.getState().runs).toEqual(session.runs);
    expect(useWorkbench.getState().current?.id).toBe('run-2');
    useWorkbench.getState().setStateText('edited');
    expect(seen.at(-1)?.doc.stateText).toBe('edited');
    useWorkbench.getState().revealAt('state', 0); // not content: not reported
    expect(seen).toHaveLength(2);
    stop();
  });
});
