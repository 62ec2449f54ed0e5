// The rubric linter: every rule over the editors' parsed content, findings in document order.
//
// Decisions, each documented at its rule:
// - a score level is numeric when it holds only numbers and framing words ("3", "3/5", "Level 3", "three"); any
//   describing word makes it descriptive ("3 - good"). JSON numbers are errors (422), numeric strings warnings.
// - a state field counts as used when a question names it in backticks or mentions it as a whole word (any
//   spelling: customer_name ~ "customer name") in instructions, labels or descriptions. When no field is used at all,
//   the questions judge the state as a whole and nothing is flagged.
// - backticks name a field only around an identifier (`claim`, `customer.name`), and not around the question's own
//   labels or true/false/null/yes/no; a text state (or one that does not parse) is not checked for fields.
// - taxonomy thresholds are named in rules/taxonomyDump.ts; the linter never loads the tokenizer (see core/cost.ts).
import type { Loc } from '../../contract';
import { lintContext } from './context';
import { criteriaShape, missingCriteria } from './rules/criteriaShape';
import { duplicateLabel } from './rules/duplicateLabels';
import { exactQuantity } from './rules/exactQuantity';
import { missingField } from './rules/missingField';
import { missingInstructions, missingNoulInstructions } from './rules/missingInstructions';
import { aliasPinning, productLine } from './rules/modelId';
import { taxonomyDump } from './rules/taxonomyDump';
import { unusedField } from './rules/unusedField';
import { levelCount, optionCount } from './rules/counts';
import { levelText } from './rules/levelText';
import { numericLevel } from './rules/numericLevel';
import { pastedRequest } from './rules/pastedRequest';
import { questionsShape } from './rules/questionsShape';
import { booleanType, unknownType } from './rules/questionType';
import { unknownField } from './rules/unknownField';
import { conversationText, unknownTool } from './rules/conversation';
import type { LintContext, LintFinding, LintInput, LintRule } from './types';
import { isRecord } from '../../contract/guards';

export type { JsonEdit, LintFinding, LintFix, LintInput, LintRule, Severity } from './types';
export { duplicateKeys } from './duplicateKeys';
export type { DuplicateKey } from './duplicateKeys';
export { backtickFields, stateFieldNames } from './stateFields';

/** Every rule, in the order the panel lists them. */
export const RULES: readonly LintRule[] = [
  pastedRequest,
  questionsShape,
  booleanType,
  unknownType,
  unknownField,
  missingCriteria,
  criteriaShape,
  optionCount,
  levelCount,
  levelText,
  numericLevel,
  duplicateLabel,
  taxonomyDump,
  missingField,
  unusedField,
  exactQuantity,
  missingNoulInstructions,
  missingInstructions,
  unknownTool,
  conversationText,
  aliasPinning,
  productLine,
];

// Top-level parts of the request body in the order the editors show them.
const TOP_ORDER: Record<string, number> = { model: 0, state: 1, questions: 2 };

/** Where a loc falls in the documents: each step's index among its parent's keys, so findings read top to bottom. */
function locRank(loc: Loc, input: LintInput): number[] {
  const rank: number[] = [];
  let at: unknown = { model: input.model, state: input.state, questions: input.questions };
  loc.forEach((part, depth) => {
    let index: number;
    if (depth === 0) index = TOP_ORDER[String(part)] ?? 3;
    else if (Array.isArray(at) && typeof part === 'number') index = part;
    else if (isRecord(at)) {
      const keys = Object.keys(at);
      const i = keys.indexOf(String(part));
      index = i < 0 ? keys.length : i;
    } else index = 0;
    rank.push(index);
    at = Array.isArray(at) || isRecord(at) ? (at as Record<string | number, unknown>)[part] : undefined;
  });
  return rank;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Runs one rule; a rule that throws on input nobody foresaw costs its own findings, never the whole lint. */
function runRule(rule: LintRule, ctx: LintContext): LintFinding[] {
  try {
    return rule.check(ctx).map((hit) => ({
      ruleId: rule.id,
      severity: hit.severity ?? rule.severity,
      message: hit.message,
      explanation: rule.explanation,
      loc: hit.loc,
      ...(hit.fix ? { fix: hit.fix } : {}),
    }));
  } catch {
    return [];
  }
}

/** Lints a rubric: findings of every rule, ordered by where they are in the documents, then by rule id. */
export function lintRubric(input: LintInput, rules: readonly LintRule[] = RULES): LintFinding[] {
  const ctx = lintContext(input);
  const findings = rules.flatMap((rule) => runRule(rule, ctx));
  const ranked = findings.map((finding, order) => ({ finding, order, rank: locRank(finding.loc, input) }));
  ranked.sort(
    (a, b) =>
      compareRanks(a.rank, b.rank) ||
      (a.finding.ruleId < b.finding.ruleId ? -1 : a.finding.ruleId > b.finding.ruleId ? 1 : 0) ||
      a.order - b.order,
  );
  return ranked.map((r) => r.finding);
}
