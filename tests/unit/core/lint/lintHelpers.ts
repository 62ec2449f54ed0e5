// Helpers for lint tests: build inputs, pick findings, and apply a fix to JSON text as the editor does.
import { applyEdits, modify, parse } from 'jsonc-parser';
import { lintRubric } from '../../../../src/core/lint';
import type { LintFinding, LintFix, LintInput } from '../../../../src/core/lint';

/** A single-run input with a valid state and model unless overridden. */
export const input = (over: Partial<LintInput> & { questions: unknown }): LintInput => ({
  state: 'A message.',
  model: 'model-1.13.0',
  mode: 'single',
  ...over,
});

/** Findings of one rule for an input. */
export const findings = (inp: LintInput, ruleId: string): LintFinding[] =>
  lintRubric(inp).filter((f) => f.ruleId === ruleId);

/** The editor documents as text, pretty-printed the way a user would keep them. */
export interface Docs {
  questions: string;
  state: string;
}
export const docsOf = (inp: LintInput): Docs => ({
  questions: JSON.stringify(inp.questions, null, 2),
  state: typeof inp.state === 'string' ? inp.state : JSON.stringify(inp.state, null, 2),
});

/** Applies a fix's edits in order with jsonc-parser's modify + applyEdits; returns both documents parsed. */
export function applyFix(
  inp: LintInput,
  fix: LintFix | undefined,
): { questions: unknown; state: unknown; docs: Docs } {
  if (!fix) throw new Error('expected a fix');
  const docs = docsOf(inp);
  for (const edit of fix.edits) {
    const text = docs[edit.document];
    docs[edit.document] = applyEdits(
      text,
      modify(text, edit.path, edit.value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }),
    );
  }
  const state =
    typeof inp.state === 'string' && !fix.edits.some((e) => e.document === 'state')
      ? inp.state
      : parse(docs.state);
  return { questions: parse(docs.questions), state, docs };
}
