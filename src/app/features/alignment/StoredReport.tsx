// An alignment report kept in the session: shown as it was computed, without the run or the service (a session
// opened from a share link in a fresh browser replays it offline).
import { plural, typeWord } from '../../../core/words';
import type { AlignmentSummary } from '../../../core/alignment/report';
import { figureLine } from '../../../core/alignment/report';
import { ReliabilityDiagram } from './ReliabilityDiagram';

export function StoredReport({ summary }: { summary: AlignmentSummary }) {
  return (
    <section
      className="align-stored panel"
      aria-label="Alignment report kept in this session"
      data-testid="align.stored"
    >
      <h3>
        Report kept in this session: {summary.run.fileName}{' '}
        <span className="muted">
          (model {summary.run.model}, {summary.run.rowCount} rows, {new Date(summary.at).toLocaleString()})
        </span>
      </h3>
      {summary.labels && summary.labels.length > 0 && (
        <p data-testid="align.stored.labels">
          Human labels of {plural(summary.labels.length, 'row')} are kept with this report: open a run of the
          same file to take them.
        </p>
      )}
      {summary.questions.map((q) => (
        <div key={q.name} className="align-stored__question" data-testid={`align.stored.${q.name}`}>
          <h4>
            <code>{q.name}</code> ({typeWord(q.type)}), n = {q.n}
          </h4>
          <div className="align-question__grid">
            <table className="align-table">
              <tbody>
                {Object.entries(q.figures).map(([key, f]) => (
                  <tr key={key}>
                    <th scope="row">{key}</th>
                    <td title={f.method} data-testid={`align.stored.figure.${q.name}.${key}`}>
                      {figureLine(f)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div>
              <ReliabilityDiagram
                question={q.name}
                bins={q.reliability}
                probabilityName={q.type === 'noul' ? 'P(yes)' : 'top probability'}
              />
              <p>{q.selective}</p>
            </div>
          </div>
        </div>
      ))}
    </section>
  );
}
