// The top bar: product name, target picker and the selected target's models.
import type { UseQueryResult } from '@tanstack/react-query';
import type { TargetInfo } from '../../queries/targets';
import { useCompare } from '../../stores/compare';
import { KeyboardHelp } from './KeyboardHelp';
import { useWorkbench } from '../../stores/workbench';
import { CheckTarget } from './CheckTarget';
import { ModelList } from './ModelList';
import { ThemeSwitch } from './ThemeSwitch';
import { TargetPicker } from './TargetPicker';

interface TopBarProps {
  targets: UseQueryResult<TargetInfo[]>;
  selected: TargetInfo | undefined;
  onSelectTarget: (id: string) => void;
}

/** The app's header; shows the target list's loading and error states in place of the picker. */
export function TopBar({ targets, selected, onSelectTarget }: TopBarProps) {
  const comparing = useCompare((s) => s.open);
  // The check probes with the model the workbench is set to, so its report speaks of the model in use.
  const model = useWorkbench((s) => s.doc.model);
  return (
    <header className="top-bar" data-testid="shell.topBar">
      <h1 className="product-name">Evaluate Workbench</h1>
      {targets.isPending && <span className="muted">Loading targets…</span>}
      {targets.isError && (
        <span className="error-text" role="alert" data-testid="shell.targetsError">
          Could not list the targets: {targets.error.message} Is <code>npm start</code> still running?
        </span>
      )}
      {targets.data && selected && (
        <>
          <TargetPicker
            targets={targets.data}
            selected={selected}
            onSelect={onSelectTarget}
            comparing={comparing}
          />
          {!comparing && <ModelList targetId={selected.id} />}
          {!comparing && <CheckTarget target={selected} model={model} />}
        </>
      )}
      <div className="top-bar__end">
        <KeyboardHelp />
        <ThemeSwitch />
      </div>
    </header>
  );
}
