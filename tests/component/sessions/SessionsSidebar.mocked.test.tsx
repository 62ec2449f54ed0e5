import 'fake-indexeddb/auto';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchDb } from '../../../src/app/persistence/db';
import { SessionsRepo } from '../../../src/app/persistence/sessionsRepo';
import { createSessionsStore } from '../../../src/app/stores/sessions';
import type { SessionsStore } from '../../../src/app/stores/sessions';
import { SessionsSidebar } from '../../../src/app/features/sessions/SessionsSidebar';
import { exportFile } from '../../../src/core/sessionFile';
import { encodeShareFragment } from '../../../src/core/shareLink';
import { fakeWorkbench } from '../../helpers/fakeWorkbench';
import type { FakeWorkbench } from '../../helpers/fakeWorkbench';
import { asStored, sampleSession } from '../../helpers/sessions';

// Files and the clipboard are the browser's; this module is their one entry point, replaced here.
vi.mock('../../../src/app/features/sessions/browserFiles', () => ({
  downloadText: vi.fn(),
  copyText: vi.fn(async () => true),
  // jsdom's File has no text(); FileReader reads it the way older browsers would.
  readFileText: (file: File) =>
    new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsText(file);
    }),
}));
const files = await import('../../../src/app/features/sessions/browserFiles');

let db: WorkbenchDb;
let repo: SessionsRepo;
let store: SessionsStore;
let bench: FakeWorkbench;

async function renderSidebar(options: { hash?: string } = {}) {
  store = createSessionsStore();
  bench = fakeWorkbench();
  await store.getState().init({
    repo,
    binding: bench,
    hash: options.hash,
    pageUrl: 'http://127.0.0.1:5173/',
    lifecycle: false,
    autosaveDelayMs: 5,
  });
  const user = userEvent.setup();
  render(<SessionsSidebar store={store} />);
  return user;
}

const names = () => screen.queryAllByTestId('sessions.name').map((el) => el.textContent);
const item = (name: string) =>
  screen.getAllByTestId('sessions.item').find((li) => within(li).queryByText(name))!;

beforeEach(() => {
  db = new WorkbenchDb(`sidebar-${Math.random().toString(36).slice(2)}`);
  repo = new SessionsRepo(db);
  vi.mocked(files.downloadText).mockClear();
  vi.mocked(files.copyText).mockClear();
});
afterEach(async () => {
  store.getState().dispose();
  await db.delete();
});

