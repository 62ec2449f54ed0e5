// What the workbench knows about its draft: the target's models and facts, and the checks of the draft against them.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { stateFieldNames } from '../../../core/lint';
import { checkDoc, listedProblems } from '../../../core/runDraft';
import type { LintMode } from '../../../core/runDraft';
import type { CompareColumn, SessionDoc } from '../../../core/session';
import { modelsQueryOptions } from '../../queries/models';
import { tokenCountingQueryOptions } from '../../queries/tokenCounting';
import { targetFactsOf, useTargetInfo } from '../../queries/targets';
import { useCompare } from '../../stores/compare';
import { useSessions } from '../../stores/sessions';
import { useWorkbench } from '../../stores/workbench';
import { markersFor } from '../../features/workbench/checks';

const NO_MODELS: string[] = [];

/** The target's listed models, its description, and the facts the checks and runs read (with the tokenizer, once loaded). */
export function useTargetFacts(targetId: string) {
  const models = useQuery(modelsQueryOptions(targetId));
  const targetInfo = useTargetInfo(targetId);
  const listed = useMemo(() => models.data?.models.map((m) => m.name) ?? NO_MODELS, [models.data]);
  const tokens = useQuery(tokenCountingQueryOptions()).data;
  const targetFacts = useMemo(() => {
    const facts = targetFactsOf(targetInfo);
    return facts && tokens ? { ...facts, tokens } : facts;
  }, [targetInfo, tokens]);
  return { listed, targetInfo, targetFacts };
}

/** Whether compare mode is open, and the open session's columns. */
export function useCompareColumns() {
  const comparing = useCompare((s) => s.open);
  const columns = useSessions((s) => s.open?.compare?.columns);
  return { comparing, columns };
}

/** The draft checked as Run would send it: the problems listed, the editors' markers, the state's field names. */
export function useDraftChecks(
  doc: SessionDoc,
  target: ReturnType<typeof useTargetFacts>,
  comparing: boolean,
  columns: readonly CompareColumn[] | undefined,
) {
  const current = useWorkbench((s) => s.current);
  const { listed, targetFacts } = target;
  const serviceErrors = current?.error?.kind === 'validation' ? current.error.fieldErrors : undefined;
  // Lint follows what Run does: compare mode runs the columns' models, so an alias there is worth a warning.
  const lintMode = useMemo<LintMode>(
    () =>
      comparing && columns ? { mode: 'compare', models: columns.map((c) => c.model) } : { mode: 'single' },
    [comparing, columns],
  );
  const checked = useMemo(
    () => checkDoc(doc, listed, serviceErrors, lintMode, targetFacts),
    [doc, listed, serviceErrors, lintMode, targetFacts],
  );
  const listedFindings = useMemo(() => listedProblems(checked.problems), [checked]);
  const stateMarkers = useMemo(() => markersFor('state', checked.problems, doc), [checked, doc]);
  const questionsMarkers = useMemo(() => markersFor('questions', checked.problems, doc), [checked, doc]);
  const stateFields = useMemo(
    () => (checked.draft.body ? stateFieldNames(checked.draft.body.state) : []),
    [checked],
  );
  const modelError = checked.problems.find((p) => p.area === 'model' && p.severity === 'error');
  return { checked, listedFindings, stateMarkers, questionsMarkers, stateFields, modelError };
}

/** The checks as the workbench's pieces receive them. */
export type DraftChecks = ReturnType<typeof useDraftChecks>;
