// What a session holds of work done, in the sessions list's words: runs of the main screen, runs of a file of rows
// (with their rows), and robustness checks, each named apart so a session of file runs never reads "0 runs".
import { plural } from './words';

export interface SessionWork {
  /** Runs of the main screen (one request each). */
  runs: number;
  /** Runs of a file of rows made in the session (variants too), with their row counts. */
  fileRuns: readonly { rowCount: number }[];
  /** Robustness checks kept with the session. */
  robustnessChecks: number;
}

/** "2 runs · 1 file run of 500 rows · 1 robustness check"; "0 runs" when there is nothing. */
export function sessionWorkText(work: SessionWork): string {
  const parts: string[] = [];
  if (work.runs > 0) parts.push(plural(work.runs, 'run'));
  if (work.fileRuns.length > 0) {
    const rows = work.fileRuns.reduce((sum, r) => sum + r.rowCount, 0);
    parts.push(
      `${plural(work.fileRuns.length, 'file run')} of ${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'}`,
    );
  }
  if (work.robustnessChecks > 0) parts.push(plural(work.robustnessChecks, 'robustness check'));
  return parts.length ? parts.join(' · ') : '0 runs';
}
