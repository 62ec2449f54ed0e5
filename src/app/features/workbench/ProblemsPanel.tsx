// Every problem of the request in one list, errors first: where it is, what it means, a fix when there is one.
// Each item is the lint feature's FindingItem (rule id, why on demand, fix, reveal).
import { useState } from 'react';
import type { DraftProblem } from '../../../core/runDraft';
import { FindingItem } from '../../components/FindingItem';
import { plural } from '../../../core/words';

export interface ProblemsPanelProps {
  problems: readonly DraftProblem[];
  /** Set when a run was refused because of errors; shows why and offers to send anyway. */
  refused: boolean;
  /** True when the body parses, so it can be sent for the service to judge. */
  canSendAnyway: boolean;
  onSendAnyway: () => void;
  onReveal: (problem: DraftProblem) => void;
  onFix: (problem: DraftProblem) => void;
}

/** The problems list under the editors. */
export function ProblemsPanel({
  problems,
  refused,
  canSendAnyway,
  onSendAnyway,
  onReveal,
  onFix,
}: ProblemsPanelProps) {
  const [open, setOpen] = useState<boolean | null>(null);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  const notes = problems.length - errors - warnings;
  const expanded = refused || (open ?? errors > 0);
  const summary =
    problems.length === 0
      ? 'No problems found'
      : [
          errors && plural(errors, 'error'),
          warnings && plural(warnings, 'warning'),
          notes && plural(notes, 'note'),
        ]
          .filter(Boolean)
          .join(' · ');

  return (
    <section
      className={`problems${errors ? ' problems--errors' : ''}`}
      aria-label="Problems"
      data-testid="workbench.problems"
    >
      {refused && (
        <div className="problems__refused" role="alert" data-testid="workbench.refused">
          <strong>Not sent.</strong>{' '}
          {canSendAnyway
            ? 'Fix the errors below, or send the request anyway to hear what the service says.'
            : 'The JSON does not parse: fix it first, nothing was lost.'}
          {canSendAnyway && (
            <button type="button" onClick={onSendAnyway} data-testid="workbench.sendAnyway">
              Send anyway
            </button>
          )}
        </div>
      )}
      <button
        type="button"
        className="problems__toggle"
        aria-expanded={expanded}
        aria-controls="problems-list"
        disabled={problems.length === 0}
        onClick={() => setOpen(!expanded)}
        data-testid="workbench.problemsSummary"
      >
        <span
          className={`problems__dot${errors ? ' is-error' : warnings ? ' is-warning' : ''}`}
          aria-hidden="true"
        />
        {summary}
      </button>
      {expanded && problems.length > 0 && (
        <ul id="problems-list" className="problems__list">
          {problems.map((p, i) => (
            <FindingItem key={i} problem={p} onReveal={onReveal} onFix={onFix} />
          ))}
        </ul>
      )}
    </section>
  );
}
