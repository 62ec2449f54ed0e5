// The rubric checks on the rows screen: the session's questions linted for a file run (every row sends them), with
// fixes applied to the session. The state is left out: each row brings its own.
import { useMemo } from 'react';
import { lintRubric } from '../../../core/lint';
import { applyFix, lintProblems } from '../../../core/runDraft';
import type { DraftProblem } from '../../../core/runDraft';
import { parseJson } from '../../../core/questionsDocument';
import { useWorkbench } from '../../stores/workbench';
import { FindingItem } from '../../components/FindingItem';

// The plan panel already explains an alias in a file run, next to the model it names.
const SHOWN_ELSEWHERE = new Set(['model/alias-pinning']);

/** Lint findings of the session's questions in 'rows' mode, or nothing when there are none. */
export function RowsLint() {
  const doc = useWorkbench((s) => s.doc);
  const problems = useMemo(() => {
    const parsed = parseJson(doc.questionsText);
    if (!parsed.ok) return [];
    const model = doc.model.trim();
    const findings = lintRubric({
      state: undefined,
      questions: parsed.value,
      model,
      models: [model],
      mode: 'rows',
    });
    return lintProblems(
      doc,
      findings.filter((f) => !SHOWN_ELSEWHERE.has(f.ruleId)),
    );
  }, [doc]);
  if (problems.length === 0) return null;
  const onFix = (p: DraftProblem): void => {
    if (!p.fix) return;
    const fix = p.fix;
    useWorkbench.getState().editDoc((doc) => applyFix(doc, fix));
  };
  const errors = problems.filter((p) => p.severity === 'error').length;
  return (
    <details className="rows-lint problems" open={errors > 0} data-testid="rows.lint">
      <summary className="problems__toggle">
        The session&apos;s questions have {problems.length} finding{problems.length === 1 ? '' : 's'}: every
        row sends them.
      </summary>
      <ul className="problems__list">
        {problems.map((p, i) => (
          <FindingItem key={i} problem={p} onFix={onFix} testId="rows.lintItem" />
        ))}
      </ul>
    </details>
  );
}
