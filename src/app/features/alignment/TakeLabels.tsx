// Labels kept in the session put back on the open run: a button that stores the labels its rows lack (matched by
// row id), and one sentence on every label it leaves out and why. The plan is computed in src/core/alignment.
import { useEffect, useRef, useState } from 'react';
import { labelTakeSentence } from '../../../core/alignment/sessionLabels';
import { plural } from '../../../core/words';
import type { LabelChange, LabelTakePlan } from '../../../core/alignment/sessionLabels';

export interface TakeLabelsProps {
  plan: LabelTakePlan;
  /** Labelled rows the session keeps, and the file they came from. */
  keptRows: number;
  fileName: string;
  /** Stores the labels on the run; resolves once they are saved. */
  onTake: (changes: readonly LabelChange[]) => Promise<void>;
}

export function TakeLabels({ plan, keptRows, fileName, onTake }: TakeLabelsProps) {
  const [busy, setBusy] = useState(false);
  const [taken, setTaken] = useState<number | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  // The button goes once its labels are stored: focus moves to the sentence that says so instead of the page.
  useEffect(() => {
    if (taken !== null) status.current?.focus();
  }, [taken]);

  const count = plan.changes.length;
  if (count === 0 && taken === null) return null;
  const take = async () => {
    setBusy(true);
    try {
      await onTake(plan.changes);
      setTaken(count);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel align-take" aria-label="Labels kept in the session" data-testid="align.take">
      <p data-testid="align.take.sentence">{labelTakeSentence(plan, keptRows, fileName)}</p>
      {taken !== null && (
        <p role="status" tabIndex={-1} ref={status} data-testid="align.take.done">
          Stored {plural(taken, 'label')} from the session on this run.
        </p>
      )}
      {count > 0 && (
        <button type="button" disabled={busy} onClick={() => void take()} data-testid="align.take.button">
          Take {plural(count, 'label')} from the session
        </button>
      )}
    </section>
  );
}
