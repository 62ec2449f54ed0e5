// Exporting sessions from the sidebar: the store writes the file, the browser downloads it.
import { useCallback } from 'react';
import type { SessionsStore } from '../../stores/sessions';
import { downloadText } from './browserFiles';

/** Exports the sessions named (or all) as one file to download; stable for the memoised rows. */
export function useExportSessions(store: SessionsStore): (ids: string[] | 'all') => Promise<void> {
  return useCallback(
    async (ids: string[] | 'all'): Promise<void> => {
      const file = await store.getState().exportSessions(ids);
      if (file) downloadText(file.fileName, file.text);
    },
    [store],
  );
}
