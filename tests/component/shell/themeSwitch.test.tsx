// The theme switch: follows the system until the user picks, applies at once (html's data-theme), and is remembered
// in this browser; a stored value that does not parse falls back to the system's theme.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ThemeSwitch } from '../../../src/app/features/shell/ThemeSwitch';
import { resolveTheme, useAppliedTheme } from '../../../src/app/features/shell/theme';
import { readPreference } from '../../../src/app/persistence/preferences';
import { usePreferences } from '../../../src/app/stores/preferences';

/** A controllable prefers-color-scheme: jsdom has no matchMedia. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<(e: MediaQueryListEvent) => void>();
  const media = {
    matches: dark,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, l: (e: MediaQueryListEvent) => void) => listeners.add(l),
    removeEventListener: (_: string, l: (e: MediaQueryListEvent) => void) => listeners.delete(l),
  };
  window.matchMedia = (() => media) as unknown as typeof window.matchMedia;
  return {
    set(next: boolean) {
      media.matches = next;
      act(() => listeners.forEach((l) => l({ matches: next } as MediaQueryListEvent)));
    },
  };
}

function Shell() {
  useAppliedTheme();
  return <ThemeSwitch />;
}

beforeEach(() => {
  localStorage.clear();
  usePreferences.setState({ theme: 'system' });
});
afterEach(() => {
  delete document.documentElement.dataset.theme;
});

it('follows the system theme until a choice is made, then keeps the choice', async () => {
  const system = fakeSystem(true);
  const user = userEvent.setup();
  render(<Shell />);
  expect(document.documentElement.dataset.theme).toBe('dark');
  system.set(false);
  expect(document.documentElement.dataset.theme).toBe('light');

  await user.selectOptions(screen.getByRole('combobox', { name: 'Theme' }), 'dark');
  expect(document.documentElement.dataset.theme).toBe('dark');
  // The system changing no longer matters, and the choice is saved for the next visit.
  system.set(false);
  expect(document.documentElement.dataset.theme).toBe('dark');
  expect(readPreference('theme', 'system')).toBe('dark');

  await user.selectOptions(screen.getByRole('combobox', { name: 'Theme' }), 'system');
  expect(document.documentElement.dataset.theme).toBe('light');
});

it('reads a damaged stored choice as the system default', () => {
  localStorage.setItem('evaluate-workbench.theme', '"purple"');
  expect(readPreference('theme', 'system')).toBe('system');
  localStorage.setItem('evaluate-workbench.theme', '{not json');
  expect(readPreference('theme', 'system')).toBe('system');
  expect(resolveTheme('system', true)).toBe('dark');
  expect(resolveTheme('light', true)).toBe('light');
});
