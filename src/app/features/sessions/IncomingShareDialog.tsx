// Opening a share link: a preview of what it holds, imported only on confirm.
import type { RobustnessReport } from '../../../core/robustness/card';
import { VERDICT_LABELS } from '../../../core/robustness/card';
import type { SharedSession } from '../../../core/shareLink';
import { plural } from '../../../core/words';
import { Dialog } from '../../components/Dialog';
import { KIND_NAME } from '../../components/answers/kindName';

const PREVIEW_CHARS = 1500;

/** The question names and types of a questions text, or null when the text does not parse. */
export function questionOverview(questionsText: string): { name: string; type: string }[] | null {
  try {
    const value: unknown = JSON.parse(questionsText);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    return Object.entries(value).map(([name, q]) => ({
      name,
      type:
        typeof q === 'object' && q !== null && typeof (q as { type?: unknown }).type === 'string'
          ? (q as { type: string }).type
          : '?',
    }));
  } catch {
    return null;
  }
}

/** "3 cards, 2 stable, 1 moves with order; checked with model-1.13.0 on local": what a kept check says at a glance. */
function robustnessLine(report: RobustnessReport): string {
  const counts = new Map<string, number>();
  for (const card of report.cards) {
    const label = VERDICT_LABELS[card.verdict];
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const verdicts = [...counts].map(([label, n]) => `${n} ${label}`).join(', ');
  return `${plural(report.cards.length, 'card')}${verdicts ? ` (${verdicts})` : ''}, checked with ${report.model} on ${report.targetId}; shown as they were, nothing is sent again.`;
}

const clip = (text: string): string =>
  text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;

interface IncomingShareDialogProps {
  incoming: { ok: true; shared: SharedSession } | { ok: false; message: string };
  onImport: () => void;
  onDismiss: () => void;
}

/** The preview of a shared session, or why the link cannot be read. */
export function IncomingShareDialog({ incoming, onImport, onDismiss }: IncomingShareDialogProps) {
  if (!incoming.ok) {
    return (
      <Dialog title="This share link cannot be opened" onClose={onDismiss} testId="sessions.sharePreview">
        <p role="alert" data-testid="sessions.sharePreviewError">
          {incoming.message}
        </p>
        <div className="dialog-buttons">
          <button type="button" onClick={onDismiss}>
            Close
          </button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title="Import a shared session?" onClose={onDismiss} testId="sessions.sharePreview">
      <SharedSessionPreview shared={incoming.shared} />
      <div className="dialog-buttons">
        <button
          type="button"
          className="primary"
          onClick={onImport}
          data-autofocus
          data-testid="sessions.shareImport"
        >
          Import session
        </button>
        <button type="button" onClick={onDismiss} data-testid="sessions.shareDismiss">
          Don't import
        </button>
      </div>
    </Dialog>
  );
}

/** What the link holds: name, target and model, the state, the questions, the runs, and the kept reports. */
function SharedSessionPreview({ shared }: { shared: SharedSession }) {
  const questions = questionOverview(shared.doc.questionsText);
  const runs = shared.runs.length;
  return (
    <dl className="share-preview">
      <dt>Name</dt>
      <dd data-testid="sessions.sharePreviewName">{shared.name}</dd>
      <dt>Target and model</dt>
      <dd>
        {shared.doc.targetId} · {shared.doc.model || 'no model'}
      </dd>
      <dt>
        State (
        {shared.doc.stateMode === 'json'
          ? 'JSON'
          : shared.doc.stateMode === 'conversation'
            ? 'conversation'
            : 'text'}
        )
      </dt>
      <dd>
        <pre data-testid="sessions.sharePreviewState">{clip(shared.doc.stateText)}</pre>
      </dd>
      <dt>Questions</dt>
      <dd data-testid="sessions.sharePreviewQuestions">
        {questions ? (
          <ul>
            {questions.map((q) => (
              <li key={q.name}>
                <code>{q.name}</code> (
                {q.type in KIND_NAME ? KIND_NAME[q.type as keyof typeof KIND_NAME] : q.type})
              </li>
            ))}
          </ul>
        ) : (
          <pre>{clip(shared.doc.questionsText)}</pre>
        )}
      </dd>
      <dt>Runs</dt>
      <dd data-testid="sessions.sharePreviewRuns">
        {runs === 0
          ? 'None: run it yourself after importing.'
          : `${plural(runs, 'run')}, whose answers are shown as they were sent, without calling the service.`}
      </dd>
      <SharedReports shared={shared} />
    </dl>
  );
}

/** The robustness check and alignment report the session keeps, when it keeps them. */
function SharedReports({ shared }: { shared: SharedSession }) {
  return (
    <>
      {shared.robustness && (
        <>
          <dt>Robustness check</dt>
          <dd data-testid="sessions.sharePreviewRobustness">{robustnessLine(shared.robustness)}</dd>
        </>
      )}
      {shared.alignment && (
        <>
          <dt>Alignment report</dt>
          <dd data-testid="sessions.sharePreviewAlignment">
            {`“${shared.alignment.run.fileName}”, ${plural(shared.alignment.questions.length, 'question')} measured against human labels`}
            {shared.alignment.labels
              ? `, with the labels of ${plural(shared.alignment.labels.length, 'row')}.`
              : '.'}
          </dd>
        </>
      )}
    </>
  );
}
