import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Autosave } from '../../../../src/app/persistence/autosave';
import type { SaveStatus } from '../../../../src/app/persistence/autosave';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import type { Session } from '../../../../src/core/session';
import { asStored, sampleSession } from '../../../helpers/sessions';
import { dbWithQuota } from './dbHelpers';

describe('Autosave against the real repository', () => {
  let statuses: SaveStatus[];
  let setFull: (full: boolean) => void;
  let repo: SessionsRepo;
  let saver: Autosave<Session>;
  let cleanup: () => Promise<void>;

  beforeEach(() => {
    const made = dbWithQuota();
    setFull = made.setFull;
    repo = new SessionsRepo(made.db);
    cleanup = () => made.db.delete();
    statuses = [];
    saver = new Autosave<Session>({
      write: (s) => repo.put(s),
      keyOf: (s) => s.id,
      onStatus: (s) => statuses.push(s),
      delayMs: 400,
      retryMs: 10_000,
    });
  });
  afterEach(async () => {
    saver.dispose();
    vi.useRealTimers();
    await cleanup();
  });

  it('writes once after changes stop, with the latest value', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const base = sampleSession();
    for (const name of ['a', 'ab', 'abc']) {
      saver.schedule({ ...base, name });
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(await repo.get(base.id)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(400);
    await vi.waitFor(async () => expect((await repo.get(base.id))?.name).toBe('abc'));
    expect(saver.current.state).toBe('idle');
    expect(saver.current.savedAt).toBeDefined();
    expect(saver.unsaved()).toEqual([]);
  });

  it('flush writes at once (what page hide does)', async () => {
    const base = sampleSession();
    saver.schedule({ ...base, name: 'typed just before leaving' });
    await saver.flush();
    expect((await repo.get(base.id))?.name).toBe('typed just before leaving');
  });

  it('surfaces a quota error, keeps the change in memory, and saves it once space is free', async () => {
    const base = sampleSession();
    await repo.put(base);
    setFull(true);
    saver.schedule({ ...base, name: 'latest words' });
    await saver.flush();
    expect(saver.current).toMatchObject({ state: 'failed', quota: true });
    expect(saver.current.message).toMatch(
      /storage for this site is full\. Your latest change is kept in this tab/,
    );
    expect(saver.unsaved().map((s) => s.name)).toEqual(['latest words']);
    expect((await repo.get(base.id))?.name).toBe('Support triage');

    // More typing while full: still kept, still failed.
    saver.schedule({ ...base, name: 'latest words, more' });
    await saver.flush();
    expect(saver.current.state).toBe('failed');
    expect(saver.unsaved().map((s) => s.name)).toEqual(['latest words, more']);

    setFull(false);
    await saver.flush();
    expect(saver.current).toMatchObject({ state: 'idle', quota: false });
    expect((await repo.get(base.id))?.name).toBe('latest words, more');
    expect(statuses.some((s) => s.quota)).toBe(true);
  });

  it('retries a failed save on its own after the retry delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const base = sampleSession();
    setFull(true);
    saver.schedule(base);
    await vi.advanceTimersByTimeAsync(400);
    await vi.waitFor(() => expect(saver.current.state).toBe('failed'));
    setFull(false);
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.waitFor(async () => expect(await repo.get(base.id)).toEqual(asStored(base)));
    expect(saver.current.state).toBe('idle');
  });

  it('keeps one pending value per session, so switching sessions loses nothing', async () => {
    const a = sampleSession({ id: 'a', name: 'A' });
    const b = sampleSession({ id: 'b', name: 'B' });
    setFull(true);
    saver.schedule(a);
    saver.schedule(b);
    await saver.flush();
    expect(
      saver
        .unsaved()
        .map((s) => s.id)
        .sort(),
    ).toEqual(['a', 'b']);
    setFull(false);
    await saver.flush();
    expect((await repo.listAll()).sessions.map((s) => s.id).sort()).toEqual(['a', 'b']);
  });

  it('forgets a pending value whose session was deleted', async () => {
    const a = sampleSession({ id: 'a' });
    saver.schedule(a);
    saver.forget('a');
    await saver.flush();
    expect(await repo.get('a')).toBeUndefined();
    expect(saver.current.state).toBe('idle');
  });
});
