// A question asked of the assistant's last turn, the rest of the conversation as its context: said in the question's
// own instructions, so every target (a Decisions target reading the conversation natively, or one reading its
// rendering) is asked the same thing.
import type { Questions } from '../../contract';

export type QuestionScope = 'whole' | 'last_turn';

/** What a last-turn question's instructions begin with. */
export const LAST_TURN_PREFIX =
  "Judge only the assistant's last turn in this conversation; the earlier turns are its context. ";

/** The questions as sent: each last-turn question's text instructions begin with LAST_TURN_PREFIX. */
export function scopedQuestions(
  questions: Questions,
  scopes: Readonly<Record<string, QuestionScope>>,
): Questions {
  const out: Questions = {};
  for (const [name, q] of Object.entries(questions)) {
    const text = q.instructions;
    out[name] =
      scopes[name] === 'last_turn'
        ? {
            ...q,
            instructions:
              typeof text === 'string' || text === undefined
                ? `${LAST_TURN_PREFIX}${text ?? ''}`.trim()
                : text,
          }
        : q;
  }
  return out;
}
