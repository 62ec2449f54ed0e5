// Types of the rubric linter: findings located by JSON path, with quick fixes as JSON edits.
import type { Loc } from '../../contract';
import type { Conversation, QuestionType } from '../../contract';

export type Severity = 'error' | 'warning' | 'info';

/**
 * One JSON edit applied to the editor text with jsonc-parser's modify(): set a value, or remove it (value undefined).
 * `path` is relative to the document (the questions map or the state), not to the request body. The edits of one fix
 * are applied in order, each to the text the previous one produced.
 */
export interface JsonEdit {
  document: 'questions' | 'state';
  path: (string | number)[];
  value: unknown /* undefined = remove */;
}

/** A quick fix: a title for the menu and the edits that make it. */
export interface LintFix {
  title: string;
  edits: JsonEdit[];
}

/** One thing the linter found, located by its JSON path in the request body. */
export interface LintFinding {
  ruleId: string; // e.g. 'score/numeric-level'
  severity: Severity;
  message: string; // one sentence for a person
  explanation: string; // one line: why it matters (from the service interface)
  loc: Loc; // ['questions', name, 'criteria', 2], ['state', 'field'], ['model']
  fix?: LintFix;
}

/** What the linter reads: the editors' parsed content and the run's model(s). */
export interface LintInput {
  state: unknown; // the parsed state (string or object), or undefined if the state editor does not parse
  questions: unknown; // the parsed questions JSON (may be anything; do not assume it is valid)
  model: string; // model id of a single run
  models?: string[]; // comparison columns or the file run's model, when in those modes
  mode: 'single' | 'compare' | 'rows';
  /** The conversation when the state is one (the state is then its rendering). */
  conversation?: Conversation;
}

/** One question of the questions map, as found: any value, read defensively. */
export interface QuestionView {
  name: string;
  value: unknown;
  /** The question when it is a JSON object, else null. */
  obj: Record<string, unknown> | null;
  /** The question's kind when its `type` is one the service knows, else null. */
  kind: QuestionType | null;
}

/** The input, pre-read once for every rule. */
export interface LintContext {
  input: LintInput;
  /** True when the questions document is a JSON object (a map of named questions). */
  questionsIsMap: boolean;
  /** True when the questions document is a whole request (state, model, questions); its entries are then not read. */
  pastedRequest: boolean;
  /** Every entry of the questions map, in document order. */
  questions: QuestionView[];
  /** Top-level field names of the state, or null when the state has no named fields (text, or does not parse). */
  stateFields: string[] | null;
}

/** What a rule reports; the linter adds the rule's id, explanation and (unless the hit sets one) severity. */
export interface RuleHit {
  message: string;
  loc: Loc;
  fix?: LintFix;
  severity?: Severity;
}

/** A lint rule: one idea, named, with its usual severity and why it matters. */
export interface LintRule {
  id: string;
  severity: Severity;
  title: string;
  explanation: string;
  check(ctx: LintContext): RuleHit[];
}
