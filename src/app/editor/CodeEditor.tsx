// The code editor the app uses: a textarea at once, Monaco when its chunk has loaded (never in the first chunk).
import { Suspense, createContext, lazy, useContext, useRef } from 'react';
import type { HandOver } from './MonacoEditor';
import { TextareaEditor } from './TextareaEditor';
import type { CodeEditorProps } from './types';

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
  return (
    <div className="code-editor" data-testid={`editor.${props.documentId}`}>
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
