// The keyboard shortcuts, listed in one place in the top bar (a disclosure: Enter opens it, Escape or Enter closes).
import { TAB_MODE_KEY } from '../../editor/CodeEditor';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl';

const KEYS: readonly [string, string][] = [
  [`${MOD}+Enter`, 'Run (in compare mode: run every column)'],
  ['Tab in a JSON editor', 'Indents'],
  [`${TAB_MODE_KEY}, then Tab`, 'Leaves the editor (press again to indent with Tab)'],
  [`${MOD}+Shift+E`, 'Compare mode: fold or show the editors'],
  ['Arrow keys', 'Move between the options of a switch, and in a session’s ⋯ menu'],
  ['Escape', 'Closes a dialog or a menu; focus goes back to what opened it'],
  ['1, 2, 3… or Y, N', 'Labelling rows: gives the label shown beside that key on the card'],
  ['S', 'Labelling rows: skips the row'],
  ['Backspace', 'Labelling rows: undoes the last label or skip'],
];

/** "Keyboard shortcuts": the list of them (not API keys, which live only in the workbench server). */
export function KeyboardHelp() {
  return (
    <details
      className="keyboard-help"
      data-testid="shell.keys"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && e.currentTarget.open) {
          e.currentTarget.open = false;
          e.currentTarget.querySelector('summary')?.focus();
        }
      }}
    >
      {/* Narrow windows show "Shortcuts"; the name read out stays "Keyboard shortcuts". */}
      <summary aria-label="Keyboard shortcuts">
        <span className="top-bar__long">Keyboard shortcuts</span>
        <span className="top-bar__short" aria-hidden="true">
          Shortcuts
        </span>
      </summary>
      <dl className="keyboard-help__list">
        {KEYS.map(([key, what]) => (
          <div key={key} style={{ display: 'contents' }}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
