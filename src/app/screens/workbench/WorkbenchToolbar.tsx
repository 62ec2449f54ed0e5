// The workbench's run bar with its tools (paste a request, get the code, robustness), wired to the draft and the run.
import type { CompareColumn } from '../../../core/session';
import { useLayout } from '../../stores/layout';
import { useWorkbench } from '../../stores/workbench';
import { GetCodeButton } from '../../features/getCode/GetCodeButton';
import { PasteRequestButton } from '../../features/lint/PasteRequestButton';
import { RobustnessButton } from '../../features/robustness/RobustnessButton';
import { Toolbar } from '../../features/workbench/Toolbar';
import type { RunControls } from '../../features/workbench/useRun';
import type { DraftChecks } from './useDraftChecks';
import { MODEL_INPUT_ID } from './useRevealHandlers';
import type { RevealHandlers } from './useRevealHandlers';

export interface WorkbenchToolbarProps {
  targetId: string;
  checks: DraftChecks;
  runControls: RunControls;
  onRun: () => void;
  onEditDoc: RevealHandlers['onEditDoc'];
  comparing: boolean;
  columns: readonly CompareColumn[] | undefined;
  folded: boolean;
}

/** The run bar: the model, Run and Cancel, the attempts, the compare fold, and the tools. */
export function WorkbenchToolbar(props: WorkbenchToolbarProps) {
  const { targetId, checks, runControls, comparing, columns } = props;
  const model = useWorkbench((s) => s.doc.model);
  const current = useWorkbench((s) => s.current);
  const layout = useLayout();
  const { checked, modelError } = checks;
  return (
    <Toolbar
      targetId={targetId}
      model={model}
      onModelChange={useWorkbench.getState().setModel}
      modelProblem={modelError?.message ?? null}
      modelRefused={modelError?.source === 'service'}
      resolvedModel={current?.response?.model}
      running={runControls.running}
      attempts={current?.status === 'running' ? current.attempts : []}
      onRun={props.onRun}
      onCancel={runControls.cancel}
      modelInputId={MODEL_INPUT_ID}
      comparing={comparing}
      columnCount={columns?.length ?? 0}
      editorsFolded={props.folded}
      onToggleEditors={() => layout.setCompareEditorsFolded(!layout.compareEditorsFolded)}
      tools={
        <>
          <PasteRequestButton onApply={props.onEditDoc} />
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
  );
}
