// The editor adapter: the only way the app reaches Monaco.
export { CodeEditor, EditorEngineProvider } from './CodeEditor';
export type { EditorEngine } from './CodeEditor';
export { minimalEdit } from './textEdit';
export type * from './types';
