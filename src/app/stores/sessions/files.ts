// Sessions in and out: export as a file, import a file, share as a link (or a file when too long), and a share link
// opened with the page, imported on confirm.
import { newId } from '../../../core/ids';
import { describeProblem, exportFile, exportFileName, parseImportFile } from '../../../core/sessionFile';
import { decodeShareFragment, encodeShareLink, sessionFromShared } from '../../../core/shareLink';
import { plural } from '../../../core/words';
import type { Session } from '../../../core/session';
import { describeStorageError } from '../../persistence/storageErrors';
import type { SessionsEngine } from './engine';
import type { SessionsKit } from './kit';
import type { SessionsState } from './types';

/** Sessions out as a file, and in from one: every session read or refused with its reason, a taken id copied. */
function fileInOut(
  { get, live, announce }: SessionsKit,
  { notify, upsertSummary, current, show }: SessionsEngine,
): Pick<SessionsState, 'exportSessions' | 'exportUnsaved' | 'importText'> {
  return {
    async exportSessions(ids) {
      await live.autosave?.flush();
      const wanted = ids === 'all' ? get().list.map((s) => s.id) : ids;
      const sessions: Session[] = [];
      for (const id of wanted) {
        const session = await current(id).catch(() => undefined);
        if (session) sessions.push(session);
      }
      if (sessions.length === 0) {
        notify('error', 'There is no session to export.');
        return null;
      }
      return { fileName: exportFileName(sessions), text: exportFile(sessions) };
    },

    exportUnsaved() {
      const unsaved = live.autosave?.unsaved() ?? [];
      const open = get().open;
      const sessions = unsaved.length > 0 ? unsaved : open ? [open] : [];
      if (sessions.length === 0) return null;
      return { fileName: exportFileName(sessions), text: exportFile(sessions) };
    },

    async importText(text) {
      const parsed = parseImportFile(text);
      if (!parsed.ok) {
        notify('error', `Nothing was imported. ${parsed.message}`);
        return;
      }
      if (!live.repo) {
        notify('error', get().unavailableMessage ?? 'Sessions cannot be stored in this browser.');
        return;
      }
      let result;
      try {
        result = await live.repo.importSessions(parsed.sessions);
      } catch (error) {
        notify('error', `Nothing was imported: ${describeStorageError(error)}`);
        return;
      }
      for (const session of result.sessions) upsertSummary(session);
      announce();
      const parts = [`Imported ${plural(result.sessions.length, 'session')}`];
      if (result.copies > 0)
        parts.push(`${result.copies} as ${result.copies === 1 ? 'a copy' : 'copies'} (the id was taken)`);
      let message = `${parts.join(', ')}.`;
      if (parsed.problems.length > 0) {
        const first = parsed.problems[0]!;
        message += ` ${plural(parsed.problems.length, 'session')} could not be read: ${describeProblem(first)}: ${first.message}`;
      }
      notify(parsed.problems.length > 0 ? 'error' : 'info', message);
      const firstImported = result.sessions[0];
      if (firstImported) {
        await live.autosave?.flush();
        await show(firstImported);
      }
    },
  };
}

/** Share links: a session out as a link (or a file when too long), and one opened with the page, imported on confirm. */
function shareActions(
  { set, get, live, announce }: SessionsKit,
  { notify, upsertSummary, current, show, createAndShow, templateDoc }: SessionsEngine,
): Pick<SessionsState, 'receiveHash' | 'share' | 'acceptShare' | 'dismissShare'> {
  return {
    receiveHash(hash) {
      const decoded = decodeShareFragment(hash);
      if (decoded) set({ incomingShare: decoded });
    },

    async share(id, includeRuns) {
      await live.autosave?.flush();
      const session = await current(id);
      if (!session) return null;
      const pageUrl = (): string =>
        live.options?.pageUrl ?? (typeof location !== 'undefined' ? location.href : 'http://localhost/');
      const link = encodeShareLink(session, { pageUrl: pageUrl(), includeRuns });
      if (link.ok)
        return {
          kind: 'link',
          url: link.url,
          ...(link.labelsLeftOut && { labelsLeftOut: link.labelsLeftOut }),
        };
      const bare =
        includeRuns && session.runs.length > 0
          ? encodeShareLink(session, { pageUrl: pageUrl(), includeRuns: false })
          : null;
      return {
        kind: 'file',
        file: { fileName: exportFileName([session]), text: exportFile([session]) },
        reason: link.reason,
        length: link.length,
        ...(bare && { withoutRuns: { length: bare.length, fits: bare.ok } }),
      };
    },

    async acceptShare() {
      const incoming = get().incomingShare;
      if (!incoming?.ok) return;
      const session = sessionFromShared(incoming.shared, newId());
      set({ incomingShare: null });
      live.options?.clearHash?.();
      if (live.repo) {
        try {
          await live.repo.importSessions([session]);
          announce(session.id);
        } catch (error) {
          notify(
            'error',
            `The shared session is open but could not be saved: ${describeStorageError(error)}`,
          );
        }
      }
      await live.autosave?.flush();
      upsertSummary(session);
      await show(session);
      const runs = session.runs.length;
      notify(
        'info',
        `Imported the shared session “${session.name}”${runs > 0 ? ` with ${plural(runs, 'stored run')} (shown as sent, not run again)` : ''}.`,
      );
    },

    async dismissShare() {
      set({ incomingShare: null });
      live.options?.clearHash?.();
      if (!get().open) await createAndShow(await templateDoc(), 'Example session');
    },
  };
}

/** Every action that takes sessions in and out. */
export function fileActions(kit: SessionsKit, engine: SessionsEngine) {
  return { ...fileInOut(kit, engine), ...shareActions(kit, engine) };
}
