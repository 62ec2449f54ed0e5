// The editor features the two editors use, through Monaco's own per-feature entry points, registered before any editor
// exists (one registered after the first editor fails with "depends on UNKNOWN service"). Monaco's
// `features/register.all` adds about 40 more (diff editor, colour picker, code lens, inlay hints, sticky scroll,
// quick access, links...) that a JSON rubric and a plain-text state never show. Each line says what a user does with it.
import 'monaco-editor/features/codicon/register'; // the icons of the suggest list, quick fixes and find widget
import 'monaco-editor/features/codeEditor/register';
import 'monaco-editor/features/bracketMatching/register'; // matching bracket highlight, Ctrl+Shift+\
import 'monaco-editor/features/caretOperations/register';
import 'monaco-editor/features/clipboard/register'; // cut, copy and paste commands and menu entries
import 'monaco-editor/features/codeAction/register'; // quick fixes (Ctrl+.) for the lint findings
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register'; // right-click menu
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register'; // Ctrl+F, Ctrl+H
import 'monaco-editor/features/folding/register'; // fold a question
import 'monaco-editor/features/format/register'; // Shift+Alt+F formats the JSON
import 'monaco-editor/features/gotoError/register'; // F8: next problem
import 'monaco-editor/features/gotoLine/register'; // Ctrl+G: go to line and column
import 'monaco-editor/features/hover/register'; // schema docs and problem messages on hover
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register'; // move, copy and delete lines
import 'monaco-editor/features/multicursor/register'; // Ctrl+D, Alt+click
import 'monaco-editor/features/placeholderText/register';
import 'monaco-editor/features/readOnlyMessage/register';
import 'monaco-editor/features/smartSelect/register'; // Shift+Alt+Right grows the selection
import 'monaco-editor/features/snippet/register'; // question snippets from completion
import 'monaco-editor/editor/contrib/suggest/browser/suggestController'; // Ctrl+Space: types, state fields, labels
import 'monaco-editor/features/toggleTabFocusMode/register'; // Ctrl+M: Tab moves focus out of the editor
import 'monaco-editor/features/tokenization/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/wordOperations/register'; // Ctrl+Backspace and friends
