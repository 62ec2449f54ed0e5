// A queue's labels in and out: CSV with `label.<question>.<annotator>` columns, Label Studio JSON (annotations'
// completed_by is the annotator) and Argilla records (responses per user). Imported labels keep who gave them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { InteropFormatSchema } from '../../../contract/workspace';
import type { ImportResponse, InteropFormat } from '../../../contract/workspace';
import { errorText, plural } from '../../../contract/text';
import { downloadText } from '../../platform/download';
import { fileText } from '../../platform/files';
import {
  exportQueueMutationOptions,
  importLabelsMutationOptions,
  invalidateQueue,
} from '../../queries/workspace';

const FORMATS: { format: InteropFormat; text: string; ext: string; type: string }[] = [
  { format: 'csv', text: 'CSV', ext: 'csv', type: 'text/csv;charset=utf-8' },
  { format: 'labelstudio', text: 'Label Studio JSON', ext: 'labelstudio.json', type: 'application/json' },
  { format: 'argilla', text: 'Argilla records', ext: 'argilla.json', type: 'application/json' },
];

export function InteropPanel({ queueId, name }: { queueId: string; name: string }) {
  return (
    <section className="panel" aria-labelledby="workspace-interop-title" data-testid="workspace.interop">
      <h3 id="workspace-interop-title">Labels in and out</h3>
      <LabelsExport queueId={queueId} name={name} />
      <LabelsImport queueId={queueId} />
    </section>
  );
}

/** A button per format; the file is handed to the person under the queue's name. */
function LabelsExport({ queueId, name }: { queueId: string; name: string }) {
  const exporting = useMutation({
    ...exportQueueMutationOptions(queueId),
    onSuccess: ({ format: done, text }) => {
      const spec = FORMATS.find((f) => f.format === done)!;
      downloadText(`${name.replace(/[^\w.-]+/g, '-')}.${spec.ext}`, text, spec.type);
    },
  });
  return (
    <>
      <p>
        Export:{' '}
        {FORMATS.map((f) => (
          <button
            key={f.format}
            type="button"
            disabled={exporting.isPending}
            onClick={() => exporting.mutate(f.format)}
            data-testid={`workspace.export.${f.format}`}
          >
            {f.text}
          </button>
        ))}
      </p>
      {exporting.error && (
        <p role="alert" className="error">
          {errorText(exporting.error)}
        </p>
      )}
    </>
  );
}

/** A file of labels in the chosen format; what was imported, from whom, and what was not, said after. */
function LabelsImport({ queueId }: { queueId: string }) {
  const client = useQueryClient();
  const [format, setFormat] = useState<InteropFormat>('labelstudio');
  const importing = useMutation({
    ...importLabelsMutationOptions(queueId),
    onSuccess: () => invalidateQueue(client, queueId),
  });
  return (
    <>
      <p>
        <label>
          Import labels from{' '}
          <select
            value={format}
            onChange={(e) => setFormat(InteropFormatSchema.parse(e.currentTarget.value))}
            data-testid="workspace.import.format"
          >
            {FORMATS.map((f) => (
              <option key={f.format} value={f.format}>
                {f.text}
              </option>
            ))}
          </select>
        </label>{' '}
        <input
          type="file"
          accept=".csv,.json,.jsonl,text/csv,application/json"
          aria-label="File of labels to import"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file) void fileText(file).then((text) => importing.mutate({ format, text }));
          }}
          data-testid="workspace.import.file"
        />
      </p>
      {importing.data && <ImportReport report={importing.data} />}
      {importing.error && (
        <p role="alert" className="error" data-testid="workspace.import.error">
          {errorText(importing.error)}
        </p>
      )}
    </>
  );
}

/** How many labels came in, from whom, and each line that did not. */
function ImportReport({ report }: { report: ImportResponse }) {
  return (
    <div role="status" data-testid="workspace.import.report">
      <p>
        Imported {plural(report.imported, 'label')}
        {report.people.length > 0 ? ` from ${report.people.join(', ')}` : ''}.
      </p>
      {report.problems.length > 0 && (
        <ul>
          {report.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
