// An open run: its header, its progress and controls, its pacing and budget, and its results.
import type { RowRun } from '../../../core/rows/records';
import { useRows } from '../../stores/rows';
import { downloadParts } from '../../platform/download';
import { formatCount } from './format';
import { PacingFields } from './PacingFields';
import { ProgressPanel } from './ProgressPanel';
import { ResultsView } from './ResultsView';

/** The open run's pacing and budget, changeable while it runs. */
function PlanSettings() {
  const pacing = useRows((s) => s.pacing);
  const maxCost = useRows((s) => s.maxCost);
  const setPacing = useRows((s) => s.setPacing);
  const setMaxCost = useRows((s) => s.setMaxCost);
  return <PacingFields pacing={pacing} maxCost={maxCost} onPacing={setPacing} onMaxCost={setMaxCost} />;
}

export interface OpenRunViewProps {
  open: RowRun;
  /** The target picked in the top bar, for a run that names none. */
  targetId: string;
}

/** The open run, once its progress is known. */
export function OpenRunView({ open, targetId }: OpenRunViewProps) {
  const rows = useRows();
  if (!rows.progress) return null;
  const exportRun = async (kind: 'csv' | 'jsonl', options: { leftOut: boolean }) => {
    const file = await rows.exportRun(kind, options);
    if (file) downloadParts(file.fileName, file.type, file.parts);
  };
  return (
    <>
      <header className="rows-run-header">
        <h2 data-testid="rows.run.title">{open.fileName}</h2>
        <span className="muted">
          {formatCount(open.rowCount)} rows · model <code>{open.model}</code> · target {open.targetId}
        </span>
      </header>
      <ProgressPanel
        progress={rows.progress}
        running={rows.running}
        watching={rows.watching}
        // An open run shows its own pacing (a results file from the command line keeps the run's).
        configuredRate={(rows.openRun?.pacing ?? rows.pacing).requestsPerMinute}
        local={(rows.openRun?.targetId ?? targetId) === 'local'}
        priceUnknown={open.inputPrice === null}
        onStart={() => void rows.start()}
        onPause={rows.pause}
        onCancel={rows.cancel}
        onRetry={(which) => void rows.retry(which)}
      />
      <details className="rows-settings">
        <summary>Pacing and budget</summary>
        <PlanSettings />
      </details>
      <ResultsView
        run={open}
        rows={rows.results()}
        version={rows.resultsVersion}
        onExport={(kind, options) => void exportRun(kind, options)}
      />
    </>
  );
}
