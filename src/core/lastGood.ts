// Which earlier answer a failed or cancelled attempt may stand over: only one the same target and model gave, so a
// failing target never shows another server's answer (its model, its price) under its own name.

/** What decides whether one run may stand in for another. */
export interface RunIdentity {
  id: string;
  at: string;
  targetId: string;
  /** The model id as sent (trimmed). */
  model: string;
  answered: boolean;
}

/** The latest answered run before `current` of the same target and model, or undefined (then nothing is shown). */
export function lastGoodRun<R extends RunIdentity>(current: RunIdentity, runs: readonly R[]): R | undefined {
  return runs.findLast(
    (r) =>
      r.answered &&
      r.id !== current.id &&
      r.at <= current.at &&
      r.targetId === current.targetId &&
      r.model.trim() === current.model.trim(),
  );
}
