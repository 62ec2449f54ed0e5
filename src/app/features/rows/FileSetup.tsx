// A file before its run: the import, what was read, the mapping and the labels, the lines left out, the lint and the
// plan with its Start.
import type { TargetInfo } from '../../queries/targets';
import type { SessionQuestions } from '../../stores/sessionQuestions';
import { useRows } from '../../stores/rows';
import { formatCount } from './format';
import { ImportPanel } from './ImportPanel';
import { IssueList } from './IssueList';
import { LabelColumnsForm } from './LabelColumnsForm';
import { MappingForm } from './MappingForm';
import { PlanPanel } from './PlanPanel';
import { PreviewTable } from './PreviewTable';
import { RowsLint } from './RowsLint';

/** The one line that says which columns were read as labels because they are named like questions, with its undo. */
function DefaultLabelsLine() {
  const mapping = useRows((s) => s.mapping);
  const defaulted = useRows((s) => s.defaultLabels);
  const keepInState = useRows((s) => s.keepLabelsInState);
  // Only those still mapped as the label of their question: a label the user changed is theirs now.
  const still = defaulted.filter((d) =>
    (mapping?.labels ?? []).some((l) => l.column === d.column && l.question === d.question),
  );
  if (still.length === 0) return null;
  const one = still.length === 1;
  return (
    <p className="rows-message" role="status" data-testid="rows.labels.defaulted">
      <span>
        {still.map((d, i) => (
          <span key={d.column}>
            {i > 0 ? ', ' : ''}
            <code>{d.column}</code>
          </span>
        ))}{' '}
        {one ? 'is' : 'are'} named like {one ? 'a question' : 'questions'}, so {one ? 'it is' : 'they are'}{' '}
        read as {one ? 'its' : 'their'} human label{one ? '' : 's'} and never sent to the judge.
      </span>
      <button
        type="button"
        className="link-button"
        onClick={keepInState}
        data-testid="rows.labels.defaulted.undo"
      >
        Send {one ? 'it' : 'them'} in the state instead
      </button>
    </p>
  );
}

/** How many rows the file gave, and the fields a stray quote ran across lines, with the way to read quotes literally. */
function FileSummary({ creating }: { creating: boolean }) {
  const summary = useRows((s) => s.import.summary);
  const setParseOptions = useRows((s) => s.setParseOptions);
  if (!summary) return null;
  return (
    <>
      <p className="rows-summary" data-testid="rows.summary">
        {summary.fileName}: {formatCount(summary.rows)} rows read
        {summary.issues ? `, ${formatCount(summary.issues)} line(s) not read as rows (listed below)` : ''}.
      </p>
      {summary.quoteSpans.length > 0 && (
        <p className="rows-message" role="status" data-testid="rows.quoteSpans">
          <span>
            {summary.quoteSpans
              .map(
                (q) =>
                  `Lines ${q.from}-${q.to} were read as one field because of the quote opened on line ${q.from}.`,
              )
              .join(' ')}
          </span>
          <button
            type="button"
            className="link-button"
            disabled={creating}
            onClick={() => void setParseOptions({ literalQuotes: true })}
            data-testid="rows.readQuotesLiterally"
          >
            Read quotes literally
          </button>
        </p>
      )}
    </>
  );
}

export interface FileSetupProps {
  session: SessionQuestions;
  targetLabel: string;
  target: TargetInfo | undefined;
  /** A run is being created from the file: its controls wait. */
  creating: boolean;
  onStart: () => void;
}

/** The file read and set up, up to its Start; the import panel above it. */
export function FileSetup({ session, targetLabel, target, creating, onStart }: FileSetupProps) {
  const rows = useRows();
  const { mapping } = rows;
  const summary = rows.import.summary;
  return (
    <>
      <ImportPanel
        state={rows.import}
        options={rows.parseOptions}
        disabled={creating}
        onFile={(file) => void rows.pickFile(file, Object.keys(session.questions ?? {}))}
        onOptions={(o) => void rows.setParseOptions(o)}
        onResultsFile={(file) => void rows.openResultsFile(file)}
      />
      {rows.import.phase === 'ready' && summary && (
        <>
          <FileSummary creating={creating} />
          <PreviewTable rows={summary.preview} columns={summary.objectRows ? summary.columns : []} />
          <DefaultLabelsLine />
          {mapping && (
            <MappingForm
              mapping={mapping}
              columns={summary.columns}
              objectRows={summary.objectRows}
              onChange={rows.setMapping}
              samples={rows.plan?.samples ?? []}
              disabled={creating}
            />
          )}
          {mapping && summary.objectRows && (
            <LabelColumnsForm
              mapping={mapping}
              columns={summary.columns}
              questions={session.questions}
              plans={rows.plan?.labels ?? []}
              onChange={rows.setMapping}
              disabled={creating}
            />
          )}
          <IssueList
            title="Lines that will not be sent"
            issues={[...summary.parseIssues, ...(rows.plan?.issues ?? [])].sort((a, b) => a.line - b.line)}
          />
          <RowsLint />
          <PlanPanel
            plan={rows.plan}
            planning={rows.planning}
            planError={rows.planError}
            session={session}
            targetLabel={targetLabel}
            {...(target ? { inputPrice: target.inputPrice } : {})}
            pacing={rows.pacing}
            maxCost={rows.maxCost}
            onPacing={rows.setPacing}
            onMaxCost={rows.setMaxCost}
            onStart={onStart}
            busy={creating}
          />
        </>
      )}
    </>
  );
}
