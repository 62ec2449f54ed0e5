// Pitfalls of judging a conversation: a question about a tool the conversation never calls (a renamed tool, or a
// rubric written for another agent), and instructions that speak of "the text" when the state is a conversation.
import { toolNames } from '../../conversation/render';
import type { LintRule, RuleHit } from '../types';
import { instructionTexts } from './fieldRefs';

// A tool named in instructions: `issue_refund` in backticks, or "the refund tool" / "issue_refund tool".
const BACKTICKED = /`([A-Za-z_][\w.-]*)`/g;
const NAMED_TOOL = /\b([A-Za-z_][\w-]*)\s+tool\b/gi;
// Words that come before "tool" without being a tool's name.
const NOT_A_NAME = new Set([
  'a',
  'an',
  'the',
  'any',
  'this',
  'that',
  'each',
  'every',
  'no',
  'one',
  'some',
  'which',
]);

const normal = (s: string): string => s.toLowerCase().replace(/[-\s]/g, '_');

/** Whether a named tool is one the conversation calls: the same name, or a part of one ("refund" for issue_refund). */
const calledAs = (named: string, called: readonly string[]): boolean =>
  called.some((c) => normal(c) === normal(named) || normal(c).split(/[_.]/).includes(normal(named)));

export const unknownTool: LintRule = {
  id: 'conversation/unknown-tool',
  severity: 'warning',
  title: 'A question names a tool the conversation never calls',
  explanation:
    'A question about a tool call the trace does not hold is answered about nothing: the judge can only say no.',
  check({ input, questions }) {
    if (!input.conversation) return [];
    const called = toolNames(input.conversation);
    const hits: RuleHit[] = [];
    for (const q of questions) {
      for (const t of instructionTexts(q)) {
        const named = new Set<string>();
        for (const m of t.text.matchAll(NAMED_TOOL))
          if (!NOT_A_NAME.has(m[1]!.toLowerCase())) named.add(m[1]!);
        // Backticks also name state fields; only a name with a tool's shape (snake_case or dotted) counts here.
        for (const m of t.text.matchAll(BACKTICKED)) if (/[_.]/.test(m[1]!)) named.add(m[1]!);
        for (const name of named) {
          if (calledAs(name, called)) continue;
          hits.push({
            message: `"${q.name}" asks about the tool "${name}", but the conversation never calls it (${called.length ? `it calls ${called.join(', ')}` : 'it calls no tool'}).`,
            loc: ['questions', q.name, ...t.path],
          });
        }
      }
    }
    return hits;
  },
};

const THE_TEXT = /\b(the|this) (text|document|passage|message)\b/i;

export const conversationText: LintRule = {
  id: 'conversation/the-text',
  severity: 'info',
  title: 'Instructions speak of "the text" when the state is a conversation',
  explanation:
    'The judge reads a conversation: naming what to judge ("the conversation", "the assistant\'s last turn") says which part the question is about.',
  check({ input, questions }) {
    if (!input.conversation) return [];
    const hits: RuleHit[] = [];
    for (const q of questions)
      for (const t of instructionTexts(q)) {
        const m = THE_TEXT.exec(t.text);
        if (m)
          hits.push({
            message: `"${q.name}" says "${m[0]}", but the state is a conversation: say "the conversation" or "the assistant's last turn".`,
            loc: ['questions', q.name, ...t.path],
          });
      }
    return hits;
  },
};
