// The target picker: every proxy target by label (a target without its key says so), with where it sends beside it.
import { PRESETS } from '../../../contract';
import { targetOptionLabel } from '../../queries/targets';
import type { TargetInfo } from '../../queries/targets';

interface TargetPickerProps {
  targets: readonly TargetInfo[];
  selected: TargetInfo;
  onSelect: (id: string) => void;
  /** Compare mode: each column picks its own target, so this one does not apply and says so. */
  comparing?: boolean;
}

/** A native select (keyboard and screen readers for free) plus a badge that names the target's kind. */
export function TargetPicker({ targets, selected, onSelect, comparing = false }: TargetPickerProps) {
  return (
    <div className="target-picker">
      <label htmlFor="shell-target" className="target-picker__label">
        Runs go to
      </label>
      <select
        id="shell-target"
        // Named even where a narrow window hides the label beside it.
        aria-label="Runs go to"
        data-testid="shell.targets"
        value={selected.id}
        onChange={(event) => onSelect(event.target.value)}
        disabled={comparing}
        aria-describedby={comparing ? 'shell-target-compare' : undefined}
      >
        {targets.map((t) => (
          <option key={t.id} value={t.id} data-kind={t.kind} data-preset={t.preset}>
            {targetOptionLabel(t)}
          </option>
        ))}
      </select>
      {comparing && (
        <span id="shell-target-compare" className="muted" data-testid="shell.targetCompare">
          per compare column
        </span>
      )}
      <span
        hidden={comparing}
        className={`kind-badge kind-${selected.kind}`}
        data-testid="shell.targetKind"
        title={describeKind(selected)}
      >
        {selected.kind === 'local' ? (
          'local'
        ) : (
          <>
            {selected.kind}
            <span className="top-bar__long"> · {selected.host}</span>
          </>
        )}
      </span>
      {selected.keyMissing && (
        <span
          className="error-text"
          role="status"
          data-testid="shell.keyMissing"
          title={`${selected.keyMissing}: this target does not send`}
        >
          {selected.keyMissing}: this target does not send
        </span>
      )}
    </div>
  );
}

/** One line about where a target's requests go. */
export function describeKind(target: TargetInfo): string {
  const where = `${target.host}${target.evaluatePath}`;
  switch (target.kind) {
    case 'local':
      return target.modelFile
        ? `The local reference service, in the workbench server: ${target.modelFile.fileName} answers as ${target.modelFile.alias}; the lexical judge (not a language model) answers model-latest and model-preview.`
        : 'The local reference service, in the workbench server: free, instant, deterministic; not a language model.';
    case 'direct':
      return `${PRESETS[target.preset].name} at ${where}, ${target.auth === 'none' ? 'without a key' : 'with the key held by the workbench server'}.`;
    case 'gateway':
      return `${PRESETS[target.preset].name} (a gateway) at ${where}, ${target.auth === 'none' ? 'without a key' : 'with the key held by the workbench server'}.`;
  }
}
