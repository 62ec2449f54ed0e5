// The main screen: the run bar, the state and questions editors on one side, the answers on the other, in resizable
// panes. Wiring only: checks are src/core/runDraft, runs are useRun, answers are features/answers.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import type { GroupImperativeHandle, Layout, PanelImperativeHandle } from 'react-resizable-panels';
import type { Loc } from '../../contract';
import { stateFieldNames } from '../../core/lint';
import { applyFix, checkDoc, listedProblems, locateInDoc } from '../../core/runDraft';
import type { DraftProblem, LintMode } from '../../core/runDraft';
import type { SessionDoc } from '../../core/session';
import { modelsQueryOptions } from '../queries/models';
import { tokenCountingQueryOptions } from '../queries/tokenCounting';
import { targetFactsOf, useTargetInfo } from '../queries/targets';
import { useLayout } from '../stores/layout';
import { runOrCompare, useCompare } from '../stores/compare';
import { useSessions } from '../stores/sessions';
import { useWorkbench } from '../stores/workbench';
import { AnswersPane } from '../features/answers/AnswersPane';
import { AnswersSide } from '../features/compare/AnswersSide';
import { CostMeter } from '../features/cost/CostMeter';
import { GetCodeButton } from '../features/getCode/GetCodeButton';
import { GatewayOffer } from '../features/lint/GatewayOffer';
import { PasteRequestButton } from '../features/lint/PasteRequestButton';
import { RobustnessButton } from '../features/robustness/RobustnessButton';
import '../features/answers/answers-pane.css';
import { markersFor } from '../features/workbench/checks';
import { ProblemsPanel } from '../features/workbench/ProblemsPanel';
import { QuestionsPane } from '../features/workbench/QuestionsPane';
import { StatePane } from '../features/workbench/StatePane';
import { Toolbar } from '../features/workbench/Toolbar';
import { useRun } from '../features/workbench/useRun';
import '../features/workbench/workbench.css';
import '../features/workbench/questionForm.css';

const MODEL_INPUT_ID = 'workbench-model';
/** The state editor's share of the editors' height while the state is a conversation (its bar and turns need room). */
const CONVERSATION_STATE_SHARE = 65;
// NOTE: panel ids also become the panels' data-testid, so they are namespaced away from the areas' own test ids.
const NO_MODELS: string[] = [];

/** Applies a saved layout once it arrives (sessions load it from IndexedDB after the panes mount). */
function useSyncedLayout(saved: Layout | undefined) {
  const ref = useRef<GroupImperativeHandle | null>(null);
  useEffect(() => {
    const group = ref.current;
    if (!group || !saved) return;
    const now = group.getLayout();
    const differs = Object.keys(saved).some((id) => Math.abs((now[id] ?? -1) - saved[id]!) > 0.5);
    if (differs && Object.keys(saved).every((id) => id in now)) group.setLayout(saved);
  }, [saved]);
  return ref;
}

export interface WorkbenchScreenProps {
  /** The target runs go to (the shell's choice, or its fallback when the session's target is gone). */
  targetId: string;
}

