// The conversation editor's text read into a conversation, with every problem on its line: JSON syntax, the shape of
// each item (the Decisions input items), and a tool output whose call id names no earlier call.
import { ConversationSchema, isToolCall, isToolOutput } from '../../contract';
import type { Conversation, Loc } from '../../contract';
import { fieldErrors } from '../../contract';
import { firstLineSpan, locateInJson } from '../locate';
import type { TextSpan } from '../locate';
import { parseJson } from '../questionsDocument';

export interface ConversationProblem {
  /** Where in the conversation's JSON (item index, field). */
  loc: Loc;
  message: string;
  span: TextSpan;
}

export type CheckedConversation =
  { ok: true; conversation: Conversation } | { ok: false; problems: ConversationProblem[] };

const at = (text: string, loc: Loc): TextSpan => locateInJson(text, loc)?.span ?? firstLineSpan(text);

/** Reads the editor's text; never changes it. */
export function checkConversation(text: string): CheckedConversation {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    if (parsed.empty)
      return {
        ok: false,
        problems: [
          {
            loc: [],
            message: 'The conversation is empty: write a JSON list of messages, or paste a transcript.',
            span: firstLineSpan(text),
          },
        ],
      };
    const first = parsed.problems[0]!;
    return {
      ok: false,
      problems: [
        { loc: [], message: `The conversation is not valid JSON: ${first.message}.`, span: first.span },
      ],
    };
  }
  const shaped = ConversationSchema.safeParse(parsed.value);
  if (!shaped.success)
    return {
      ok: false,
      problems: fieldErrors(shaped.error, parsed.value).map((e) => ({
        loc: e.loc,
        message: e.msg,
        span: at(text, e.loc),
      })),
    };
  const problems = unmatchedOutputs(shaped.data).map((p) => ({ ...p, span: at(text, p.loc) }));
  return problems.length ? { ok: false, problems } : { ok: true, conversation: shaped.data };
}

/** Tool outputs whose call id matches no call before them: a trace that cannot be read as it was. */
export function unmatchedOutputs(conversation: Conversation): { loc: Loc; message: string }[] {
  const calls = new Set<string>();
  const out: { loc: Loc; message: string }[] = [];
  conversation.forEach((item, i) => {
    if (isToolCall(item)) calls.add(item.call_id);
    else if (isToolOutput(item) && !calls.has(item.call_id))
      out.push({
        loc: [i, 'call_id'],
        message: `This tool output answers the call "${item.call_id}", but no tool call before it has that id.`,
      });
  });
  return out;
}
