// Types for Monaco 0.57 entry points that ship without their own declarations.
declare module 'monaco-editor/language/json/monaco.contribution' {
  export { jsonDefaults, getWorker } from 'monaco-editor/languages/features/json/register';
}
