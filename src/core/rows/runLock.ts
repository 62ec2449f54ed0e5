// The Web Lock a tab holds while it drives a run of rows: held means "not interrupted". Apart from the tabs' message
// schemas so that the main screen's resume offer can read it without loading the rows screen's records.

/** The name of the lock for a run. */
export const runLockName = (runId: string): string => `evaluate-workbench:rows:${runId}`;

/** The run id of a lock name, or null for another lock. */
export function runIdOfLock(name: string | undefined): string | null {
  const prefix = 'evaluate-workbench:rows:';
  return name?.startsWith(prefix) ? name.slice(prefix.length) : null;
}
