// The labelling view's queue: which row is up, and what labelling, skipping and Backspace do to it. Rows labelled
// here move on at once, before the save reaches the rows, so a fast labeller never labels one row twice.
import { useRef, useState } from 'react';
import type { LabelValue } from '../../../core/alignment/types';
import type { ResultRow } from '../../../core/rows/results';
import { labelOfRow } from './rowText';

export interface LabellingQueueInput {
  rows: readonly ResultRow[];
  question: string;
  /** The labeller's name, '' for none. */
  labeller: string;
  onLabel: (number: number, value: LabelValue | null) => void;
  onUndo: () => number | null;
}

/** Drops `number` from a set, as a new set. */
const without = (set: ReadonlySet<number>, number: number): ReadonlySet<number> => {
  const next = new Set(set);
  next.delete(number);
  return next;
};

/** The row up (null when none is left), the last label given, and the card's focus target and actions. */
export function useLabellingQueue({ rows, question, labeller, onLabel, onUndo }: LabellingQueueInput) {
  const [skipped, setSkipped] = useState<ReadonlySet<number>>(new Set());
  const [given, setGiven] = useState<ReadonlySet<number>>(new Set());
  const [pinned, setPinned] = useState<number | null>(null);
  const [last, setLast] = useState<{ number: number; value: LabelValue } | null>(null);
  // What Backspace undoes, newest last: a skip is undone here; a label by the screen's history (onUndo).
  const [steps, setSteps] = useState<readonly { kind: 'skip' | 'label'; number: number }[]>([]);
  const box = useRef<HTMLDivElement>(null);
  // Another labeller starts afresh: rows given, skipped or pinned by the one before are theirs, not this one's.
  const [forLabeller, setForLabeller] = useState(labeller);
  if (forLabeller !== labeller) {
    setForLabeller(labeller);
    setSkipped(new Set());
    setGiven(new Set());
    setPinned(null);
    setLast(null);
    setSteps([]);
  }
  const labelOf = (row: ResultRow) => labelOfRow(row, question, labeller);
  const current =
    (pinned !== null ? rows.find((r) => r.number === pinned) : undefined) ??
    rows.find((r) => labelOf(r) === undefined && !skipped.has(r.number) && !given.has(r.number)) ??
    null;

  const give = (value: LabelValue) => {
    if (!current) return;
    onLabel(current.number, value);
    setSteps((s) => [...s.slice(-199), { kind: 'label', number: current.number }]);
    setGiven((g) => new Set(g).add(current.number));
    setLast({ number: current.number, value });
    setPinned(null);
    box.current?.focus();
  };
  const skip = () => {
    if (!current) return;
    setSkipped((s) => new Set(s).add(current.number));
    setSteps((s) => [...s.slice(-199), { kind: 'skip', number: current.number }]);
    setPinned(null);
    box.current?.focus();
  };
  const undo = () => {
    const step = steps[steps.length - 1];
    if (step) setSteps(steps.slice(0, -1));
    if (step?.kind === 'skip') {
      setSkipped((s) => without(s, step.number));
      setPinned(step.number);
      box.current?.focus();
      return;
    }
    const number = onUndo();
    if (number !== null) {
      setGiven((g) => without(g, number));
      setPinned(number);
      setLast(null);
    }
    box.current?.focus();
  };
  const unskipAll = () => setSkipped(new Set());
  return { box, current, last, skipped, labelOf, give, skip, undo, unskipAll };
}