/** The workbench: edit, run, and read the answers. */
export function WorkbenchScreen({ targetId }: WorkbenchScreenProps) {
  const doc = useWorkbench((s) => s.doc);
  const current = useWorkbench((s) => s.current);
  const reveal = useWorkbench((s) => s.reveal);
  const { setModel, revealAt, editDoc } = useWorkbench.getState();
  const layout = useLayout();
  const models = useQuery(modelsQueryOptions(targetId));
  const targetInfo = useTargetInfo(targetId);
  const listed = useMemo(() => models.data?.models.map((m) => m.name) ?? NO_MODELS, [models.data]);
  const tokens = useQuery(tokenCountingQueryOptions()).data;
  const targetFacts = useMemo(() => {
    const facts = targetFactsOf(targetInfo);
    return facts && tokens ? { ...facts, tokens } : facts;
  }, [targetInfo, tokens]);
  const { run, cancel, running, refused } = useRun(listed, targetId, targetFacts);

  const serviceErrors = current?.error?.kind === 'validation' ? current.error.fieldErrors : undefined;
  // Lint follows what Run does: compare mode runs the columns' models, so an alias there is worth a warning.
  const comparing = useCompare((s) => s.open);
  const columns = useSessions((s) => s.open?.compare?.columns);
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
  const modelProblem = modelError?.message ?? null;

  const runNow = useCallback(() => runOrCompare(run), [run]);
  // Ctrl/Cmd+Enter anywhere outside the editors (they register it themselves, as an editor action).
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

  const revealLoc = useCallback(
    (area: DraftProblem['area'], offset: number | undefined) => {
      if (area === 'model') document.getElementById(MODEL_INPUT_ID)?.focus();
      if ((area === 'state' || area === 'questions') && offset !== undefined) {
        if (area === 'questions') useLayout.getState().setQuestionsView('json');
        revealAt(area, offset);
      }
    },
    [revealAt],
  );
  const onRevealProblem = useCallback((p: DraftProblem) => revealLoc(p.area, p.span?.offset), [revealLoc]);
  const onRevealLoc = useCallback(
    (loc: Loc) => {
      const found = locateInDoc(useWorkbench.getState().doc, loc);
      revealLoc(found.area, found.span?.offset);
    },
    [revealLoc],
  );
  const onEditDoc = useCallback((edit: (doc: SessionDoc) => SessionDoc) => editDoc(edit), [editDoc]);
  const onFix = useCallback(
    (p: DraftProblem) => {
      const fix = p.fix;
      if (fix) editDoc((doc) => applyFix(doc, fix));
    },
    [editDoc],
  );

  const stateReveal = useMemo(
    () => (reveal?.area === 'state' ? { offset: reveal.offset, nonce: reveal.nonce } : null),
    [reveal],
  );
  const questionsReveal = useMemo(
    () => (reveal?.area === 'questions' ? { offset: reveal.offset, nonce: reveal.nonce } : null),
    [reveal],
  );
  // Compare mode folds the editors to give the columns the width; they come back at the size they had.
  const folded = comparing && layout.compareEditorsFolded;
  const editorsPanel = useRef<PanelImperativeHandle | null>(null);
  // However compare mode is entered (the switch, the address, Back), it starts with the columns given the room.
  useEffect(() => {
    if (comparing) useLayout.getState().setCompareEditorsFolded(true);
  }, [comparing]);
  useEffect(() => {
    let frame = 0;
    let tries = 0;
    const apply = (): void => {
      const panel = editorsPanel.current;
      if (!panel) return;
      if (folded && !panel.isCollapsed()) panel.collapse();
      if (!folded && panel.isCollapsed()) panel.expand();
      // NOTE: the group takes the panel's new `collapsible` in its next layout pass, so on entering compare mode
      // collapse() does nothing yet: try again on the next frames (a handful is plenty).
      if (panel.isCollapsed() !== folded && ++tries < 10) frame = requestAnimationFrame(apply);
    };
    apply();
    return () => cancelAnimationFrame(frame);
  }, [folded]);
  useEffect(() => {
    if (!comparing) return;
    const onKey = (e: KeyboardEvent): void => {
      if (!(e.ctrlKey || e.metaKey) || !e.shiftKey || e.altKey || e.code !== 'KeyE') return;
      e.preventDefault();
      const { compareEditorsFolded, setCompareEditorsFolded } = useLayout.getState();
      setCompareEditorsFolded(!compareEditorsFolded);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [comparing]);
  // Folded, a saved layout waits: applied now it would open the editors; it is applied when they unfold.
  const columnsRef = useSyncedLayout(folded ? undefined : layout.columns);
  const editorsRef = useSyncedLayout(layout.editors);
  // A conversation is the state: until the user drags the split, it gets the larger share of the editors' height.
  const conversationMode = doc.stateMode === 'conversation';
  useEffect(() => {
    const group = editorsRef.current;
    if (!group || layout.editors) return;
    const state = conversationMode ? CONVERSATION_STATE_SHARE : 50;
    // Only when the share must change: a layout set at mount for nothing races the first focus on the page.
    if (Math.abs((group.getLayout()['workbench-state'] ?? 50) - state) < 0.5) return;
    group.setLayout({ 'workbench-state': state, 'workbench-questions': 100 - state });
  }, [conversationMode, layout.editors, editorsRef]);

  return (
    <div className="workbench" data-testid="workbench">
      <Toolbar
        targetId={targetId}
        model={doc.model}
        onModelChange={setModel}
        modelProblem={modelProblem}
        modelRefused={modelError?.source === 'service'}
        resolvedModel={current?.response?.model}
        running={running}
        attempts={current?.status === 'running' ? current.attempts : []}
        onRun={runNow}
        onCancel={cancel}
        modelInputId={MODEL_INPUT_ID}
        comparing={comparing}
        columnCount={columns?.length ?? 0}
        editorsFolded={folded}
        onToggleEditors={() => layout.setCompareEditorsFolded(!layout.compareEditorsFolded)}
        tools={
          <>
            <PasteRequestButton onApply={onEditDoc} />
            <GetCodeButton
              body={checked.draft.body}
              valid={checked.draft.request !== null}
              targetId={targetId}
              columns={comparing ? columns : undefined}
            />
            <RobustnessButton request={checked.draft.request} targetId={targetId} />
          </>
        }
      />
      <Group
        className="workbench__columns"
        orientation="horizontal"
        groupRef={columnsRef}
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
          panelRef={editorsPanel}
          className="workbench__editors"
        >
          {/* Folded: out of the tab order and the accessibility tree, not only out of sight. */}
          <div className="workbench__editors-content" inert={folded}>
            <Group
              className="workbench__editor-split"
              orientation="vertical"
              groupRef={editorsRef}
              defaultLayout={layout.editors}
              onLayoutChanged={(l, meta) => meta.isUserInteraction && layout.setEditors(l)}
            >
              {/* Half and half: both editors get their 12 lines from the floor in workbench.css. */}
              <Panel id="workbench-state" defaultSize="50" minSize={130}>
                <StatePane
                  markers={stateMarkers}
                  syntax={checked.draft.syntax.state}
                  onRun={runNow}
                  reveal={stateReveal}
                />
              </Panel>
              <Separator
                className="resize-handle resize-handle--row"
                aria-label="Resize the state and questions editors"
              />
              <Panel id="workbench-questions" defaultSize="50" minSize={140}>
                <QuestionsPane
                  markers={questionsMarkers}
                  syntax={checked.draft.syntax.questions}
                  stateFields={stateFields}
                  onRun={runNow}
                  reveal={questionsReveal}
                />
              </Panel>
            </Group>
            {/* What appears under the editors scrolls in its own bounded region, so the editors keep their lines. */}
            <div className="workbench__below" data-testid="workbench.below">
              <GatewayOffer questions={checked.draft.body?.questions} onApply={onEditDoc} />
              <CostMeter
                request={checked.draft.body}
                runs={comparing && columns ? columns.length : 1}
                runsLabel={comparing && columns ? `${columns.length} columns` : undefined}
                {...(targetInfo ? { inputPrice: targetInfo.inputPrice } : {})}
                local={targetInfo?.kind === 'local'}
              />
              <ProblemsPanel
                problems={listedFindings}
                // The refusal stands while its reason does; fixing the errors clears it.
                refused={refused && checked.blocked}
                canSendAnyway={checked.draft.body !== null}
                onSendAnyway={() => run(true)}
                onReveal={onRevealProblem}
                onFix={onFix}
              />
            </div>
          </div>
        </Panel>
        <Separator
          className="resize-handle resize-handle--column"
          aria-label="Resize the editors and the answers"
        />
        <Panel id="workbench-answers" defaultSize="50" minSize="25" className="workbench__answers">
          <AnswersSide answers={<AnswersPane onReveal={onRevealLoc} />} />
        </Panel>
      </Group>
    </div>
  );
}
