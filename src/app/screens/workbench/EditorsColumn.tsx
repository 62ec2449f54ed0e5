// The editors' column: the state and questions editors split in height, above what the screen puts under them.
import type { ReactNode, RefObject } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import type { GroupImperativeHandle } from 'react-resizable-panels';
import { useLayout } from '../../stores/layout';
import { QuestionsPane } from '../../features/workbench/QuestionsPane';
import { StatePane } from '../../features/workbench/StatePane';
import type { DraftChecks } from './useDraftChecks';
import type { RevealHandlers } from './useRevealHandlers';

export interface EditorsColumnProps {
  checks: DraftChecks;
  reveals: RevealHandlers;
  editorsRef: RefObject<GroupImperativeHandle | null>;
  onRun: () => void;
  folded: boolean;
  /** What appears under the editors. */
  children: ReactNode;
}

/** The two editors, resizable against each other; folded, out of the tab order and the accessibility tree. */
export function EditorsColumn({ checks, reveals, editorsRef, onRun, folded, children }: EditorsColumnProps) {
  const layout = useLayout();
  const { checked } = checks;
  return (
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
            markers={checks.stateMarkers}
            syntax={checked.draft.syntax.state}
            onRun={onRun}
            reveal={reveals.stateReveal}
          />
        </Panel>
        <Separator
          className="resize-handle resize-handle--row"
          aria-label="Resize the state and questions editors"
        />
        <Panel id="workbench-questions" defaultSize="50" minSize={140}>
          <QuestionsPane
            markers={checks.questionsMarkers}
            syntax={checked.draft.syntax.questions}
            stateFields={checks.stateFields}
            onRun={onRun}
            reveal={reveals.questionsReveal}
          />
        </Panel>
      </Group>
      {children}
    </div>
  );
}
