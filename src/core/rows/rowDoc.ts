// One row of a run as the main screen's document, asked as the run asked it: the state the row was sent as (a
// conversation stays a conversation, with the run's rendering rule), the run's own questions, model and target.
import type { JsonValue, Questions } from '../../contract';
import { conversationJson } from '../conversation/edit';
import type { SessionDoc } from '../session';
import { mapRow } from './mapping';
import type { RowMapping } from './mapping';

/** What of a run the row is asked with. */
export interface RunAsked {
  questions: Questions;
  model: string;
  targetId: string;
  mapping: RowMapping;
}

/** The document of a row, or null when the row maps to no state. */
export function docOfRow(data: JsonValue, run: RunAsked): SessionDoc | null {
  const mapped = mapRow(data, run.mapping);
  if (!mapped.ok) return null;
  const asked = {
    questionsText: `${JSON.stringify(run.questions, null, 2)}\n`,
    model: run.model,
    targetId: run.targetId,
  };
  if (mapped.conversation && run.mapping.mode === 'conversation')
    return {
      stateMode: 'conversation',
      stateText: conversationJson(mapped.conversation),
      conversationRule: run.mapping.rule,
      ...asked,
    };
  const state = mapped.state;
  return typeof state === 'string'
    ? { stateMode: 'text', stateText: state, ...asked }
    : { stateMode: 'json', stateText: JSON.stringify(state, null, 2), ...asked };
}
