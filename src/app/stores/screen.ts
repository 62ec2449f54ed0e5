// The screen on show (one state, rows from a file, alignment with labels, large taxonomy), kept in the address as `?screen=` so a reload
// during a rows run comes back to it. One state is the default and leaves the address clean.
import { z } from 'zod';
import { create } from 'zustand';
import { readAddressFragment, readAddressParam, writeAddressParam } from '../platform/address';

export const Screen = z.enum(['workbench', 'rows', 'alignment', 'taxonomy', 'workspace']);
export type Screen = z.infer<typeof Screen>;

const PARAM = 'screen';

/** The screen an address names; anything else is the workbench. */
export const screenFromParam = (value: string | null): Screen => Screen.catch('workbench').parse(value);

// NOTE: only the fragment's key is matched here (the workspace screen parses the token with zod): the contract's
// schemas stay out of the first chunk.
const WORKSPACE_LINK = /^#workspace-(owner|invite)=/;

/** The screen an address opens: a workspace link (owner or invite) opens the workspace, else `?screen=`. */
export const screenOfAddress = (param: string | null, fragment: string): Screen =>
  WORKSPACE_LINK.test(fragment) ? 'workspace' : screenFromParam(param);

export interface ScreenState {
  screen: Screen;
  setScreen: (screen: Screen) => void;
}

/** The current screen, mirrored in the address. */
export const useScreen = create<ScreenState>()((set) => ({
  screen: screenOfAddress(readAddressParam(PARAM), readAddressFragment()),
  setScreen: (screen) => {
    writeAddressParam(PARAM, screen === 'workbench' ? null : screen);
    set({ screen });
  },
}));
