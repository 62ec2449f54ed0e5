// One finding of the checks, as the problems list shows it: severity, rule, message, why it matters on demand, where it
// is (a click reveals the line) and its fix. Lint findings and contract, syntax or service errors look the same.
import { useId, useState } from 'react';
import { formatLoc } from '../../contract';
import type { DraftProblem } from '../../core/runDraft';
import './findingItem.css';

const SOURCE_LABEL: Record<string, string> = {
  syntax: 'JSON',
  contract: 'contract',
  duplicate: 'duplicate key',
  service: 'service 422',
  model: 'model',
};

/** A short name of where a problem comes from, for the marker's hover and the list. */
export const sourceLabel = (source: string): string => SOURCE_LABEL[source] ?? source;

const AREA_NAME = { state: 'state', questions: 'questions', model: 'model', request: 'request' } as const;

/** Where a problem is, for the list: "questions, line 4" or "model". */
export function findingPlace(p: DraftProblem): string {
  if (p.span) return `${AREA_NAME[p.area]}, line ${p.span.start.line}`;
  return p.loc.length ? formatLoc(p.loc) : AREA_NAME[p.area];
}

/** True for a problem that comes from a lint rule (its source is the rule id, "area/name"). */
export const isLintFinding = (p: DraftProblem): boolean => p.source.includes('/');

export interface FindingItemProps {
  problem: DraftProblem;
  /** Moves the caret to the problem; absent where the editors are not on screen. */
  onReveal?: (problem: DraftProblem) => void;
  onFix: (problem: DraftProblem) => void;
  testId?: string;
}

/** A list item of the problems list. */
export function FindingItem({ problem: p, onReveal, onFix, testId = 'workbench.problem' }: FindingItemProps) {
  const [why, setWhy] = useState(false);
  const whyId = useId();
  const canReveal = onReveal && (p.span || p.area === 'model');
  const lint = isLintFinding(p);
  return (
    <li
      className={`problem problem--${p.severity}`}
      data-testid={testId}
      data-source={p.source}
      data-severity={p.severity}
    >
      <span className="problem__severity">{p.severity}</span>
      <span className="problem__body">
        <span className="problem__message">{p.message}</span>
        {p.explanation && why && (
          <span id={whyId} className="problem__explanation" data-testid="lint.explanation">
            {p.explanation}
          </span>
        )}
        <span className="problem__meta">
          {canReveal ? (
            <button type="button" className="link-button" onClick={() => onReveal(p)}>
              {findingPlace(p)}
            </button>
          ) : (
            <span>{findingPlace(p)}</span>
          )}
          <span className="muted">
            {' '}
            · {lint ? <code className="problem__rule">{p.source}</code> : sourceLabel(p.source)}
          </span>
          {p.explanation && (
            <button
              type="button"
              className="link-button"
              aria-expanded={why}
              aria-controls={why ? whyId : undefined}
              onClick={() => setWhy(!why)}
              data-testid="lint.why"
            >
              {why ? 'Hide why' : 'Why?'}
            </button>
          )}
          {p.fix && (
            <button
              type="button"
              className="problem__fix"
              title="Fix: applies this change to the editor"
              onClick={() => onFix(p)}
              data-testid="lint.fix"
            >
              {p.fix.title}
            </button>
          )}
        </span>
      </span>
    </li>
  );
}
