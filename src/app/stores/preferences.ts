// This browser's display choices: the local-only note hidden, the theme. Read once at start, saved on every change.
import { create } from 'zustand';
import { readPreference, writePreference } from '../persistence/preferences';
import type { ThemeChoice } from '../persistence/preferences';

export type { ThemeChoice };

export interface PreferencesState {
  noteHidden: boolean;
  theme: ThemeChoice;
  setNoteHidden: (hidden: boolean) => void;
  setTheme: (theme: ThemeChoice) => void;
}

/** The preferences store; actions write through to this browser's storage. */
export const usePreferences = create<PreferencesState>()((set) => ({
  noteHidden: readPreference('noteHidden', false),
  theme: readPreference('theme', 'system'),
  setNoteHidden: (noteHidden) => {
    writePreference('noteHidden', noteHidden);
    set({ noteHidden });
  },
  setTheme: (theme) => {
    writePreference('theme', theme);
    set({ theme });
  },
}));
