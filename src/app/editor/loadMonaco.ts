// Loads Monaco (JSON language only) once, with its workers bundled by Vite, and owns the global providers that
// dispatch to each mounted editor. Side effects: sets self.MonacoEnvironment, registers providers on first load.
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import type * as MonacoApi from 'monaco-editor/editor/editor.api';
import type * as JsonContribution from 'monaco-editor/language/json/monaco.contribution';
import type { CompletionSource, EditorMarker } from './types';

export type Monaco = typeof MonacoApi;

/** What a mounted editor contributes to the shared providers, looked up by its model URI. */
export interface EditorHooks {
  completions?: CompletionSource;
  markers: readonly EditorMarker[];
  schema?: Record<string, unknown>;
}

const hooks = new Map<string, EditorHooks>();
let loading: Promise<Monaco> | null = null;

/** The model URI of a document: also what its JSON Schema is matched against. */
export const documentUri = (documentId: string): string => `inmemory://workbench/${documentId}.json`;

function configureSchemas(monaco: Monaco, json: typeof JsonContribution): void {
  const schemas = [...hooks.entries()]
    .filter(([, h]) => h.schema)
    .map(([uri, h]) => ({ uri: `${uri}#schema`, fileMatch: [uri], schema: h.schema }));
  json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    comments: 'error',
    trailingCommas: 'error',
    enableSchemaRequest: false,
    schemaValidation: 'error',
    schemas,
  });
  void monaco;
}

let refreshSchemas: () => void = () => {};

/** Registers (or updates) a mounted editor's hooks; returns the function that unregisters it. */
export function registerHooks(uri: string, next: EditorHooks): () => void {
  const schemaChanged = hooks.get(uri)?.schema !== next.schema;
  hooks.set(uri, next);
  if (schemaChanged) refreshSchemas();
  return () => {
    hooks.delete(uri);
    refreshSchemas();
  };
}

const severityOf = (monaco: Monaco, s: EditorMarker['severity']): number =>
  s === 'error'
    ? monaco.MarkerSeverity.Error
    : s === 'warning'
      ? monaco.MarkerSeverity.Warning
      : monaco.MarkerSeverity.Info;

/** The Monaco marker data for one adapter marker. */
export function toMonacoMarker(monaco: Monaco, m: EditorMarker): MonacoApi.editor.IMarkerData {
  return {
    severity: severityOf(monaco, m.severity),
    message: m.message,
    source: m.source,
    startLineNumber: m.span.start.line,
    startColumn: m.span.start.column,
    endLineNumber: m.span.end.line,
    endColumn: Math.max(
      m.span.end.column,
      m.span.start.line === m.span.end.line ? m.span.start.column + 1 : 1,
    ),
  };
}

type TextModel = MonacoApi.editor.ITextModel;

/** The completions the mounted editor of `model` offers at `position`, as Monaco suggestions. */
function completionItems(monaco: Monaco, model: TextModel, position: MonacoApi.Position) {
  const source = hooks.get(model.uri.toString())?.completions;
  if (!source) return { suggestions: [] };
  const text = model.getValue();
  const offset = model.getOffsetAt(position);
  const word = model.getWordUntilPosition(position);
  const wordRange = new monaco.Range(
    position.lineNumber,
    word.startColumn,
    position.lineNumber,
    word.endColumn,
  );
  const kinds = {
    field: monaco.languages.CompletionItemKind.Field,
    snippet: monaco.languages.CompletionItemKind.Snippet,
    value: monaco.languages.CompletionItemKind.Value,
  };
  const suggestions = source(text, offset).map((c) => {
    const range = c.replace
      ? monaco.Range.fromPositions(
          model.getPositionAt(c.replace.offset),
          model.getPositionAt(c.replace.offset + c.replace.length),
        )
      : wordRange;
    return {
      label: c.label,
      kind: kinds[c.kind],
      insertText: c.insertText,
      insertTextRules: c.snippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
      detail: c.detail,
      documentation: c.documentation,
      // Filter on the label so a snippet shows while the user types its kind ("cho" finds the choice question).
      filterText: c.label,
      sortText: `0_${c.label}`,
      range,
    };
  });
  return { suggestions };
}

