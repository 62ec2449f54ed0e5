// The sidebar's files: import a file of sessions (read through the store, which says what it could not take) and
// export them all.
import { useRef } from 'react';
import type { ChangeEvent } from 'react';
import type { SessionsStore } from '../../stores/sessions';
import { readFileText } from './browserFiles';

export interface SessionFilesProps {
  store: SessionsStore;
  onExport: (ids: 'all') => Promise<void>;
}

export function SessionFiles({ store, onExport }: SessionFilesProps) {
  const count = store((s) => s.list.length);
  const fileInput = useRef<HTMLInputElement>(null);
  const onPickFile = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = event.target.files?.[0];
    event.target.value = ''; // picking the same file again must fire change again
    if (file) await store.getState().importText(await readFileText(file));
  };
  return (
    <div className="sessions-files">
      <button type="button" onClick={() => fileInput.current?.click()} data-testid="sessions.import">
        Import…
      </button>
      <button
        type="button"
        onClick={() => void onExport('all')}
        disabled={count === 0}
        data-testid="sessions.exportAll"
      >
        Export all
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        hidden
        onChange={(e) => void onPickFile(e)}
        data-testid="sessions.importInput"
      />
    </div>
  );
}
