// Which earlier answer a failed or cancelled attempt may stand over: only one the same target gave, so a failing target
// never shows another server's answer (its model, its price) under its own name. Another model's answer on the same
// target may stand there, and the pane names that model plainly.

/** What decides whether one run may stand in for another. */
export interface RunIdentity {
  id: string;
  at: string;
  targetId: string;
  /** The model id as sent (trimmed). */
  model: string;
  answered: boolean;
}

/**
 * The latest answered run before `current` on the same target, preferring one of the same model; undefined when the
 * target answered nothing before (then nothing is shown).
 */
export function lastGoodRun<R extends RunIdentity>(current: RunIdentity, runs: readonly R[]): R | undefined {
  const earlier = runs.filter(
    (r) => r.answered && r.id !== current.id && r.at <= current.at && r.targetId === current.targetId,
  );
  return earlier.findLast((r) => r.model.trim() === current.model.trim()) ?? earlier.at(-1);
}