describe('SessionsSidebar', () => {
  it('creates, renames and searches sessions', async () => {
    const user = await renderSidebar();
    expect(names()).toEqual(['Example session']);
    await user.click(screen.getByTestId('sessions.new'));
    await waitFor(() => expect(names()).toEqual(['Untitled session', 'Example session']));
    expect(screen.getByRole('button', { current: true })).toHaveTextContent('Untitled session');

    await user.click(within(item('Untitled session')).getByTestId('sessions.menu'));
    await user.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const input = screen.getByTestId('sessions.renameInput');
    await user.clear(input);
    await user.type(input, 'Refund tone{Enter}');
    await waitFor(() => expect(names()).toContain('Refund tone'));
    expect((await repo.listAll()).sessions.map((s) => s.name).sort()).toEqual([
      'Example session',
      'Refund tone',
    ]);

    act(() => bench.edit({ stateText: 'The parcel arrived crushed' }));
    await user.type(screen.getByTestId('sessions.search'), 'crushed');
    expect(names()).toEqual(['Refund tone']);
    expect(screen.getByText(/matched in content/)).toBeInTheDocument();
    await user.clear(screen.getByTestId('sessions.search'));
    await user.type(screen.getByTestId('sessions.search'), 'nothing of the sort');
    expect(screen.getByTestId('sessions.noMatch')).toHaveTextContent(
      'No session matches “nothing of the sort”.',
    );
  });

  it('deletes with a toast that undoes it', async () => {
    await repo.put(sampleSession());
    await repo.put(sampleSession({ id: 'two', name: 'Second', updatedAt: '2026-03-03T00:00:00.000Z' }));
    const user = await renderSidebar();
    await user.click(within(item('Support triage')).getByTestId('sessions.menu'));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await waitFor(() => expect(names()).toEqual(['Second']));
    expect(screen.getByTestId('sessions.toastText')).toHaveTextContent('Deleted “Support triage”.');
    await user.click(screen.getByTestId('sessions.toastUndo'));
    await waitFor(() => expect(names().sort()).toEqual(['Second', 'Support triage']));
    expect(await repo.get('session-1')).toEqual(asStored(sampleSession()));
  });

  it('duplicates and opens the copy', async () => {
    await repo.put(sampleSession());
    const user = await renderSidebar();
    await user.click(within(item('Support triage')).getByTestId('sessions.menu'));
    await user.click(screen.getByRole('menuitem', { name: 'Duplicate' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { current: true })).toHaveTextContent('Support triage (copy)'),
    );
    expect(bench.content()?.runs).toEqual(sampleSession().runs);
  });

  it('refuses a corrupt file with a clear sentence and leaves the sessions as they were', async () => {
    await repo.put(sampleSession());
    const user = await renderSidebar();
    const before = await repo.listAll();
    const truncated = exportFile([sampleSession({ id: 'x' })]).slice(0, 200);
    await user.upload(
      screen.getByTestId('sessions.importInput'),
      new File([truncated], 'sessions.json', { type: 'application/json' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        /^Nothing was imported\. The file is cut off: it ends in the middle/,
      ),
    );
    expect(await repo.listAll()).toEqual(before);
    expect(names()).toEqual(['Support triage']);
  });

  it('imports a file; a session whose id exists comes in as a copy', async () => {
    await repo.put(sampleSession());
    const user = await renderSidebar();
    const text = exportFile([sampleSession(), sampleSession({ id: 'new-one', name: 'Brand new' })]);
    await user.upload(screen.getByTestId('sessions.importInput'), new File([text], 'sessions.json'));
    await waitFor(() =>
      expect(names().sort()).toEqual(['Brand new', 'Support triage', 'Support triage (copy)']),
    );
    expect(screen.getByTestId('sessions.toastText')).toHaveTextContent(
      'Imported 2 sessions, 1 as a copy (the id was taken).',
    );
  });

  it('exports one session and all of them as files', async () => {
    await repo.put(sampleSession());
    await repo.put(sampleSession({ id: 'two', name: 'Second' }));
    const user = await renderSidebar();
    await user.click(screen.getByTestId('sessions.exportAll'));
    await waitFor(() => expect(files.downloadText).toHaveBeenCalledTimes(1));
    const [fileName, text] = vi.mocked(files.downloadText).mock.calls[0]!;
    expect(fileName).toMatch(/^evaluate-workbench-2-sessions-/);
    expect(
      JSON.parse(text)
        .sessions.map((s: { id: string }) => s.id)
        .sort(),
    ).toEqual(['session-1', 'two']);

    await user.click(within(item('Second')).getByTestId('sessions.menu'));
    await user.click(screen.getByRole('menuitem', { name: 'Export to file' }));
    await waitFor(() => expect(files.downloadText).toHaveBeenCalledTimes(2));
    expect(vi.mocked(files.downloadText).mock.calls[1]![0]).toMatch(/^evaluate-workbench-second-/);
  });

  it('copies a share link; a link too long says so and saves a file only when asked', async () => {
    await repo.put(sampleSession());
    const user = await renderSidebar();
    await user.click(within(item('Support triage')).getByTestId('sessions.menu'));
    await user.click(screen.getByRole('menuitem', { name: 'Share link…' }));
    expect(screen.getByTestId('sessions.shareIncludeRuns')).toBeChecked();
    await user.click(screen.getByTestId('sessions.shareCopy'));
    await waitFor(() => expect(files.copyText).toHaveBeenCalledTimes(1));
    const url = vi.mocked(files.copyText).mock.calls[0]![0];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#share=v1\./);
    expect(screen.getByTestId('sessions.shareMessage')).toHaveTextContent(
      /^Link copied \([\d,]+ characters\)\.$/,
    );
    expect(screen.getByTestId('sessions.shareUrl')).toHaveValue(url);
    await user.click(screen.getByRole('button', { name: 'Close' }));

    act(() =>
      bench.edit({ stateText: Array.from({ length: 30_000 }, (_, i) => (i * 7919).toString(36)).join(' ') }),
    );
    await user.click(within(item('Support triage')).getByTestId('sessions.menu'));
    await user.click(screen.getByRole('menuitem', { name: 'Share link…' }));
    await user.click(screen.getByTestId('sessions.shareCopy'));
    const message = await screen.findByTestId('sessions.shareMessage');
    expect(message).toHaveTextContent(
      /^Too long for a link: [\d,]+ characters, and browsers and chat apps reliably keep 32,000\./,
    );
    // Nothing downloads until asked, nothing was copied, and the button says what it does now.
    expect(files.downloadText).not.toHaveBeenCalled();
    expect(files.copyText).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('sessions.shareCopy')).toBeNull();
    // The state alone is too long: no offer without the runs.
    expect(screen.queryByTestId('sessions.shareCopyWithoutRuns')).toBeNull();
    await user.click(screen.getByTestId('sessions.shareSave'));
    expect(files.downloadText).toHaveBeenCalledTimes(1);
    expect(vi.mocked(files.downloadText).mock.calls[0]![0]).toMatch(
      /^evaluate-workbench-support-triage-.*\.json$/,
    );
    expect(screen.getByTestId('sessions.shareSaved')).toHaveTextContent(
      /^Saved as evaluate-workbench-support-triage-.*\.json in your downloads\./,
    );
  });

  it('offers the link without runs when only the runs make it too long, and returns focus to ⋯ on close', async () => {
    const session = sampleSession();
    const bulky = Array.from({ length: 12_000 }, (_, i) => (i * 7919).toString(36)).join(' ');
    await repo.put({
      ...session,
      runs: session.runs.map((r) => ({ ...r, request: { ...r.request, state: { message: bulky } } })),
    });
    const user = await renderSidebar();
    const menuButton = within(item('Support triage')).getByTestId('sessions.menu');
    await user.click(menuButton);
    await user.click(screen.getByRole('menuitem', { name: 'Share link…' }));
    await user.click(screen.getByTestId('sessions.shareCopy'));
    expect(await screen.findByTestId('sessions.shareWithoutRuns')).toHaveTextContent(
      /^Without the runs: [\d,]+ characters, fits in a link\.$/,
    );
    expect(files.copyText).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('sessions.shareCopyWithoutRuns'));
    await waitFor(() => expect(files.copyText).toHaveBeenCalledTimes(1));
    expect(screen.getByTestId('sessions.shareIncludeRuns')).not.toBeChecked();
    expect(screen.getByTestId('sessions.shareMessage')).toHaveTextContent(/^Link copied/);
    expect(files.downloadText).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('sessions.shareDialog')).toBeNull();
    expect(menuButton).toHaveFocus();
  });

  it('says in a sentence when a link leaves out the labels kept with the alignment report', async () => {
    // Ids with no pattern barely deflate: 6,000 labelled rows would make the link too long.
    let seed = 3;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const labels = Array.from({ length: 6000 }, () => ({
      id: next().toString(36) + next().toString(36),
      labels: { is_urgent: next() % 2 === 0 },
    }));
    await repo.put({
      ...sampleSession({ runs: [] }),
      alignment: {
        at: '2026-03-01T10:00:00.000Z',
        run: { fileName: 'tickets.csv', model: 'model-1.13.0', targetId: 'local', rowCount: 6000 },
        conventions: [],
        questions: [],
        labels,
      },
    });
    const user = await renderSidebar();
    await user.click(within(item('Support triage')).getByTestId('sessions.menu'));
    await user.click(screen.getByRole('menuitem', { name: 'Share link…' }));
    await user.click(screen.getByTestId('sessions.shareCopy'));
    await waitFor(() => expect(files.copyText).toHaveBeenCalledTimes(1));
    expect(vi.mocked(files.copyText).mock.calls[0]![0].length).toBeLessThanOrEqual(32_000);
    expect(screen.getByTestId('sessions.shareLabelsLeftOut')).toHaveTextContent(
      /^The human labels of 6,000 rows are left out of this link: with them it would be [\d,]+ characters, more than 32,000\. Export the session as a file to send the labels too\.$/,
    );
  });

  it('previews a share link and imports it on confirm', async () => {
    const hash = encodeShareFragment(sampleSession({ name: 'From a colleague' }), { includeRuns: true });
    const user = await renderSidebar({ hash });
    const dialog = screen.getByRole('dialog', { name: 'Import a shared session?' });
    expect(within(dialog).getByTestId('sessions.sharePreviewName')).toHaveTextContent('From a colleague');
    expect(within(dialog).getByTestId('sessions.sharePreviewState')).toHaveTextContent(
      'payouts have been failing',
    );
    expect(within(dialog).getByTestId('sessions.sharePreviewQuestions')).toHaveTextContent(
      'is_urgent (yes/no)department (choice)frustration (score)',
    );
    expect(within(dialog).getByTestId('sessions.sharePreviewRuns')).toHaveTextContent(
      /^2 runs, whose answers are shown/,
    );
    expect(names()).toEqual([]);
    await user.click(within(dialog).getByTestId('sessions.shareImport'));
    await waitFor(() => expect(names()).toEqual(['From a colleague']));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bench.content()?.runs.every((r) => r.replayed)).toBe(true);
  });

  it('says why a damaged share link cannot be opened', async () => {
    await renderSidebar({ hash: '#share=v1.abc%%' });
    expect(screen.getByTestId('sessions.sharePreviewError')).toHaveTextContent(/This share link is damaged/);
  });

  it('shows a full disk with the way out', async () => {
    await renderSidebar();
    act(() =>
      store.setState({
        save: {
          state: 'failed',
          quota: true,
          message: 'The browser refused to store more: its storage for this site is full.',
        },
      }),
    );
    expect(screen.getByTestId('sessions.saveStatus')).toHaveTextContent(/storage for this site is full/);
    const user = userEvent.setup();
    await user.click(screen.getByTestId('sessions.exportUnsaved'));
    expect(files.downloadText).toHaveBeenCalledTimes(1);
  });
});
