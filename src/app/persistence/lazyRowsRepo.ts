// The stored runs of rows, for what the main screen reads at start (the resume offer, the sessions list's tally):
// imported on first use so that the rows' records and their schemas stay out of the first chunk.
import { appDb } from './db';
import type { RowsRepo } from './rowsRepo';

let repo: Promise<RowsRepo> | undefined;

/** The app's rows repo, loaded once on first call. */
export const lazyRowsRepo = (): Promise<RowsRepo> =>
  (repo ??= import('./rowsRepo').then((m) => new m.RowsRepo(appDb())));
