// Compare mode of the workbench, wired to the app: the open session's comparison (sessions store), the editors'
// state and questions (workbench store), the proxy's targets and models (React Query), the answer cards.
import { useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo } from 'react';
import { columnDraft, newComparison, recordColumnRun } from '../../../core/compare';
import type { ComparedCell, ComparedQuestion } from '../../../core/compare';
import { newId } from '../../../core/ids';
import type { Compare, CompareColumn, RunRecord, SessionDoc } from '../../../core/session';
import { ChoiceCard, NoulCard, RefusalCard, ScoreCard } from '../../components/answers';
import '../../components/answers/answers.css';
import { modelsQueryOptions } from '../../queries/models';
import { proxyTarget, targetFactsOf, targetOptionLabel, targetsQueryOptions } from '../../queries/targets';
import type { TargetInfo } from '../../queries/targets';
import { useSessions } from '../../stores/sessions';
import { useWorkbench } from '../../stores/workbench';
import { ModelPicker } from '../../queries/ModelPicker';
import { CompareView } from './CompareView';

/** A column's target: a native select of the proxy's targets. */
function ColumnTargetSelect(props: {
  value: string;
  targets: readonly TargetInfo[];
  onChange: (id: string) => void;
}) {
  const id = useId();
  const known = props.targets.some((t) => t.id === props.value);
  return (
    <div className="cmp-target">
      <label htmlFor={id} className="toolbar-label">
        Target
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
        data-testid="compare.target"
      >
        {/* A session from another workbench may name a target this server lacks: keep it visible, not swapped. */}
        {!known && <option value={props.value}>{props.value} (not on this server)</option>}
        {props.targets.map((t) => (
          <option key={t.id} value={t.id}>
            {targetOptionLabel(t)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One column's answer drawn on the question's shared axes: the answer card of its type. */
function ComparedAnswerCard({
  cell,
  question,
  asked,
}: {
  cell: ComparedCell;
  question: ComparedQuestion;
  /** The question as the column's run asked it, for its criteria. */
  asked: RunRecord['request']['questions'][string] | undefined;
}) {
  const criteria = asked?.criteria;
  const a = cell.answer;
  if (!a) return null;
  if (a.type === 'choice')
    return (
      <ChoiceCard
        name={question.name}
        answer={a}
        criteria={criteria}
        probabilityMax={question.probabilityMax}
        optionOrder={question.labels}
      />
    );
  if (a.type === 'score')
    return (
      <ScoreCard
        name={question.name}
        answer={a}
        criteria={criteria}
        probabilityMax={question.probabilityMax}
        // The row lists the level texts once; side by side, the bars need the room.
        levelLabels="index"
      />
    );
  if (a.type === 'refusal') return <RefusalCard name={question.name} answer={a} />;
  return <NoulCard name={question.name} answer={a} criteria={criteria} />;
}

/** The request each column would send: the editors' state and questions with its model, checked on its target. */
function useColumnDrafts(
  compare: Compare | undefined,
  doc: SessionDoc,
  targets: readonly TargetInfo[] | undefined,
  targetsListed: boolean,
) {
  const targetIds = useMemo(
    () => [...new Set(compare?.columns.map((c) => c.targetId) ?? [])],
    [compare?.columns],
  );
  const models = useQueries({
    queries: targetIds.map((id) => ({ ...modelsQueryOptions(id), enabled: targetsListed })),
  });
  const listedKey = models.map((m) => m.data?.models.map((c) => c.name).join(',') ?? '').join('|');
  const listedByTarget = useMemo(() => {
    const map = new Map<string, string[]>();
    listedKey.split('|').forEach((names, i) => map.set(targetIds[i] ?? '', names ? names.split(',') : []));
    return map;
  }, [listedKey, targetIds]);

  return useCallback(
    (column: CompareColumn) =>
      columnDraft(
        doc,
        column.model,
        listedByTarget.get(column.targetId) ?? [],
        targetFactsOf(targets?.find((t) => t.id === column.targetId)),
      ),
    [doc, listedByTarget, targets],
  );
}

/** Edits of the open session's comparison, and a column's finished run recorded in the session it ran for. */
function useCompareEdits(sessionId: string | null) {
  const onCompareChange = useCallback((edit: (c: Compare) => Compare) => {
    const { open, setCompare } = useSessions.getState();
    if (open?.compare) setCompare(edit(open.compare));
  }, []);

  const onRunRecorded = useCallback(
    (columnId: string, run: RunRecord) => {
      const sessions = useSessions.getState();
      // NOTE: a run that settles after the user opened another session must not land in that one.
      if (sessions.openId !== sessionId) return;
      sessions.recordRun(run);
      const open = useSessions.getState().open;
      if (open?.compare) sessions.setCompare(recordColumnRun(open.compare, columnId, run.id));
    },
    [sessionId],
  );
  return { onCompareChange, onRunRecorded };
}

/** Compare mode: starts a comparison in the open session the first time, then shows it. */
export function CompareScreen() {
  const sessionId = useSessions((s) => s.openId);
  const compare = useSessions((s) => s.open?.compare);
  const runs = useSessions((s) => s.open?.runs);
  const doc = useWorkbench((s) => s.doc);
  const targets = useQuery(targetsQueryOptions());

  // A session opened in compare mode without a comparison gets one: the session's model against another version,
  // or against the other judge when the target also answers from a model file (known once the targets are read).
  const fileAlias = targets.data?.find((t) => t.id === doc.targetId)?.modelFile?.alias;
  const targetsRead = targets.isFetched;
  useEffect(() => {
    const { open, setCompare } = useSessions.getState();
    if (open && !open.compare && targetsRead)
      setCompare(newComparison(doc.targetId, doc.model, newId, fileAlias));
  }, [sessionId, compare, doc.targetId, doc.model, targetsRead, fileAlias]);

  const draftFor = useColumnDrafts(compare, doc, targets.data, targets.isSuccess);
  const { onCompareChange, onRunRecorded } = useCompareEdits(sessionId);

  const runById = useMemo(() => new Map((runs ?? []).map((r) => [r.id, r])), [runs]);
  const renderAnswer = useCallback(
    (cell: ComparedCell, question: ComparedQuestion, columnIndex: number) => {
      const column = compare?.columns[columnIndex];
      const runId = column ? compare?.runIds[column.id] : undefined;
      const asked = runId ? runById.get(runId)?.request.questions[question.name] : undefined;
      return <ComparedAnswerCard cell={cell} question={question} asked={asked} />;
    },
    [compare, runById],
  );

  if (!sessionId || !compare || !runs) {
    return (
      <p className="cmp-empty" data-testid="compare.loading">
        Opening the comparison…
      </p>
    );
  }

  return (
    <CompareView
      // A new session gets fresh columns: runs of the previous one are cancelled as their columns unmount.
      key={sessionId}
      sessionId={sessionId}
      compare={compare}
      runs={runs}
      draftFor={draftFor}
      resolveTarget={proxyTarget}
      onCompareChange={onCompareChange}
      onRunRecorded={onRunRecorded}
      renderTargetPicker={(column, _index, onChange) => (
        <ColumnTargetSelect value={column.targetId} targets={targets.data ?? []} onChange={onChange} />
      )}
      renderModelPicker={(column, _index, onChange) => (
        <ModelPicker targetId={column.targetId} value={column.model} onChange={onChange} />
      )}
      renderAnswer={renderAnswer}
    />
  );
}
