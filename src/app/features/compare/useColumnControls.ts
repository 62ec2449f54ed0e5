// The comparison view's hold on its columns: each column registers how to run and cancel it, says when it runs, and
// the view runs, cancels, pins or removes them, and lends "run all" to the workbench's Run button and Ctrl+Enter.
import { useCallback, useEffect, useRef, useState } from 'react';
import { pinColumn, removeColumn } from '../../../core/compare';
import type { Compare } from '../../../core/session';
import { useCompare } from '../../stores/compare';
import type { ColumnControl } from './CompareColumnRunner';

/** The columns running, and the handlers the columns and the toolbar call. */
export function useColumnControls(
  onCompareChange: (edit: (compare: Compare) => Compare) => void,
  blocked: string | null,
) {
  const controls = useRef(new Map<string, ColumnControl>());
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set());

  const register = useCallback((columnId: string, control: ColumnControl | null) => {
    if (control) controls.current.set(columnId, control);
    else controls.current.delete(columnId);
  }, []);
  const onRunningChange = useCallback((columnId: string, isRunning: boolean) => {
    setRunning((prev) => {
      if (prev.has(columnId) === isRunning) return prev;
      const next = new Set(prev);
      if (isRunning) next.add(columnId);
      else next.delete(columnId);
      return next;
    });
  }, []);

  const pin = useCallback(
    (columnId: string, model: string) => onCompareChange((c) => pinColumn(c, columnId, model)),
    [onCompareChange],
  );
  const remove = useCallback(
    (columnId: string) => {
      controls.current.get(columnId)?.cancel();
      onCompareChange((c) => removeColumn(c, columnId));
    },
    [onCompareChange],
  );

  // Nothing runs while a column is blocked; columns already running are not restarted.
  const runAll = useCallback(() => {
    if (blocked === null && running.size === 0) controls.current.forEach((c) => c.run());
  }, [blocked, running]);
  const cancelAll = () => controls.current.forEach((c) => c.cancel());

  // The workbench's Run button and Ctrl+Enter run every column while compare mode is on screen.
  const setRunAll = useCompare((s) => s.setRunAll);
  useEffect(() => {
    setRunAll(runAll);
    return () => setRunAll(null);
  }, [setRunAll, runAll]);

  return { running, register, onRunningChange, pin, remove, runAll, cancelAll };
}
