// The Monaco-backed editor behind the adapter props. Loaded lazily by CodeEditor: nothing else imports this file.
import { useEffect, useRef } from 'react';
import type { editor as MonacoEditorNs } from 'monaco-editor/editor/editor.api';
import { documentUri, editorThemeName, loadMonaco, registerHooks, toMonacoMarker } from './loadMonaco';
import type { Monaco } from './loadMonaco';
import { minimalEdit } from './textEdit';
import type { CodeEditorProps } from './types';

/** Where the fallback textarea's caret was, so the swap to Monaco does not lose the user's place. */
export interface HandOver {
  focused: boolean;
  selectionStart: number;
  selectionEnd: number;
}

const MARKER_OWNER = 'workbench';

// Monaco is resolved before this module renders (CodeEditor awaits loadMonaco() in its lazy import).
let monacoApi: Monaco | null = null;
export const ready = loadMonaco().then((m) => {
  monacoApi = m;
});

export default function MonacoEditor(props: CodeEditorProps & { handOver?: () => HandOver | undefined }) {
  const {
    documentId,
    value,
    onChange,
    language,
    schema,
    markers,
    completions,
    onRun,
    ariaLabel,
    reveal,
    handOver,
  } = props;
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<MonacoEditorNs.IStandaloneCodeEditor | null>(null);
  const decorations = useRef<MonacoEditorNs.IEditorDecorationsCollection | null>(null);
  // Latest callbacks, read by listeners registered once.
  const latest = useRef({ onChange, onRun });
  latest.current = { onChange, onRun };
  const applyingExternal = useRef(false);
  const uri = documentUri(documentId);

  useEffect(() => {
    const monaco = monacoApi!;
    const modelUri = monaco.Uri.parse(uri);
    monaco.editor.getModel(modelUri)?.dispose();
    const model = monaco.editor.createModel(value, language, modelUri);
    const editor = monaco.editor.create(host.current!, {
      model,
      theme: editorThemeName(),
      ariaLabel,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 20,
      fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Code', Menlo, Consolas, monospace",
      scrollBeyondLastLine: false,
      tabSize: 2,
      wordWrap: language === 'plaintext' ? 'on' : 'off',
      // Plain text has nothing to indent: Tab moves focus on, so a keyboard user is never trapped (Ctrl+M toggles).
      tabFocusMode: language === 'plaintext',
      lineNumbersMinChars: 3,
      renderLineHighlight: 'line',
      fixedOverflowWidgets: true,
      quickSuggestions: { strings: true, other: true, comments: false },
      glyphMargin: false,
      padding: { top: 8, bottom: 8 },
    });
    editorRef.current = editor;
    decorations.current = editor.createDecorationsCollection();
    editor.addAction({
      id: 'workbench.run',
      label: 'Run the request',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => latest.current.onRun?.(),
    });
    const sub = model.onDidChangeContent(() => {
      if (!applyingExternal.current) latest.current.onChange(model.getValue());
    });
    const place = handOver?.();
    if (place?.focused) {
      const start = model.getPositionAt(place.selectionStart);
      const end = model.getPositionAt(place.selectionEnd);
      editor.setSelection(monaco.Selection.fromPositions(start, end));
      editor.focus();
    }
    return () => {
      sub.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = null;
    };
    // The editor is created once per document; value, language and callbacks are synced by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uri]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getLanguageId() !== language) monacoApi!.editor.setModelLanguage(model, language);
    editorRef.current?.updateOptions({
      wordWrap: language === 'plaintext' ? 'on' : 'off',
      tabFocusMode: language === 'plaintext',
      ariaLabel,
    });
  }, [language, ariaLabel]);

  // An outside change (the form, a quick fix from the list, a restored session) arrives as one undoable edit.
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    const edit = minimalEdit(model.getValue(), value);
    if (!edit) return;
    const monaco = monacoApi!;
    const range = monaco.Range.fromPositions(
      model.getPositionAt(edit.offset),
      model.getPositionAt(edit.offset + edit.length),
    );
    applyingExternal.current = true;
    try {
      editor.pushUndoStop();
      editor.executeEdits('workbench', [{ range, text: edit.content, forceMoveMarkers: true }]);
      editor.pushUndoStop();
    } finally {
      applyingExternal.current = false;
    }
  }, [value]);

  // Follows the page's theme: the shell switches html's data-theme (Monaco's theme is global, so this is idempotent).
  useEffect(() => {
    const observer = new MutationObserver(() => monacoApi!.editor.setTheme(editorThemeName()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);

  useEffect(
    () => registerHooks(uri, { completions, markers: markers ?? [], schema }),
    [uri, completions, markers, schema],
  );

  useEffect(() => {
    const monaco = monacoApi!;
    const model = editorRef.current?.getModel();
    if (!model) return;
    const list = markers ?? [];
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      list.map((m) => toMonacoMarker(monaco, m)),
    );
    // A mark in the line-number gutter too, so an error's line is visible without scrolling sideways.
    decorations.current?.set(
      list.map((m) => ({
        range: new monaco.Range(m.span.start.line, 1, m.span.start.line, 1),
        options: { linesDecorationsClassName: `wb-line-marker wb-line-marker--${m.severity}` },
      })),
    );
  }, [markers, value]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || !reveal) return;
    const position = model.getPositionAt(reveal.offset);
    editor.setPosition(position);
    editor.revealPositionInCenterIfOutsideViewport(position);
    editor.focus();
  }, [reveal]);

  return <div ref={host} className="code-editor__monaco" data-testid={`editor.monaco.${documentId}`} />;
}
