// The code editor the app uses: a textarea at once, Monaco when its chunk has loaded (never in the first chunk).
import { Suspense, createContext, lazy, useContext, useRef } from 'react';
import type { HandOver } from './MonacoEditor';
import { TextareaEditor } from './TextareaEditor';
import type { CodeEditorProps } from './types';

/** Monaco's toggle of Tab between indenting and moving focus (Ctrl+Shift+M on a Mac). */
export const TAB_MODE_KEY =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? 'Ctrl+Shift+M' : 'Ctrl+M';

/** Which implementation editors use: Monaco in the app, the textarea in component tests. */
export type EditorEngine = 'monaco' | 'plain';
const EngineContext = createContext<EditorEngine>('monaco');
/** Provides the editor engine to a subtree (tests wrap their render in `<EditorEngineProvider value="plain">`). */
export const EditorEngineProvider = EngineContext.Provider;

const LazyMonaco = lazy(async () => {
  const module = await import('./MonacoEditor');
  await module.ready;
  return module;
});

/** A JSON or plain-text editor with markers, completions, quick fixes and Ctrl/Cmd+Enter. */
export function CodeEditor(props: CodeEditorProps) {
  const engine = useContext(EngineContext);
  const handOver = useRef<HandOver | undefined>(undefined);
  const fallback = <TextareaEditor {...props} onHandOver={(h) => (handOver.current = h)} />;
  // Monaco keeps Tab for indenting JSON; Ctrl+M (Monaco's tab focus mode) lets Tab move focus on instead.
  const hint =
    engine === 'monaco' && props.language !== 'plaintext'
      ? `Tab indents · ${TAB_MODE_KEY} then Tab: leave the editor`
      : 'Tab: leave the editor';
  return (
    <div className="code-editor" data-testid={`editor.${props.documentId}`}>
      {/* Shown while the editor has focus, so a keyboard user always sees the way out. */}
      <p className="code-editor__hint" data-testid={`editor.hint.${props.documentId}`}>
        {hint}
      </p>
      {engine === 'plain' ? (
        <TextareaEditor {...props} />
      ) : (
        <Suspense fallback={fallback}>
          <LazyMonaco {...props} handOver={() => handOver.current} />
        </Suspense>
      )}
    </div>
  );
}
