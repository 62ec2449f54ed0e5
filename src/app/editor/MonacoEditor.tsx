// The Monaco-backed editor behind the adapter props. Loaded lazily by CodeEditor: nothing else imports this file.
import { useEffect, useRef } from 'react';
import type { MutableRefObject, RefObject } from 'react';
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

type EditorRef = MutableRefObject<MonacoEditorNs.IStandaloneCodeEditor | null>;
type DecorationsRef = MutableRefObject<MonacoEditorNs.IEditorDecorationsCollection | null>;

/** The editor's options apart from its model, theme, label and the ones its language sets. */
const EDITOR_OPTIONS: MonacoEditorNs.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  fontSize: 13,
  lineHeight: 20,
  fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Code', Menlo, Consolas, monospace",
  scrollBeyondLastLine: false,
  tabSize: 2,
  lineNumbersMinChars: 3,
  renderLineHighlight: 'line',
  fixedOverflowWidgets: true,
  quickSuggestions: { strings: true, other: true, comments: false },
  glyphMargin: false,
  padding: { top: 8, bottom: 8 },
};

/** The options a language sets: plain text wraps, and Tab moves focus on there. */
const languageOptions = (language: string) => ({
  wordWrap: language === 'plaintext' ? ('on' as const) : ('off' as const),
  // Plain text has nothing to indent: Tab moves focus on, so a keyboard user is never trapped (Ctrl+M toggles).
  tabFocusMode: language === 'plaintext',
});

interface Creation {
  host: RefObject<HTMLDivElement | null>;
  uri: string;
  value: string;
  language: string;
  ariaLabel: string | undefined;
  latest: MutableRefObject<Pick<CodeEditorProps, 'onChange' | 'onRun'>>;
  applyingExternal: MutableRefObject<boolean>;
  handOver: (() => HandOver | undefined) | undefined;
}

/** Puts the fallback textarea's caret and focus into the editor, where the user left them. */
function takeOver(monaco: Monaco, editor: MonacoEditorNs.IStandaloneCodeEditor, place: HandOver | undefined) {
  const model = editor.getModel();
  if (!place?.focused || !model) return;
  const start = model.getPositionAt(place.selectionStart);
  const end = model.getPositionAt(place.selectionEnd);
  editor.setSelection(monaco.Selection.fromPositions(start, end));
  editor.focus();
}

/** Creates the editor and its model once per document, with Run on Ctrl/Cmd+Enter and edits reported. */
function useEditorInstance(c: Creation): { editorRef: EditorRef; decorations: DecorationsRef } {
  const editorRef = useRef<MonacoEditorNs.IStandaloneCodeEditor | null>(null);
  const decorations = useRef<MonacoEditorNs.IEditorDecorationsCollection | null>(null);
  useEffect(() => {
    const monaco = monacoApi!;
    const modelUri = monaco.Uri.parse(c.uri);
    monaco.editor.getModel(modelUri)?.dispose();
    const model = monaco.editor.createModel(c.value, c.language, modelUri);
    const editor = monaco.editor.create(c.host.current!, {
      model,
      theme: editorThemeName(),
      ariaLabel: c.ariaLabel,
      ...EDITOR_OPTIONS,
      ...languageOptions(c.language),
    });
    editorRef.current = editor;
    decorations.current = editor.createDecorationsCollection();
    editor.addAction({
      id: 'workbench.run',
      label: 'Run the request',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => c.latest.current.onRun?.(),
    });
    const sub = model.onDidChangeContent(() => {
      if (!c.applyingExternal.current) c.latest.current.onChange(model.getValue());
    });
    takeOver(monaco, editor, c.handOver?.());
    return () => {
      sub.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = null;
    };
    // The editor is created once per document; value, language and callbacks are synced by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [c.uri]);
  return { editorRef, decorations };
}

/** Keeps the model's language and the editor's language options and label in step with the props. */
function useLanguageSync(editorRef: EditorRef, language: string, ariaLabel: string | undefined) {
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getLanguageId() !== language) monacoApi!.editor.setModelLanguage(model, language);
    editorRef.current?.updateOptions({ ...languageOptions(language), ariaLabel });
  }, [language, ariaLabel, editorRef]);
}

/** An outside change (the form, a quick fix from the list, a restored session) arrives as one undoable edit. */
function useExternalValue(editorRef: EditorRef, value: string, applyingExternal: MutableRefObject<boolean>) {
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
  }, [value, editorRef, applyingExternal]);
}

/** Follows the page's theme: the shell switches html's data-theme (Monaco's theme is global, so this is idempotent). */
function useThemeFollow() {
  useEffect(() => {
    const observer = new MutationObserver(() => monacoApi!.editor.setTheme(editorThemeName()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
}

/** The markers in the text and, for each, a mark in the line-number gutter. */
function useMarkers(
  editorRef: EditorRef,
  decorations: DecorationsRef,
  markers: CodeEditorProps['markers'],
  value: string,
) {
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
  }, [markers, value, editorRef, decorations]);
}

/** Moves the caret to a revealed offset, scrolls it into view and focuses the editor. */
function useReveal(editorRef: EditorRef, reveal: CodeEditorProps['reveal']) {
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || !reveal) return;
    const position = model.getPositionAt(reveal.offset);
    editor.setPosition(position);
    editor.revealPositionInCenterIfOutsideViewport(position);
    editor.focus();
  }, [reveal, editorRef]);
}

export default function MonacoEditor(props: CodeEditorProps & { handOver?: () => HandOver | undefined }) {
  const { documentId, value, onChange, language, schema, markers, completions, onRun, ariaLabel, reveal } =
    props;
  const host = useRef<HTMLDivElement>(null);
  // Latest callbacks, read by listeners registered once.
  const latest = useRef({ onChange, onRun });
  latest.current = { onChange, onRun };
  const applyingExternal = useRef(false);
  const uri = documentUri(documentId);
  const { handOver } = props;
  const creation = { host, uri, value, language, ariaLabel, latest, applyingExternal, handOver };
  const { editorRef, decorations } = useEditorInstance(creation);
  useLanguageSync(editorRef, language, ariaLabel);
  useExternalValue(editorRef, value, applyingExternal);
  useThemeFollow();
  useEffect(
    () => registerHooks(uri, { completions, markers: markers ?? [], schema }),
    [uri, completions, markers, schema],
  );
  useMarkers(editorRef, decorations, markers, value);
  useReveal(editorRef, reveal);
  return <div ref={host} className="code-editor__monaco" data-testid={`editor.monaco.${documentId}`} />;
}
