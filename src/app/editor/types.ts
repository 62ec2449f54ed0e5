// The editor adapter's props: plain data, so the rest of the app never sees Monaco and tests can use the fallback.
import type { TextCompletion } from '../../core/completions';
import type { TextSpan } from '../../core/locate';

export type MarkerSeverity = 'error' | 'warning' | 'info';

/** A replacement of `length` characters at `offset` by `content`. */
export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

/** A quick fix offered on a marker: a title for the menu and the whole text it produces. */
export interface EditorFix {
  title: string;
  /** The text after the fix, computed from the text the marker was made for. */
  apply: (text: string) => string;
}

/** A squiggle in the editor, with its message and optional quick fixes. */
export interface EditorMarker {
  span: TextSpan;
  severity: MarkerSeverity;
  message: string;
  /** Shown after the message: 'contract', 'service', a lint rule id. */
  source: string;
  fixes?: EditorFix[];
}

/** Computes completions for a text and a cursor offset. */
export type CompletionSource = (text: string, offset: number) => TextCompletion[];

/** A request to move the cursor to an offset and show it; a new nonce repeats the same offset. */
export interface RevealRequest {
  offset: number;
  nonce: number;
}

/** What every editor implementation takes: Monaco, or the plain textarea used while Monaco loads and in tests. */
export interface CodeEditorProps {
  /** Stable id of the document, e.g. 'questions'; also the model's URI path and the test id suffix. */
  documentId: string;
  value: string;
  onChange: (value: string) => void;
  language: 'json' | 'plaintext';
  /** The JSON Schema that validates the text and drives completion and hovers (JSON only). */
  schema?: Record<string, unknown>;
  markers?: readonly EditorMarker[];
  completions?: CompletionSource;
  /** Ctrl/Cmd+Enter inside the editor. */
  onRun?: () => void;
  /** Accessible name of the text area. */
  ariaLabel: string;
  /** Id of an element that describes the editor (e.g. the syntax sentence). */
  describedBy?: string;
  reveal?: RevealRequest | null;
}
