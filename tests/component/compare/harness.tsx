// Arranges a comparison for component tests: the real reference service over loopback HTTP, a fresh QueryClient, and
// a small host that keeps the session's comparison and runs in React state the way the session store does.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { ClientTarget } from '../../../src/client';
import { columnDraft, recordColumnRun } from '../../../src/core/compare';
import type { ComparedCell, ComparedQuestion } from '../../../src/core/compare';
import { exampleDoc } from '../../../src/core/example';
import type { Compare, CompareColumn, RunRecord, SessionDoc } from '../../../src/core/session';
import { CompareView } from '../../../src/app/features/compare/CompareView';
import { useCompare } from '../../../src/app/stores/compare';
import { serveReference } from '../../../src/server/reference/serve';
import type { RunningReference } from '../../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import type { ReferenceOptions } from '../../../src/server/reference/options';

/** Starts a reference service; the caller closes it. */
export const startReference = (options: Partial<ReferenceOptions> = {}): Promise<RunningReference> =>
  serveReference(options);

/** The client target of the reference, as the proxy would reach it (the key stays in the test, as in the proxy). */
export const referenceTarget =
  (reference: RunningReference) =>
  (_targetId: string): ClientTarget => ({
    baseUrl: reference.url,
    headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` },
  });

/** A text answer in place of the charts, so these tests read the comparison's own numbers. */
export function textAnswer(cell: ComparedCell, question: ComparedQuestion) {
  const a = cell.answer;
  if (!a) return null;
  const text =
    a.type === 'noul'
      ? `p(yes) ${a.noul}`
      : a.type === 'choice'
        ? `chose ${a.choice}; order ${question.labels.join(',')}`
        : `score ${a.score}; levels ${question.labels.join(',')}`;
  return <p data-testid="test.answer">{text}</p>;
}

export interface HostProps {
  initial: Compare;
  doc?: SessionDoc;
  resolveTarget: (targetId: string) => ClientTarget;
  /** Receives every state change, so tests can read what would be saved. */
  onSaved?: (compare: Compare, runs: RunRecord[]) => void;
}

/** The CompareView as the container mounts it, with the session's comparison and runs in state. */
export function CompareHost({ initial, doc = exampleDoc('local'), resolveTarget, onSaved }: HostProps) {
  useState(() => useCompare.setState({ sort: 'question', onlyFlagged: false }));
  const [session, setSession] = useState<{ compare: Compare; runs: RunRecord[] }>({
    compare: initial,
    runs: [],
  });
  const save = useCallback(
    (edit: (s: { compare: Compare; runs: RunRecord[] }) => { compare: Compare; runs: RunRecord[] }) =>
      setSession((s) => {
        const next = edit(s);
        onSaved?.(next.compare, next.runs);
        return next;
      }),
    [onSaved],
  );
  const draftFor = useCallback((column: CompareColumn) => columnDraft(doc, column.model), [doc]);
  return (
    <CompareView
      sessionId="session-1"
      compare={session.compare}
      runs={session.runs}
      draftFor={draftFor}
      resolveTarget={resolveTarget}
      onCompareChange={(edit) => save((s) => ({ ...s, compare: edit(s.compare) }))}
      onRunRecorded={(columnId, run) =>
        save((s) => ({
          runs: [...s.runs, run],
          compare: recordColumnRun(s.compare, columnId, run.id),
        }))
      }
      renderTargetPicker={(column, index, onChange) => (
        <label>
          Target of column {index + 1}
          <input value={column.targetId} onChange={(e) => onChange(e.currentTarget.value)} />
        </label>
      )}
      renderModelPicker={(column, index, onChange) => (
        <label>
          Model of column {index + 1}
          <input value={column.model} onChange={(e) => onChange(e.currentTarget.value)} />
        </label>
      )}
      renderAnswer={textAnswer}
    />
  );
}

/** Wraps a tree in a fresh QueryClient with retries off. */
export function withQueryClient(node: React.ReactNode) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return <QueryClientProvider client={client}>{node}</QueryClientProvider>;
}
