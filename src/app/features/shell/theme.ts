// Applies the theme: the top bar's choice, or the system's (prefers-color-scheme) while the choice is "system". The
// resolved theme is html's data-theme, which the CSS tokens, the charts and the editor read.
import { useEffect, useState } from 'react';
import { usePreferences } from '../../stores/preferences';
import type { ThemeChoice } from '../../stores/preferences';

export type Theme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme a choice gives, with the system's preference. */
export const resolveTheme = (choice: ThemeChoice, systemDark: boolean): Theme =>
  choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;

function useSystemDark(): boolean {
  const [media] = useState(() =>
    typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(DARK_QUERY) : null,
  );
  const [dark, setDark] = useState(media?.matches ?? false);
  useEffect(() => {
    if (!media) return;
    const onChange = (e: MediaQueryListEvent): void => setDark(e.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [media]);
  return dark;
}

/** Keeps html's data-theme in step with the choice and the system; returns the resolved theme. */
export function useAppliedTheme(): Theme {
  const choice = usePreferences((s) => s.theme);
  const theme = resolveTheme(choice, useSystemDark());
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return theme;
}
