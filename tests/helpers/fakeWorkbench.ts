// A stand-in for the main screen's store in sessions tests: holds a session's content and reports changes, the way
// the workbench binding does, so the sessions store can be exercised without the editors.
import { createStore } from 'zustand/vanilla';
import type { Session } from '../../src/core/session';
import type { SessionContent, WorkbenchBinding } from '../../src/app/stores/sessions';

export interface FakeWorkbench extends WorkbenchBinding {
  content: () => SessionContent | null;
  edit: (change: Partial<SessionContent['doc']>) => void;
  addRun: (run: Session['runs'][number]) => void;
  loads: number;
}

export function fakeWorkbench(): FakeWorkbench {
  const store = createStore<{ content: SessionContent | null }>(() => ({ content: null }));
  const bench: FakeWorkbench = {
    loads: 0,
    content: () => store.getState().content,
    load(session) {
      bench.loads += 1;
      store.setState({ content: { doc: session.doc, runs: session.runs } });
    },
    subscribe(onChange) {
      return store.subscribe((state) => {
        if (state.content) onChange(state.content);
      });
    },
    edit(change) {
      const content = store.getState().content!;
      store.setState({ content: { ...content, doc: { ...content.doc, ...change } } });
    },
    addRun(run) {
      const content = store.getState().content!;
      store.setState({ content: { ...content, runs: [...content.runs, run] } });
    },
  };
  return bench;
}
