// The tables of a question's figures folded under its columns: precision and recall per label (choice questions),
// and the prevalence corrected over the whole file.
import type { QuestionReport } from '../../../core/alignment/compute';
import { FigureText } from './FigureText';

/** Precision and recall of each label of a choice question. */
export function PrecisionRecallTable({
  report,
  figures,
}: {
  report: QuestionReport;
  figures: QuestionReport['figures'];
}) {
  return (
    <details>
      <summary>Precision and recall per label</summary>
      <table className="align-table">
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Precision</th>
            <th scope="col">Recall</th>
          </tr>
        </thead>
        <tbody>
          {report.classes.map((c) => (
            <tr key={c}>
              <th scope="row">{c}</th>
              <td>
                <FigureText figure={figures[`precision.${c}`]} />
              </td>
              <td>
                <FigureText figure={figures[`recall.${c}`]} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Each label's share as the judge answered it, corrected (Rogan-Gladen), and as people labelled it. */
export function PrevalenceTable({ report }: { report: QuestionReport }) {
  return (
    <details>
      <summary>Corrected prevalence over the whole file</summary>
      <table className="align-table" data-testid={`align.prevalence.${report.name}`}>
        <thead>
          <tr>
            <th scope="col">{report.type === 'noul' ? 'Answer' : 'Label'}</th>
            <th scope="col">Judge’s share</th>
            <th scope="col">Corrected (Rogan-Gladen)</th>
            <th scope="col">Human share (labelled rows)</th>
          </tr>
        </thead>
        <tbody>
          {report.prevalence.map((p) => (
            <tr key={p.label}>
              <th scope="row">{p.label}</th>
              <td>
                <FigureText figure={p.judge} />
              </td>
              <td>
                <FigureText figure={p.corrected} />
              </td>
              <td>
                <FigureText figure={p.human} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
