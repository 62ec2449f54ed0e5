// The labeller's screen state: the app's labelling store opened on the queue (closed when the screen goes), and the
// question asked now with its options.
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { labelOptions } from '../../components/labelKeys';
import { appOutbox } from '../../stores/workspaceOutbox';
import { appQueueLabelling } from '../../stores/workspaceLabelling';

/** The stores, the labelling state, and the row, question (its name, definition and options) asked now. */
export function useLabellerQueue(queueId: string) {
  const outbox = appOutbox();
  const labelling = appQueueLabelling(outbox);
  const s = useStore(labelling);
  useEffect(() => {
    void labelling.getState().open(queueId);
    void outbox.getState().flush();
    return () => labelling.getState().close();
  }, [labelling, outbox, queueId]);

  const names = Object.keys(s.next?.questions ?? {});
  const question = names[s.questionIndex];
  const definition = question !== undefined ? s.next?.questions[question] : undefined;
  const options = useMemo(() => (definition ? labelOptions(definition) : []), [definition]);
  const row = s.next?.row;
  return { outbox, labelling, s, names, question, definition, options, row };
}
