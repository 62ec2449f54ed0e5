// The theme switch of the top bar: system, light or dark, remembered in this browser.
import { usePreferences } from '../../stores/preferences';
import { ThemeChoice } from '../../persistence/preferences';

const LABELS: Record<ThemeChoice, string> = { system: 'System theme', light: 'Light', dark: 'Dark' };

/** A labelled native select: keyboard and screen readers for free. */
export function ThemeSwitch() {
  const theme = usePreferences((s) => s.theme);
  const setTheme = usePreferences((s) => s.setTheme);
  return (
    <label className="theme-switch">
      <span className="visually-hidden">Theme</span>
      <select
        value={theme}
        onChange={(e) => setTheme(ThemeChoice.parse(e.target.value))}
        data-testid="shell.theme"
      >
        {ThemeChoice.options.map((t) => (
          <option key={t} value={t}>
            {LABELS[t]}
          </option>
        ))}
      </select>
    </label>
  );
}
