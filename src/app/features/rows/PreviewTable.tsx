// The first rows of the file as read, so the user sees the columns before mapping them.
import type { JsonValue } from '../../../contract';
import type { SourceRow } from '../../../core/rows/parse';

const cellText = (v: JsonValue | undefined): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/** A small table of the first rows, with their line numbers. */
export function PreviewTable({ rows, columns }: { rows: readonly SourceRow[]; columns: readonly string[] }) {
  const objects = columns.length > 0;
  return (
    <div className="rows-preview" data-testid="rows.preview">
      <table>
        <caption className="visually-hidden">The first rows of the file</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            {objects ? (
              columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))
            ) : (
              <th scope="col">Row</th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.number}>
              <td className="num">{r.line}</td>
              {objects ? (
                columns.map((c) => (
                  <td
                    key={c}
                    title={cellText(
                      typeof r.data === 'object' && r.data && !Array.isArray(r.data) ? r.data[c] : undefined,
                    )}
                  >
                    {cellText(
                      typeof r.data === 'object' && r.data && !Array.isArray(r.data) ? r.data[c] : undefined,
                    )}
                  </td>
                ))
              ) : (
                <td title={cellText(r.data)}>{cellText(r.data)}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
