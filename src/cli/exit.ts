// The command line's exit codes, as the README lists them: in a file of their own so that main.ts reads them without
// loading a run (the tokenizer alone is about 30 MB resident, which a merge or a report never needs).

/** Exit codes, as the README lists them. */
export const EXIT = {
  ok: 0,
  gateFailed: 1,
  usage: 2,
  auth: 3,
  incomplete: 4,
  interrupted: 130,
} as const;
