// The screen on show (one state, rows from a file, alignment with labels, large taxonomy), kept in the address as `?screen=` so a reload
// during a rows run comes back to it. One state is the default and leaves the address clean.
import { z } from 'zod';
import { create } from 'zustand';
import { readAddressParam, writeAddressParam } from '../platform/address';

export const Screen = z.enum(['workbench', 'rows', 'alignment', 'taxonomy']);
export type Screen = z.infer<typeof Screen>;

const PARAM = 'screen';

/** The screen an address names; anything else is the workbench. */
export const screenFromParam = (value: string | null): Screen => Screen.catch('workbench').parse(value);

export interface ScreenState {
  screen: Screen;
  setScreen: (screen: Screen) => void;
}

/** The current screen, mirrored in the address. */
export const useScreen = create<ScreenState>()((set) => ({
  screen: screenFromParam(readAddressParam(PARAM)),
  setScreen: (screen) => {
    writeAddressParam(PARAM, screen === 'workbench' ? null : screen);
    set({ screen });
  },
}));
