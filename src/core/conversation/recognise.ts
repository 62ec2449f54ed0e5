// A pasted or dropped transcript recognised by its shape, with one sentence saying what was found; anything else gets
// a sentence and changes nothing.
import { ConversationSchema } from '../../contract';
import type { Conversation } from '../../contract';
import { unmatchedOutputs } from './check';
import { fromAnthropic, looksLikeAnthropic } from './imports/anthropic';
import { fromOpenAIChat, looksLikeOpenAIChat } from './imports/openaiChat';
import { fromOpenAIInput, looksLikeOpenAIInput } from './imports/openaiInput';
import { fromOtel, looksLikeOtel } from './imports/otelGenAi';
import { isRecord } from '../../contract/guards';
import type { Imported } from './imports/shared';

export type Recognised =
  { ok: true; conversation: Conversation; sentence: string } | { ok: false; sentence: string };

const NOT_A_TRANSCRIPT =
  'This is not a transcript the workbench knows: paste an OpenAI Chat Completions messages list, an OpenAI Responses or Decisions input list, an Anthropic Messages transcript, or OpenTelemetry GenAI spans exported as JSON.';

function read(value: unknown): Imported | null {
  // A request body or a saved transcript often wraps the list: { messages }, { input }, { system, messages }.
  if (isRecord(value)) {
    if (Array.isArray(value.messages)) {
      if (value.system !== undefined || looksLikeAnthropic(value.messages))
        return fromAnthropic(value.messages, value.system);
      if (looksLikeOpenAIChat(value.messages)) return fromOpenAIChat(value.messages);
    }
    if (Array.isArray(value.input) && looksLikeOpenAIInput(value.input)) return fromOpenAIInput(value.input);
  }
  if (looksLikeOtel(value)) return fromOtel(value);
  if (!Array.isArray(value)) return null;
  if (looksLikeOpenAIInput(value)) return fromOpenAIInput(value);
  if (looksLikeAnthropic(value)) return fromAnthropic(value);
  if (looksLikeOpenAIChat(value)) return fromOpenAIChat(value);
  return null;
}

/** Reads a pasted text (JSON) as a conversation. */
export function recogniseTranscript(text: string): Recognised {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, sentence: `${NOT_A_TRANSCRIPT} (The text is not JSON.)` };
  }
  return recogniseValue(value);
}

/** Reads a parsed JSON value (a file's cell, a dropped file) as a conversation. */
export function recogniseValue(value: unknown): Recognised {
  const imported = read(value);
  if (!imported) return { ok: false, sentence: NOT_A_TRANSCRIPT };
  if (!imported.ok) return { ok: false, sentence: `${imported.why} Nothing was changed.` };
  const checked = ConversationSchema.safeParse(imported.conversation);
  if (!checked.success)
    return { ok: false, sentence: 'The transcript has no turns to judge. Nothing was changed.' };
  const unmatched = unmatchedOutputs(checked.data);
  const note = unmatched.length
    ? ` ${unmatched.length === 1 ? 'One tool output answers' : `${unmatched.length} tool outputs answer`} a call the transcript does not hold; it is marked.`
    : '';
  return { ok: true, conversation: checked.data, sentence: `Found ${imported.found}.${note}` };
}
