// What the publish form says, read as a request: the overlap it names, and the one sentence that stops it being sent.
import type { Overlap } from '../../../contract/workspace';

/** The overlap the form says, or the sentence why not. */
export function overlapOf(perRow: string, share: string): Overlap | string {
  const s = Number(share.trim());
  if (!(Number.isFinite(s) && s > 0 && s <= 1))
    return 'Give the share of rows as a number above 0, up to 1 (all rows).';
  if (perRow === 'everyone') return { perRow: 'everyone', share: s };
  const n = Number(perRow);
  return Number.isInteger(n) && n >= 1 ? { perRow: n, share: s } : 'Choose how many people label each row.';
}

export interface PublishChoices {
  overlap: Overlap | string;
  /** The reservation in minutes, as typed. */
  minutes: number;
  anyone: boolean;
  assigned: number;
  rows: number;
}

/** The first thing that keeps the queue from being published, or null when it may be. */
export function publishProblem({ overlap, minutes, anyone, assigned, rows }: PublishChoices): string | null {
  return typeof overlap === 'string'
    ? overlap
    : !(Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440)
      ? 'Give the reservation in whole minutes, from 1 to 1440.'
      : !anyone && assigned === 0
        ? 'Choose at least one person, or let anyone label.'
        : rows === 0
          ? 'No row of this run maps to a state.'
          : null;
}
