// Connects the sessions store to the rest of the app, once per page: the workbench store (load a session into it, save
// its changes), the layout store (kept in the meta table), and the address fragment (share links).
import { QueryClientContext } from '@tanstack/react-query';
import { useContext, useEffect } from 'react';
import { z } from 'zod';
import { appDb } from '../../persistence/db';
import { SessionsRepo } from '../../persistence/sessionsRepo';
import { exampleDoc } from '../../../core/example';
import { modelsQueryOptions, startingModel } from '../../queries/models';
import { defaultTarget, targetsQueryOptions } from '../../queries/targets';
import { openChannel } from '../../persistence/tabs';
import { useLayout } from '../../stores/layout';
import type { LayoutState } from '../../stores/layout';
import { SessionsMessageSchema, useSessions } from '../../stores/sessions';
import type { SessionsStore, WorkbenchBinding } from '../../stores/sessions';
import { useWorkbench } from '../../stores/workbench';

/** The binding between the sessions store and the main screen's store. */
export function workbenchBinding(): WorkbenchBinding {
  return {
    load: (session) => useWorkbench.getState().hydrate(session.doc, session.runs),
    subscribe: (onChange) =>
      useWorkbench.subscribe((state, previous) => {
        if (state.doc !== previous.doc || state.runs !== previous.runs)
          onChange({ doc: state.doc, runs: state.runs });
      }),
  };
}

const LAYOUT_KEY = 'layout';
const PanelSizesSchema = z.record(z.string(), z.number().min(0).max(100));
const SavedLayoutSchema = z.object({
  columns: PanelSizesSchema.optional(),
  editors: PanelSizesSchema.optional(),
  questionsView: z.enum(['json', 'form']).optional(),
});
/** Wait after the last drag of a pane divider before saving sizes. */
const LAYOUT_SAVE_DELAY_MS = 300;

/** Restores the saved layout, then saves it as it changes; returns the function that stops saving. */
export async function connectLayout(repo: SessionsRepo): Promise<() => void> {
  const saved = await repo.getMeta(LAYOUT_KEY, SavedLayoutSchema).catch(() => undefined);
  if (saved) useLayout.getState().hydrate(saved);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pick = (s: LayoutState) => ({
    columns: s.columns,
    editors: s.editors,
    questionsView: s.questionsView,
  });
  const unsubscribe = useLayout.subscribe((state) => {
    clearTimeout(timer);
    // Layout is a convenience: a failed write is not worth a message, the next change tries again.
    timer = setTimeout(
      () => void repo.setMeta(LAYOUT_KEY, pick(state)).catch(() => undefined),
      LAYOUT_SAVE_DELAY_MS,
    );
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

let started = false;

/** Starts the app's sessions: storage, the workbench and layout connections, share links. Runs once per page. */
export function startSessions(
  store: SessionsStore = useSessions,
  defaultTargetId: () => Promise<string> = async () => useWorkbench.getState().doc.targetId,
  defaultModel?: (targetId: string) => Promise<string | undefined>,
): void {
  if (started) return;
  started = true;
  const repo = new SessionsRepo(appDb());
  void store.getState().init({
    repo,
    binding: workbenchBinding(),
    hash: location.hash,
    pageUrl: location.href,
    // Drop the fragment without a new history entry, so Back does not offer the share again.
    clearHash: () => history.replaceState(history.state, '', `${location.pathname}${location.search}`),
    defaultTargetId,
    ...(defaultModel ? { defaultModel } : {}),
    channel: openChannel('evaluate-workbench:sessions', SessionsMessageSchema),
  });
  void connectLayout(repo);
  window.addEventListener('hashchange', () => store.getState().receiveHash(location.hash));
  // Another tab may have edited, added or deleted sessions while this one was in the background.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void store.getState().refresh();
  });
}

/** Starts the app's sessions when the component using it mounts (idempotent, so StrictMode's double mount is fine). */
export function useStartSessions(enabled: boolean): void {
  // Read without throwing: component tests mount the sidebar with a store of their own and no query client.
  const queryClient = useContext(QueryClientContext);
  useEffect(() => {
    if (enabled && queryClient)
      startSessions(
        useSessions,
        () =>
          queryClient
            .fetchQuery(targetsQueryOptions())
            .then((targets) => defaultTarget(targets)?.id ?? 'local'),
        (targetId) =>
          queryClient.fetchQuery(modelsQueryOptions(targetId)).then((list) =>
            startingModel(
              list.models.map((m) => m.name),
              exampleDoc().model,
            ),
          ),
      );
  }, [enabled, queryClient]);
}