/** The quick fixes of the markers that touch `range`, each replacing the whole text with the fix's result. */
function quickFixes(monaco: Monaco, model: TextModel, range: MonacoApi.Range) {
  const markers = hooks.get(model.uri.toString())?.markers ?? [];
  const text = model.getValue();
  const actions = markers
    .filter((m) => m.fixes?.length)
    .filter((m) => {
      const r = new monaco.Range(m.span.start.line, m.span.start.column, m.span.end.line, m.span.end.column);
      return monaco.Range.areIntersectingOrTouching(r, range);
    })
    .flatMap((m) =>
      (m.fixes ?? []).map((fix) => {
        const after = fix.apply(text);
        return {
          title: fix.title,
          kind: 'quickfix',
          isPreferred: true,
          diagnostics: [toMonacoMarker(monaco, m)],
          edit: {
            edits: [
              {
                resource: model.uri,
                versionId: model.getVersionId(),
                textEdit: { range: model.getFullModelRange(), text: after },
              },
            ],
          },
        };
      }),
    );
  return { actions, dispose: () => {} };
}

/** The JSON providers that dispatch to the mounted editors' hooks: completions and quick fixes. */
function registerProviders(monaco: Monaco): void {
  monaco.languages.registerCompletionItemProvider('json', {
    triggerCharacters: ['`', '"'],
    provideCompletionItems: (model, position) => completionItems(monaco, model, position),
  });
  monaco.languages.registerCodeActionProvider('json', {
    provideCodeActions: (model, range) => quickFixes(monaco, model, range),
  });
}

/** Loads Monaco and the JSON language once; later calls share the same promise. */
export function loadMonaco(): Promise<Monaco> {
  loading ??= (async () => {
    self.MonacoEnvironment = {
      getWorker: (_workerId: string, label: string) =>
        label === 'json' ? new JsonWorker() : new EditorWorker(),
    };
    const monaco = await import('monaco-editor/editor/editor.api');
    // NOTE: editor.api alone has no find, hover, suggest or quick-fix contributions, and one registered after the
    // first editor has fixed its services fails with "depends on UNKNOWN service": register the ones the editors use
    // (only those: see monacoFeatures.ts) before any editor exists.
    await import('./monacoFeatures');
    const json = await import('monaco-editor/language/json/monaco.contribution');
    refreshSchemas = () => configureSchemas(monaco, json);
    refreshSchemas();
    registerProviders(monaco);
    monaco.editor.defineTheme('workbench', {
      base: 'vs',
      inherit: true,
      rules: [
        { token: 'string.key.json', foreground: '1f4e79' },
        { token: 'string.value.json', foreground: '3b6b2f' },
        { token: 'number', foreground: '8a4b08' },
      ],
      colors: {
        'editor.background': '#fbfbfa',
        'editorLineNumber.foreground': '#a3a8b0',
        'editorLineNumber.activeForeground': '#4b5563',
        'editor.lineHighlightBackground': '#f2f3f1',
      },
    });
    monaco.editor.defineTheme('workbench-dark', {
      base: 'vs-dark',
      inherit: true,
      rules: [
        { token: 'string.key.json', foreground: '9cc4ff' },
        { token: 'string.value.json', foreground: 'a5d6a7' },
        { token: 'number', foreground: 'f2c46b' },
      ],
      colors: {
        'editor.background': '#161b22',
        'editorLineNumber.foreground': '#6b7686',
        'editorLineNumber.activeForeground': '#c5ced9',
        'editor.lineHighlightBackground': '#1e252e',
      },
    });
    return monaco;
  })();
  return loading;
}

/** The editor theme for the page's theme (html's data-theme, set by the shell). */
export const editorThemeName = (): string =>
  typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark'
    ? 'workbench-dark'
    : 'workbench';
