// The main screen: the run bar, the state and questions editors on one side, the answers on the other, in resizable
// panes. Wiring only: checks are src/core/runDraft, runs are useRun, answers are features/answers.
import { useCallback, useEffect } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { runOrCompare } from '../stores/compare';
import { useWorkbench } from '../stores/workbench';
import { AnswersPane } from '../features/answers/AnswersPane';
import { AnswersSide } from '../features/compare/AnswersSide';
import '../features/answers/answers-pane.css';
import { useRun } from '../features/workbench/useRun';
import '../features/workbench/workbench.css';
import '../features/workbench/questionForm.css';
import { BelowEditors } from './workbench/BelowEditors';
import { EditorsColumn } from './workbench/EditorsColumn';
import { useCompareColumns, useDraftChecks, useTargetFacts } from './workbench/useDraftChecks';
import { usePaneLayout } from './workbench/useEditorsFolding';
import { useRevealHandlers } from './workbench/useRevealHandlers';
import { WorkbenchToolbar } from './workbench/WorkbenchToolbar';

// NOTE: panel ids also become the panels' data-testid, so they are namespaced away from the areas' own test ids.

/** Ctrl/Cmd+Enter anywhere outside the editors runs (they register it themselves, as an editor action). */
function useRunShortcut(runNow: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.defaultPrevented) return;
      if (e.target instanceof Element && e.target.closest('.code-editor')) return;
      e.preventDefault();
      runNow();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [runNow]);
}

export interface WorkbenchScreenProps {
  /** The target runs go to (the shell's choice, or its fallback when the session's target is gone). */
  targetId: string;
}

/** The workbench: edit, run, and read the answers. */
export function WorkbenchScreen({ targetId }: WorkbenchScreenProps) {
  const doc = useWorkbench((s) => s.doc);
  const target = useTargetFacts(targetId);
  const runControls = useRun(target.listed, targetId, target.targetFacts);
  const { comparing, columns } = useCompareColumns();
  const checks = useDraftChecks(doc, target, comparing, columns);
  const { run } = runControls;
  const runNow = useCallback(() => runOrCompare(run), [run]);
  useRunShortcut(runNow);
  const reveals = useRevealHandlers();
  const panes = usePaneLayout(comparing, doc.stateMode === 'conversation');
  const { layout, folded } = panes;

  return (
    <div className="workbench" data-testid="workbench">
      <WorkbenchToolbar
        targetId={targetId}
        checks={checks}
        runControls={runControls}
        onRun={runNow}
        onEditDoc={reveals.onEditDoc}
        comparing={comparing}
        columns={columns}
        folded={folded}
      />
      <Group
        className="workbench__columns"
        orientation="horizontal"
        groupRef={panes.columnsRef}
        defaultLayout={layout.columns}
        onLayoutChanged={(l, meta) => {
          if (!meta.isUserInteraction) return;
          layout.setColumns(l);
          // Editors dragged open (or shut) in compare mode are shown (or folded): the button and `inert` follow.
          if (comparing) layout.setCompareEditorsFolded((l['workbench-editors'] ?? 0) < 0.5);
        }}
      >
        <Panel
          id="workbench-editors"
          defaultSize="50"
          minSize="25"
          collapsible={comparing}
          collapsedSize="0"
          panelRef={panes.editorsPanel}
          className="workbench__editors"
        >
          <EditorsColumn
            checks={checks}
            reveals={reveals}
            editorsRef={panes.editorsRef}
            onRun={runNow}
            folded={folded}
          >
            <BelowEditors
              checks={checks}
              reveals={reveals}
              runControls={runControls}
              targetInfo={target.targetInfo}
              comparing={comparing}
              columns={columns}
            />
          </EditorsColumn>
        </Panel>
        <Separator
          className="resize-handle resize-handle--column"
          aria-label="Resize the editors and the answers"
        />
        <Panel id="workbench-answers" defaultSize="50" minSize="25" className="workbench__answers">
          <AnswersSide answers={<AnswersPane onReveal={reveals.onRevealLoc} />} />
        </Panel>
      </Group>
    </div>
  );
}
